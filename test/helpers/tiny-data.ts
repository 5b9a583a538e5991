/**
 * Tiny sample data for the tests, generated once and kept on disk for every test file and every later
 * run: the generator is deterministic, and a run costs seconds of CPU per service (mf most), which a
 * dozen test files used to pay again each.
 *
 * The cache lives in the system temp dir (ALMANAC_TEST_CACHE overrides), keyed by everything that
 * decides the bytes: the generator's and the contracts' sources, the real price series it splices in,
 * and the lock file; then by service, seed and the sequence of publishes. Generation N is generations
 * 1..N written in turn into one directory, as a publisher's history is (the generator keeps files whose
 * content did not change, so a sync of N after N-1 downloads only what changed). Each generation after
 * the first steps a week unless `publishes` says how it was published (a day, no new day, revised
 * NAVs, a rebuild: src/gen/timeline.ts; a schema drift), and each prefix of a sequence is an entry of its own, so a
 * test walking day, day, Monday, revise, rebuild pays one generation per step. Directories are built
 * under a temporary name and renamed into place, so test files racing for the same entry each get a
 * whole one.
 *
 * The cached directories are read-only: `publishTiny` copies them where a test serves or changes them.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Service } from '../../src/core/sync/datasets.js';
import type { Drift, PublishOptions } from '../../src/gen/options.js';
import { REAL_PRICES_DIR } from '../../src/gen/real-prices.js';

export interface TinyOptions {
  /** Generations 1..N, each after the first a week on (default 1); or give `publishes`. */
  generation?: number;
  seed?: number;
  /** How generations 2, 3, … were published, in order; the generation is then 1 + its length. */
  publishes?: readonly Publish[];
}

/** One publish after the first; `drift` publishes a schema drift with it (docs/sync.md). */
export type Publish = PublishOptions & { drift?: Drift };

const REPO = fileURLToPath(new URL('../..', import.meta.url));
let root: string | null = null;

/** The cache directory for the current sources (computed once per process). */
export function tinyCacheRoot(): string {
  if (root) return root;
  const h = createHash('sha256');
  const add = (base: string, rel: string[]) => {
    for (const f of rel.sort()) h.update(`${f}\0`).update(fs.readFileSync(path.join(base, f))).update('\0');
  };
  const files = (dir: string): string[] =>
    fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => fs.statSync(path.join(dir, f)).isFile()) : [];
  add(REPO, [...files(path.join(REPO, 'src/gen')).map((f) => `src/gen/${f}`), ...files(path.join(REPO, 'src/core/contract')).map((f) => `src/core/contract/${f}`), 'package-lock.json']);
  add(REAL_PRICES_DIR, files(REAL_PRICES_DIR));
  root = path.join(process.env.ALMANAC_TEST_CACHE ?? os.tmpdir(), `almanac-tiny-${h.digest('hex').slice(0, 12)}`);
  return root;
}

/** The cached directory holding `service`'s published files (manifest.json and the rest). */
export async function tinyData(service: Service, opts: TinyOptions = {}): Promise<string> {
  const seed = opts.seed ?? 42;
  const publishes = publishesOf(opts);
  const generation = publishes.length + 1;
  const dir = path.join(tinyCacheRoot(), `${service}-s${seed}-${entryName(publishes)}`);
  if (fs.existsSync(dir)) return dir;
  fs.mkdirSync(tinyCacheRoot(), { recursive: true });
  const tmp = `${dir}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    if (generation > 1) fs.cpSync(await tinyData(service, { seed, publishes: publishes.slice(0, -1) }), tmp, { recursive: true });
    const mod = (await import(`../../src/gen/${service}.ts`)) as { generate: (o: object) => Promise<unknown> };
    await mod.generate({ scale: 'tiny', dir: tmp, generation, seed, ...publishes[generation - 2] });
    try {
      fs.renameSync(tmp, dir);
    } catch (e) {
      // Another test file finished the same entry first: theirs is identical.
      if (!fs.existsSync(dir)) throw e;
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return dir;
}

function publishesOf(opts: TinyOptions): readonly Publish[] {
  if (!opts.publishes) return Array.from({ length: (opts.generation ?? 1) - 1 }, () => ({}));
  if (opts.generation !== undefined && opts.generation !== opts.publishes.length + 1) {
    throw new Error(`tinyData: generation ${opts.generation} but ${opts.publishes.length} publishes after the first`);
  }
  return opts.publishes;
}

/** `g3` for three weekly generations (the names from before `publishes`), else `g1` plus one tag per publish. */
function entryName(publishes: readonly Publish[]): string {
  const tag = (p: Publish): string => `${(p.step ?? 'week')[0]}${p.revise ? `r${p.revise}` : ''}${p.rebuild ? 'b' : ''}${p.drift ? `-${p.drift}` : ''}`;
  const tags = publishes.map(tag);
  return tags.every((t) => t === 'w') ? `g${publishes.length + 1}` : ['g1', ...tags].join('-');
}

/** Copies tiny data into `dataDir/<service>` (a publisher's data dir), replacing what is there. */
export async function publishTiny(dataDir: string, services: readonly Service[], opts: TinyOptions = {}): Promise<void> {
  for (const s of services) {
    const out = path.join(dataDir, s);
    fs.rmSync(out, { recursive: true, force: true });
    fs.cpSync(await tinyData(s, opts), out, { recursive: true });
  }
}
