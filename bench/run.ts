/**
 * `npm run bench [-- --scale full|demo|tiny] [--only NAME,...] [--repeats N]`
 *
 * Generates (or reuses) sample data at the chosen scale, serves it from the stand-in publisher on
 * loopback, syncs it with the real sync engine, then times each case next to its reference measured
 * in the same run: native DuckDB (@duckdb/node-api) running the same service functions — the same
 * SQL — on the same database files; quantstats' recorded figure for compare. Then the app's cases in
 * Chromium (bench/chromium.ts): sync into OPFS, tab memory while querying, grid scroll, start to first
 * chart, bundle size. Results go to bench/results/*.json and docs/performance.md (table + SVG chart).
 * NAME matches case names by substring (`ingest`, `refresh`, `mf`, `compare`, `chromium`, `grid`, `start`, `bundle`, …).
 * `--profile DIR` keeps the Chromium profile (and its synced data) for the next run.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from '../src/cli/args.js';
import { SERVICES, type Service } from '../src/core/sync/datasets.js';
import { openStore } from '../src/core/store/node.js';
import type { Engine } from '../src/core/engine/engine.js';
import { startPublisher } from '../src/publisher/server.js';
import type { Scale } from '../src/gen/options.js';
import { NativeEngine } from './native-engine.js';
import { mfBenchCases } from './mf.js';
import { benchCompare } from './compare.js';
import { indicatorBenchCases, flagsBenchCases } from './cases.js';
import { printTable, ratio, time, writeResults, type BenchResult, type Stats } from './lib.js';
import { chromiumCases, type ChildResult, type ChromiumRun } from './chromium.js';
import { renderPerformanceDoc, svgChart } from './report.js';

const run = promisify(execFile);
const args = parseArgs(process.argv.slice(2));
const scale = (typeof args.flags.scale === 'string' ? args.flags.scale : 'full') as Scale;
const only = typeof args.flags.only === 'string' ? args.flags.only.split(',') : null;
const repeats = Number(typeof args.flags.repeats === 'string' ? args.flags.repeats : 7);
const wants = (name: string) => !only || only.some((o) => name.includes(o));
/** A Chromium profile kept across runs (bench/chromium.ts), for working on one Chromium case. */
const profile = typeof args.flags.profile === 'string' ? path.resolve(args.flags.profile) : undefined;

const root = path.resolve('.data', `bench-${scale}`);
const pub = path.join(root, 'pub');
const results: BenchResult[] = [];

async function child(...argv: string[]) {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bench/child.ts', ...argv], {
    maxBuffer: 1 << 26,
    env: { ...process.env, HOME: os.tmpdir() },
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as ChildResult & { requests?: number; body_bytes?: number; statuses?: string[] };
}

async function ensureData() {
  for (const svc of SERVICES) {
    if (existsSync(path.join(pub, svc, 'manifest.json'))) continue;
    console.log(`generating ${svc} at ${scale} scale into ${pub}/${svc} …`);
    const t0 = performance.now();
    const { generate } = await import(`../src/gen/${svc}.js`);
    await generate({ scale, dir: path.join(pub, svc), generation: 1, seed: 42 });
    console.log(`  ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
}

/** Cold = the first call after opening; warm = median of repeats after that. */
async function sideBySide(name: string, target: string, make: (e: Engine) => Promise<() => Promise<unknown>>, almanac: Engine, native: Engine, check?: (warm: Stats, ref: Stats) => boolean) {
  if (!wants(name)) return;
  const a = await make(almanac);
  const n = await make(native);
  const t0 = performance.now();
  await a();
  const cold = performance.now() - t0;
  const warm = await time(a, repeats, 1);
  const ref = await time(n, repeats, 1);
  results.push({
    case: `${name}, warm`,
    unit: 'ms',
    almanac: warm,
    reference: { name: 'native DuckDB, same SQL and files', value: ref },
    ratio: ratio(warm, ref),
    target,
    met: check ? check(warm, ref) : undefined,
    note: `first call after open: ${cold.toFixed(1)} ms`,
  });
}

async function main() {
  const started = { at: new Date().toISOString(), loadavg: os.loadavg(), uptime: uptime() };
  mkdirSync(root, { recursive: true });
  await ensureData();
  const publisher = await startPublisher({ dataDir: pub, limits: 'spec' });
  const storeDir = path.join(root, 'store');
  const parquetFile = path.join(pub, 'mf', 'mf_nav_master.parquet');
  const ingest: ChromiumRun['ingest'] = {};
  try {
    if (wants('ingest (Node)')) {
      rmSync(storeDir, { recursive: true, force: true });
      const mf = await child('sync', publisher.url, storeDir, 'mf');
      ingest.node = mf;
      const nativeDb = path.join(root, 'native-nav.duckdb');
      for (const threads of [null, '1']) {
        rmSync(nativeDb, { force: true });
        const native = await child('native-load', parquetFile, nativeDb, ...(threads ? [threads] : []));
        ingest[threads ? 'nativeOne' : 'native'] = native;
        results.push({
          case: `MF full history download + ingest (Node)${threads ? ', vs one native thread' : ''}`,
          unit: 'ms',
          almanac: mf.ms,
          reference: { name: `native DuckDB loading the same parquet with the same casts${threads ? ', threads=1 (DuckDB-WASM runs one)' : ` (${os.cpus().length} threads)`}`, value: native.ms },
          ratio: ratio(mf.ms, native.ms),
          target: '<= 2x native; memory bounded',
          met: mf.ms <= 2 * native.ms,
          note: `peak RSS ${mf.maxRssMb} MB (native ${native.maxRssMb} MB); Almanac's time includes the HTTP download`,
        });
      }
      rmSync(nativeDb, { force: true });
    }
    // The rest of the store (and a complete one if ingest was skipped).
    const rest = await child('sync', publisher.url, storeDir);
    if (wants('refresh')) {
      const again = await child('sync', publisher.url, storeDir);
      const files = again.statuses?.length ?? 0;
      results.push({
        case: 'refresh, nothing changed',
        unit: 'bytes',
        almanac: again.body_bytes ?? -1,
        target: '0 body bytes; one conditional request per chosen file',
        met: again.body_bytes === 0 && again.statuses!.every((s) => s === 'not_modified'),
        note: `${again.requests} requests for ${files} files and ${SERVICES.length} manifests (first sync of the rest: ${rest.requests} requests)`,
      });
    }

    const store = await openStore(storeDir);
    const native = await NativeEngine.over(storeDir);
    try {
      for (const c of await mfBenchCases(store.engine)) {
        const target = c.name.includes('search') ? '<= 10 ms warm' : c.name.includes('one scheme') ? '<= 2x native; warm <= 30 ms' : '<= 2x native';
        const check = c.name.includes('search')
          ? (w: Stats) => w.median <= 10
          : c.name.includes('one scheme')
            ? (w: Stats, r: Stats) => w.median <= 30 && w.median <= 2 * r.median
            : (w: Stats, r: Stats) => w.median <= 2 * r.median;
        await sideBySide(c.name, target, async (e) => (await mfBenchCases(e)).find((x) => x.name === c.name)!.run, store.engine, native, check);
      }
      for (const c of indicatorBenchCases()) {
        await sideBySide(c.name, c.target, async (e) => () => c.run(e), store.engine, native, c.check);
      }
      for (const c of flagsBenchCases()) {
        await sideBySide(c.name, c.target, async (e) => () => c.run(e), store.engine, native, c.check);
      }
    } finally {
      await native.close();
      await store.close();
    }
    if (wants('compare')) results.push(...(await benchCompare(repeats)));
    results.push(
      ...(await chromiumCases({ repeats, wants, appDir: path.resolve('.data', 'bench-app'), publisherUrl: publisher.url, storeDir, parquetFile, child, ingest, profile })),
    );
  } finally {
    await publisher.close();
  }

  printTable(results);
  const payload = {
    generated_at: new Date().toISOString(),
    scale,
    node: process.version,
    cpus: os.cpus().length,
    chromium: chromiumVersion(),
    started,
    loadavg: os.loadavg(),
    uptime: uptime(),
    results,
  };
  console.log(writeResults(`suite-${scale}`, payload));
  if (!only) {
    writeFileSync('docs/performance.md', renderPerformanceDoc(payload));
    writeFileSync('docs/performance.svg', svgChart(results));
  }
}

/** The machine is shared: what `uptime` said, recorded with the figures. */
function uptime(): string {
  try {
    return execFileSync('uptime', { encoding: 'utf8' }).trim();
  } catch {
    return `load average: ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`;
  }
}

function chromiumVersion(): string | null {
  try {
    return execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

await main();
