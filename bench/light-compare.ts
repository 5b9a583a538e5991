/**
 * Compare on the light copy (the phone's: the MF snapshot without mf.nav, docs/mobile.md): the funds'
 * histories fetched from the publisher's NAV endpoint, held as mf_fetched.nav, then compare, against
 * the same comparison on the full copy synced from the same publish. Two rows: the call whose
 * histories must be fetched (what a phone meets when they are behind the snapshot), and the call
 * from kept histories (offline, or current). Wall time: the fetch is what a user waits for.
 */
import os from 'node:os';
import path from 'node:path';
import { rmSync } from 'node:fs';
import { startPublisher } from '../src/publisher/server.js';
import { sync } from '../src/core/sync/sync.js';
import { nodeHost, openStore } from '../src/core/database/node.js';
import { compare } from '../src/core/services/compare/compare.js';
import { openPriceSource } from '../src/core/services/compare/prices.js';
import { publisherSchemeNav } from '../src/core/services/mf/publisher-nav.js';
import { holdFetchedNavs } from '../src/core/services/mf/fetched.js';
import { FUND_BENCHMARK, type CompareParams } from '../src/core/contract/compare.js';
import type { SchemeNav } from '../src/core/services/mf/nav.js';
import type { Engine } from '../src/core/engine/engine.js';
import { ratio, time, type BenchResult, type Stats } from './lib.js';

/** Runs before timing, on each side: compare reaches its steady speed after about ten (bench/compare.ts). */
const WARMUP = 10;

export interface LightCompareRun {
  pub: string;
  /** The full copy of the same publish (the suite's store). */
  storeDir: string;
  root: string;
  repeats: number;
}

/** Two live schemes with the longest histories, and five years to their last NAV. */
async function pick(engine: Engine): Promise<CompareParams> {
  const rows = await engine.all<{ c: number; last: string }>(
    "SELECT scheme_code AS c, strftime(last_date, '%Y-%m-%d') AS last FROM mf.latest WHERE is_active ORDER BY first_date, scheme_code LIMIT 2",
  );
  const end = rows.map((r) => r.last).sort()[0];
  const start = `${Number(end.slice(0, 4)) - 5}${end.slice(4)}`;
  return { symbols: rows.map((r) => String(r.c)), benchmark: FUND_BENCHMARK, start_date: start, end_date: end, risk_free_rate: 0, precision: 'full' };
}

async function compared(engine: Engine, params: CompareParams): Promise<void> {
  const res = await compare(engine, params, await openPriceSource(engine));
  if (!res.symbols.every((s) => s.success)) throw new Error(`light compare bench: ${res.symbols.map((s) => s.error).join('; ')}`);
}

export async function lightCompareCases(run: LightCompareRun): Promise<BenchResult[]> {
  const lightDir = path.join(run.root, 'store-light');
  rmSync(lightDir, { recursive: true, force: true });
  const publisher = await startPublisher({ dataDir: run.pub, limits: 'spec' });
  // One store open at a time: one DuckDB-WASM instance with open files per process (docs/storage.md, hazard 6).
  let params: CompareParams;
  let full: Stats;
  {
    const store = await openStore(run.storeDir);
    try {
      params = await pick(store.engine);
      full = await time(() => compared(store.engine, params), run.repeats, WARMUP);
    } finally {
      await store.close();
    }
  }
  let fetched: Stats;
  let kept: Stats;
  let bytes = 0;
  try {
    const host = nodeHost(lightDir);
    const summary = await sync({ storage: host.storage, host, source: publisher.url, only: ['mf', 'indicators'], skipTables: { mf: ['nav'] } });
    if (summary.errors.length) throw new Error(`light sync: ${summary.errors.join('; ')}`);
    const store = await openStore(lightDir);
    try {
      let navs: SchemeNav[] = [];
      const fetchHold = async () => {
        // As when the histories are behind: what is held changes, so the fetched ones are written (the
        // same histories again would not be).
        await holdFetchedNavs(store.engine, []);
        const got = await Promise.all(params.symbols.map((id) => publisherSchemeNav(fetch, publisher.url, id)));
        bytes = got.reduce((n, g) => n + g.bytes, 0);
        navs = got.map((g) => g.nav);
        await holdFetchedNavs(store.engine, navs);
        await compared(store.engine, params);
      };
      // The publisher's 300 queries a minute: two a call, (10 + at most 21) calls stay inside it.
      fetched = await time(fetchHold, Math.min(run.repeats, 21), WARMUP);
      kept = await time(async () => {
        await holdFetchedNavs(store.engine, navs);
        await compared(store.engine, params);
      }, run.repeats, WARMUP);
    } finally {
      await store.close();
    }
  } finally {
    await publisher.close();
    rmSync(lightDir, { recursive: true, force: true });
  }
  const reference = { name: 'the same comparison on the full copy (mf.nav), same publish', value: full };
  const what = `${params.symbols.join(', ')} against ${params.benchmark}, ${params.start_date} to ${params.end_date}`;
  return [
    {
      case: 'compare on the light copy: histories fetched from the publisher, held, compared',
      unit: 'ms',
      measure: 'wall',
      almanac: fetched,
      reference,
      ratio: ratio(fetched, full),
      note: `${what}; ${bytes.toLocaleString('en-US')} bytes fetched a call over HTTP on 127.0.0.1 (a phone's network adds its round trips); load ${os.loadavg()[0].toFixed(1)}`,
    },
    {
      case: 'compare on the light copy: from kept histories (already held), compared',
      unit: 'ms',
      measure: 'wall',
      almanac: kept,
      reference,
      ratio: ratio(kept, full),
      note: `${what}; what Compare does offline or when the kept histories are current`,
    },
  ];
}
