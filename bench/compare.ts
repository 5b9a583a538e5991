/**
 * Compare benchmark: 6 symbols x 10 years (reference case dev-02, all 81 metrics per symbol), warm,
 * through the same core function REST, MCP and the CLI call. quantstats 0.0.81 took 3.91 s for the
 * same request (recorded with the reference cases); the goal is at least 50x faster.
 * `npx tsx bench/compare.ts` runs it alone; `benchCompare()` is what a suite runner calls.
 */
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { NodeEngine } from '../src/core/engine/node.js';
import { compare } from '../src/core/services/compare/compare.js';
import { openPriceSource } from '../src/core/services/compare/prices.js';
import { REFERENCE_DIR, loadUserPrices, referenceCases } from '../test/core/compare/reference.js';
import { parsePricesCsv } from '../src/core/services/compare/import.js';
import { plainMetrics } from './compare-plain.js';
import { readFileSync } from 'node:fs';
import { mkdirSync, writeFileSync } from 'node:fs';
import { printTable, ratio, time, type BenchResult } from './lib.js';

export const QUANTSTATS_SECONDS = 3.91;
const TARGET_X = 50;
/**
 * Warm means after this many runs: V8 compiles WebAssembly with its baseline compiler first and tiers
 * the hot functions up as they run, so DuckDB-WASM needs about ten runs of the same request to reach
 * its steady speed (docs/compare.md, "Speed"). The plain implementation gets the same warm-up.
 */
const WARMUP = 10;

export async function benchCompare(repeats = 7): Promise<BenchResult[]> {
  const c = referenceCases().find((r) => r.id === 'dev-02')!;
  const engine = await NodeEngine.open();
  try {
    await loadUserPrices(engine, path.join(REFERENCE_DIR, c.prices_csv));
    const source = await openPriceSource(engine);
    const params = { symbols: c.symbols, benchmark: c.benchmark, start_date: c.start_date, end_date: c.end_date, risk_free_rate: c.risk_free_rate, precision: 'display' as const };
    const run = async () => {
      const res = await compare(engine, params, source);
      if (!res.symbols.every((s) => s.success)) throw new Error('compare bench: a symbol failed');
    };
    const t0 = performance.now();
    await run();
    const first = performance.now() - t0;
    const warm = await time(run, repeats, WARMUP);
    // CPU time per request: what the machine's load does not inflate (DuckDB-WASM is single-threaded)
    const cpu: number[] = [];
    for (let i = 0; i < repeats; i++) {
      const c0 = process.cpuUsage();
      await run();
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }
    const cpuMedian = cpu.sort((a, b) => a - b)[cpu.length >> 1];
    // A catalog change, as each sync the page records makes (its temp tables): before the engines
    // prepared their kept statements anew, DuckDB rebound this one at every later run.
    await engine.exec('CREATE OR REPLACE TEMP TABLE bench_catalog_change AS SELECT 1 AS x');
    const afterChange = await time(run, repeats, WARMUP);
    // the same request in plain TypeScript over the same arrays (cut to the window, benchmark included)
    const rows = parsePricesCsv(readFileSync(path.join(REFERENCE_DIR, c.prices_csv), 'utf8'));
    const cut = (sym: string) => {
      const own = rows.filter((r) => r.symbol === sym && r.date >= c.start_date && r.date <= c.end_date);
      return { dates: own.map((r) => r.date), closes: own.map((r) => r.close) };
    };
    const bench = cut(c.benchmark);
    const arrays = c.symbols.map(cut);
    const plain = await time(async () => arrays.map((a) => plainMetrics(a, bench, c.risk_free_rate, true)), repeats, WARMUP);
    const reference = QUANTSTATS_SECONDS * 1000;
    const speedup = Math.round((reference / warm.median) * 10) / 10;
    return [
      {
        case: `compare ${c.symbols.length} symbols x 10 years, 81 metrics, warm`,
        unit: 'ms',
        almanac: warm,
        reference: { name: 'quantstats 0.0.81 (recorded)', value: reference },
        ratio: ratio(warm, reference),
        target: `>= ${TARGET_X}x faster (<= ${Math.round(reference / TARGET_X)} ms)`,
        met: speedup >= TARGET_X,
        note: `${speedup}x faster than quantstats; first call (plans the statement, compiles) ${first.toFixed(0)} ms; warm after ${WARMUP} runs; CPU per request ${cpuMedian.toFixed(0)} ms (median); load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
      },
      {
        case: 'compare after a catalog change (a temp table created, as a sync recorded in the page does)',
        unit: 'ms',
        almanac: afterChange,
        reference: { name: 'the same request before the change, same engine', value: warm },
        ratio: ratio(afterChange, warm),
        target: '<= 1.1x',
        met: afterChange.median <= 1.1 * warm.median,
        note: 'kept statements are prepared anew after a catalog change (kept-statements.ts); before, 2.2x for good',
      },
      {
        case: 'compare, same request: DuckDB-WASM vs plain TypeScript over the same arrays',
        unit: 'ms',
        almanac: warm,
        reference: { name: 'plain TypeScript (bench/compare-plain.ts)', value: plain },
        ratio: ratio(warm, plain),
        note: 'secondary: the plain implementation is the cross-check of the tests',
      },
    ];
  } finally {
    await engine.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const results = await benchCompare();
  printTable(results);
  const dir = path.join(process.cwd(), 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `compare-${new Date().toISOString().slice(0, 10)}.json`);
  writeFileSync(file, JSON.stringify({ generated_at: new Date().toISOString(), node: process.version, results }, null, 2));
  console.log(file);
}
