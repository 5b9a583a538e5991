/**
 * The MF history refreshed by day (issue 20, docs/sync.md): a copy of the bench's MF data is
 * published one day at a time (`--step day`, so a Friday is followed by a Monday with weekend NAVs)
 * and stores kept from the first sync are refreshed after each: Almanac in Node (each sync its own
 * process) and, with `appDir`, the app in Chromium (the sync worker into OPFS, one page kept open).
 * Measured per side: the bytes each refresh moved against the history file's, its wall time against
 * that side's first sync; and, after the last, the MF query cases on the refreshed Node store against
 * a store synced fresh from the same publish (CPU medians, both stores in one child process taking
 * turns, so both see the same machine and JIT).
 */
import { cpSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startPublisher } from '../src/publisher/server.js';
import type { Scale } from '../src/gen/options.js';
import { FIRST_AS_OF, readGenState } from '../src/gen/timeline.js';
import { harnessPair } from './chromium-pair.js';
import { appSyncs, type AppSync, type ChildResult } from './chromium.js';
import { ratio, stats, type BenchResult } from './lib.js';

type Child = (...argv: string[]) => Promise<ChildResult & { requests?: number; body_bytes?: number; details?: string[] }>;

/** One store being refreshed: its sync of the MF service, and what a refresh there includes. */
interface Side {
  name: string;
  sync: () => Promise<AppSync>;
  what: string;
}

interface Run {
  day: number;
  ms: number;
  bytes: number;
  history: number;
  monday: boolean;
  detail: string;
  load: number;
}

/**
 * `days` publishes at most; with `minutes`, no new day is published once the days so far took that
 * long, or when the next one (as long as the last) would pass it: the refreshed days are then fewer,
 * and the rows say how many.
 */
export async function oneDayCases(o: { scale: Scale; root: string; pub: string; child: Child; days: number; minutes?: number; repeats: number; appDir?: string }): Promise<BenchResult[]> {
  const daily = path.join(o.root, 'pub-daily');
  const store = path.join(o.root, 'store-daily');
  const fresh = path.join(o.root, 'store-daily-fresh');
  rmSync(daily, { recursive: true, force: true });
  rmSync(store, { recursive: true, force: true });
  // Every service, so the app finds each of its sources (only MF is synced and published anew).
  cpSync(o.pub, daily, { recursive: true });
  // Each day steps from the generation the copy holds, whichever way it got there (another case may
  // have published weeks into the same data directory): stepping from generation 1 instead would
  // publish a history older than the one the stores hold.
  const mfState = () => readGenState(path.join(daily, 'mf'));
  const g0 = (await mfState())?.generation ?? 1;
  const historyFile = path.join(daily, 'mf', 'mf_nav_master.parquet');
  const publisher = await startPublisher({ dataDir: daily, limits: 'spec' });
  const browser = o.appDir ? await appSyncs(o.appDir, publisher.url) : null;
  // Chromium's query pairing: two harness stores beside the app's (bench/chromium-pair.ts).
  const harnesses = o.appDir ? await harnessPair(publisher.url) : null;
  const { generate } = await import('../src/gen/mf.js');
  const sides: Side[] = [
    {
      name: 'Node',
      sync: async () => {
        const r = await o.child('sync', publisher.url, store, 'mf');
        return { ms: r.ms, body_bytes: r.body_bytes ?? -1, details: r.details ?? [] };
      },
      what: 'each refresh in its own process (engine start included)',
    },
    ...(browser ? [{ name: 'Chromium, OPFS', sync: () => browser.sync(['mf']), what: "the app's Sync button in one open page (sync worker, OPFS)" }] : []),
  ];
  const out: BenchResult[] = [];
  try {
    const first: number[] = [];
    for (const side of sides) first.push((await side.sync()).ms);
    await harnesses?.sync(0);
    const runs: Run[][] = sides.map(() => []);
    const end = performance.now() + (o.minutes ?? Infinity) * 60_000;
    let days = 0;
    while (days < o.days) {
      const t = performance.now();
      const day = ++days;
      const before = new Date(`${(await mfState())?.as_of.at(-1) ?? FIRST_AS_OF}T00:00:00Z`).getUTCDay();
      await generate({ scale: o.scale, dir: path.join(daily, 'mf'), generation: g0 + day, seed: 42, step: 'day' });
      // The stand-in publisher answers its query endpoints from a store it builds from each new
      // publish on the first query (src/publisher/queries.ts): ~40 s at full scale that the real
      // service does not have, and that would fall on whichever side first fills a gap. Built here.
      const warm = await fetch(`${publisher.url}/mf/v1/search?q=fund&limit=1`);
      await warm.arrayBuffer();
      if (!warm.ok) throw new Error(`the publisher's query endpoints: HTTP ${warm.status}`);
      for (const [i, side] of sides.entries()) {
        const r = await side.sync();
        const run = { day, ms: r.ms, bytes: r.body_bytes, history: statSync(historyFile).size, monday: before === 5, detail: r.details.join('; '), load: os.loadavg()[0] };
        runs[i].push(run);
        console.log(`day ${day}${run.monday ? ' (Monday)' : ''}, ${side.name}: ${run.bytes} bytes moved, ${((100 * run.bytes) / run.history).toFixed(2)} % of the ${run.history}-byte history, ${Math.round(run.ms)} ms (load ${run.load.toFixed(1)}): ${run.detail}`);
      }
      await harnesses?.sync(0);
      const now = performance.now();
      if (now + (now - t) > end) break;
    }
    for (const [i, side] of sides.entries()) out.push(...sideCases(side, runs[i], first[i], o.scale));
    rmSync(fresh, { recursive: true, force: true });
    await o.child('sync', publisher.url, fresh, 'mf');
    // Both stores in one process, taking turns on one engine (bench/child.ts `mf-queries`).
    const { cpu } = (await o.child('mf-queries', store, fresh, String(o.repeats))) as unknown as { cpu: Record<string, [number, number]> };
    const paired = (name: string, [refreshed, whole]: [number, number], where: string, measure: 'cpu' | 'wall', note: string): BenchResult => ({
      case: `${name}, after ${days} one-day refreshes vs a fresh store${where}`,
      unit: 'ms',
      measure,
      almanac: refreshed,
      reference: { name: 'the same publish synced fresh (mf.nav one table)', value: whole },
      ratio: ratio(refreshed, whole),
      target: '<= 1.1x the fresh store',
      met: refreshed <= 1.1 * whole,
      note,
    });
    for (const [name, pair] of Object.entries(cpu)) {
      out.push(paired(name, pair, '', 'cpu', `CPU medians of ${o.repeats} calls each, one engine attaching the two stores in turn (runs of 10, ABBA order)`));
    }
    if (harnesses) {
      await harnesses.sync(1);
      for (const [name, pair] of Object.entries(await harnesses.pair(o.repeats))) {
        out.push(paired(name, pair, ' (Chromium)', 'wall', `wall medians of ${o.repeats} calls each in two harness pages' services workers (OPFS), in turn (runs of 10, ABBA order)`));
      }
    }
  } finally {
    await browser?.close();
    await harnesses?.close();
    await publisher.close();
  }
  return out;
}

/** One side's rows: bytes per weekday and per Monday against the history file, wall time against its first sync. */
function sideCases(side: Side, runs: Run[], first: number, scale: Scale): BenchResult[] {
  const weekday = runs.filter((r) => !r.monday);
  const monday = runs.filter((r) => r.monday);
  const share = (rs: Run[]) => stats(rs.map((r) => (100 * r.bytes) / r.history));
  const loads = `load ${Math.min(...runs.map((r) => r.load)).toFixed(1)}-${Math.max(...runs.map((r) => r.load)).toFixed(1)}`;
  const out: BenchResult[] = [];
  if (weekday.length) {
    out.push({
      case: `MF one-day refresh (${side.name}): bytes moved, % of the history file`,
      unit: 'x',
      almanac: share(weekday),
      target: '<= 5 % of the history',
      met: share(weekday).max <= 5,
      note: `${weekday.length} weekday refreshes at ${scale} scale; history ${(runs[0].history / 1e6).toFixed(1)} MB; every byte of the sync (manifest, snapshot, footer, other changed MF files)`,
      detail: runs,
    });
  }
  if (monday.length) {
    out.push({
      case: `MF Monday refresh (${side.name}, weekend NAVs): bytes moved, % of the history file`,
      unit: 'x',
      almanac: share(monday),
      target: '<= 10 % of the history',
      met: share(monday).max <= 10,
      note: `${monday.length} Mondays`,
    });
  }
  for (const [label, rs] of [['one-day', weekday], ['Monday', monday]] as const) {
    if (!rs.length) continue;
    const wall = stats(rs.map((r) => r.ms));
    out.push({
      case: `MF ${label} refresh (${side.name}): wall time vs the first sync`,
      unit: 'ms',
      almanac: wall,
      reference: { name: 'first sync of MF (download + ingest of the whole history)', value: first },
      ratio: ratio(wall, first),
      target: '<= 25 % of the first sync (target at full scale, one-day publishes)',
      met: label === 'one-day' ? wall.median <= 0.25 * first : undefined,
      note: `${side.what}, ${scale} scale; ${loads}`,
    });
  }
  return out;
}
