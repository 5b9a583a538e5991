/**
 * `npm run gen -- --scale tiny|demo|full --out DIR [--generation N|next] [--seed S] [--only indicators,mf,flags]
 *   [--drift KIND] [--step week|day|none] [--revise N] [--rebuild]`
 * Each service's generator is imported on demand, so a missing one fails with its name. How a
 * generation steps on from the one already in OUT is src/gen/timeline.ts; docs/publisher.md has it.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SCALES, STEPS, type Drift, type GenOptions, type Scale, type Step } from './options.js';
import { readGenState } from './timeline.js';

const SERVICES = ['indicators', 'mf', 'flags'] as const;
type Service = (typeof SERVICES)[number];
const DRIFTS: readonly Drift[] = ['rename', 'insert', 'retype', 'drop', 'silent'];
const USAGE = [
  'usage: npm run gen -- --scale tiny|demo|full --out DIR [--generation N|next] [--seed S] [--only indicators,mf,flags]',
  '         [--drift rename|insert|retype|drop|silent] [--step week|day|none] [--revise N] [--rebuild]',
  '  --generation  which generation to publish (default 1); next: the one after what OUT/<service> holds',
  '  --step     how far generation N moves on from generation N-1 in OUT: a week (default), the next',
  '             business day (weekend and holiday NAVs of liquid and overnight funds arrive with it), or none',
  '  --revise   MF: also correct N past NAVs (same rows, new values)',
  '  --rebuild  MF: rewrite the history parquet with new bytes (so a new ETag) and identical rows',
].join('\n');

type Generate = (opts: GenOptions) => Promise<void>;

/** src/gen/<service>.ts exports `generate`; loaded by name so one missing generator fails alone. */
async function load(service: Service): Promise<Generate> {
  const mod = (await import(`./${service}.js`)) as { generate?: Generate };
  if (typeof mod.generate !== 'function') throw new Error(`src/gen/${service}.ts does not export generate()`);
  return mod.generate;
}

function positiveInt(v: string, name: string, min: number): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min}\n${USAGE}`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scale: { type: 'string' },
      out: { type: 'string' },
      generation: { type: 'string', default: '1' },
      seed: { type: 'string', default: '42' },
      only: { type: 'string' },
      drift: { type: 'string' },
      step: { type: 'string', default: 'week' },
      revise: { type: 'string', default: '0' },
      rebuild: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const scale = values.scale as Scale;
  if (!SCALES.includes(scale)) throw new Error(`--scale must be one of ${SCALES.join(', ')}\n${USAGE}`);
  if (!values.out) throw new Error(`--out is required\n${USAGE}`);
  const drift = values.drift as Drift | undefined;
  if (drift !== undefined && !DRIFTS.includes(drift)) throw new Error(`--drift must be one of ${DRIFTS.join(', ')}\n${USAGE}`);
  const only = values.only ? values.only.split(',').map((s) => s.trim()) : [...SERVICES];
  const unknown = only.filter((s) => !(SERVICES as readonly string[]).includes(s));
  if (unknown.length) throw new Error(`--only: unknown service ${unknown.join(', ')} (known: ${SERVICES.join(', ')})`);
  const step = values.step as Step;
  if (!STEPS.includes(step)) throw new Error(`--step must be one of ${STEPS.join(', ')}\n${USAGE}`);
  const revise = positiveInt(values.revise, 'revise', 0);
  const next = values.generation === 'next';
  const given = next ? 0 : positiveInt(values.generation, 'generation', 1);
  const seed = positiveInt(values.seed, 'seed', 0);
  const out = path.resolve(values.out);

  for (const service of only as Service[]) {
    let generate: Generate;
    try {
      generate = await load(service);
    } catch (e) {
      throw new Error(`the ${service} generator (src/gen/${service}.ts) could not be loaded: ${e instanceof Error ? e.message : e}`);
    }
    const dir = path.join(out, service);
    // `next`: the publish after the one this directory holds (a daily user's "publish tomorrow").
    const generation = next ? ((await readGenState(dir))?.generation ?? 0) + 1 : given;
    const started = performance.now();
    await generate({ scale, dir, generation, seed, drift, step, revise, rebuild: values.rebuild });
    console.log(`${service}: generation ${generation}, ${((performance.now() - started) / 1000).toFixed(1)} s → ${dir}`);
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
