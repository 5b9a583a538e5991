/**
 * The MF history refreshed by day (issue 20, docs/sync.md): a copy of the bench's MF data is
 * published one day at a time (`--step day`, so a Friday is followed by a Monday with weekend NAVs)
 * and a store kept from the first sync is refreshed after each. Measured: the bytes each refresh moved
 * against the history file's, its wall time against the first sync's, and, after the last, the MF
 * query cases on the refreshed store against a store synced fresh from the same publish (CPU medians,
 * both stores in one child process taking turns, so both see the same machine and JIT).
 */
import { cpSync, existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { startPublisher } from '../src/publisher/server.js';
import type { Scale } from '../src/gen/options.js';
import type { ChildResult } from './chromium.js';
import { ratio, stats, type BenchResult } from './lib.js';

type Child = (...argv: string[]) => Promise<ChildResult & { requests?: number; body_bytes?: number; details?: string[] }>;

export async function oneDayCases(o: { scale: Scale; root: string; pub: string; child: Child; days: number; repeats: number }): Promise<BenchResult[]> {
  const daily = path.join(o.root, 'pub-daily');
  const store = path.join(o.root, 'store-daily');
  const fresh = path.join(o.root, 'store-daily-fresh');
  rmSync(daily, { recursive: true, force: true });
  rmSync(store, { recursive: true, force: true });
  cpSync(path.join(o.pub, 'mf'), path.join(daily, 'mf'), { recursive: true });
  const historyFile = path.join(daily, 'mf', 'mf_nav_master.parquet');
  const publisher = await startPublisher({ dataDir: daily, limits: 'spec' });
  const { generate } = await import('../src/gen/mf.js');
  const out: BenchResult[] = [];
  try {
    const first = await o.child('sync', publisher.url, store, 'mf');
    const runs: { day: number; ms: number; bytes: number; history: number; monday: boolean }[] = [];
    for (let day = 1; day <= o.days; day++) {
      const before = new Date(`${lastAsOf(daily)}T00:00:00Z`).getUTCDay();
      await generate({ scale: o.scale, dir: path.join(daily, 'mf'), generation: day + 1, seed: 42, step: 'day' });
      const r = await o.child('sync', publisher.url, store, 'mf');
      const run = { day, ms: r.ms, bytes: r.body_bytes ?? -1, history: statSync(historyFile).size, monday: before === 5, detail: r.details?.join('; ') ?? '' };
      runs.push(run);
      console.log(`day ${day}${run.monday ? ' (Monday)' : ''}: ${run.bytes} bytes moved, ${((100 * run.bytes) / run.history).toFixed(2)} % of the ${run.history}-byte history, ${Math.round(run.ms)} ms: ${run.detail}`);
    }
    const weekday = runs.filter((r) => !r.monday);
    const monday = runs.filter((r) => r.monday);
    const share = (rs: typeof runs) => stats(rs.map((r) => (100 * r.bytes) / r.history));
    out.push({
      case: 'MF one-day refresh (Node): bytes moved, % of the history file',
      unit: 'x',
      almanac: share(weekday),
      target: '<= 5 % of the history',
      met: share(weekday).max <= 5,
      note: `${weekday.length} weekday refreshes at ${o.scale} scale; history ${(runs[0].history / 1e6).toFixed(1)} MB; every byte of the sync (manifest, snapshot, footer, other changed MF files)`,
      detail: runs,
    });
    if (monday.length) {
      out.push({
        case: 'MF Monday refresh (Node, weekend NAVs): bytes moved, % of the history file',
        unit: 'x',
        almanac: share(monday),
        target: '<= 10 % of the history',
        met: share(monday).max <= 10,
        note: `${monday.length} Mondays`,
      });
    }
    const wall = stats(weekday.map((r) => r.ms));
    out.push({
      case: 'MF one-day refresh (Node): wall time vs the first sync',
      unit: 'ms',
      almanac: wall,
      reference: { name: 'first sync of MF (download + ingest of the whole history)', value: first.ms },
      ratio: ratio(wall, first.ms),
      target: '<= 25 % of the first sync (target at full scale)',
      met: wall.median <= 0.25 * first.ms,
      note: `each refresh in its own process (engine start included), ${o.scale} scale`,
    });
    rmSync(fresh, { recursive: true, force: true });
    await o.child('sync', publisher.url, fresh, 'mf');
    // Both stores in one process, taking turns on one engine (bench/child.ts `mf-queries`).
    const { cpu } = (await o.child('mf-queries', store, fresh, String(o.repeats))) as unknown as { cpu: Record<string, [number, number]> };
    for (const [name, [refreshed, whole]] of Object.entries(cpu)) {
      out.push({
        case: `${name}, after ${o.days} one-day refreshes vs a fresh store`,
        unit: 'ms',
        measure: 'cpu',
        almanac: refreshed,
        reference: { name: 'the same publish synced fresh (mf.nav one table)', value: whole },
        ratio: ratio(refreshed, whole),
        target: '<= 1.1x the fresh store',
        met: refreshed <= 1.1 * whole,
        note: `CPU medians of ${o.repeats} calls each, one engine attaching the two stores in turn (runs of 10, ABBA order)`,
      });
    }
  } finally {
    await publisher.close();
  }
  return out;
}

function lastAsOf(pub: string): string {
  const state = path.join(pub, 'mf', 'state.json');
  if (!existsSync(state)) return '2026-11-13';
  const s = JSON.parse(readFileSync(state, 'utf8')) as { as_of?: string[] };
  return s.as_of?.at(-1) ?? '2026-11-13';
}
