import { describe, it, expect, afterAll } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generate, NO_LIMITS } from '../sync/fixture.js';
import { startPublisher } from '../../../src/publisher/server.js';
import { sync } from '../../../src/core/sync/sync.js';
import { nodeHost, openStore } from '../../../src/core/database/node.js';
import { openPriceSource } from '../../../src/core/services/compare/prices.js';
import { compare } from '../../../src/core/services/compare/compare.js';
import { METRIC_NAMES } from '../../../src/core/contract/compare.js';

/** A fund scheme (NAV as price, by code and by ISIN) against a market index, both from synced tiny data. */
describe('compare an MF scheme against a market index from synced data', () => {
  let root = '';
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('gives all 81 metrics for the scheme by code and by ISIN, identically', { timeout: 300_000 }, async () => {
    root = await mkdtemp(path.join(tmpdir(), 'almanac-compare-mf-'));
    const pub = path.join(root, 'pub');
    await generate(pub, ['mf', 'indicators']);
    const publisher = await startPublisher({ dataDir: pub, limits: 'off' });
    try {
      const host = nodeHost(path.join(root, 'store'));
      const summary = await sync({ storage: host.storage, host, source: publisher.url, only: ['mf', 'indicators'], rules: NO_LIMITS });
      expect(summary.errors).toEqual([]);
    } finally {
      await publisher.close();
    }
    const store = await openStore(path.join(root, 'store'));
    try {
      const [scheme] = await store.engine.all<{ code: number; isin: string; first: string; last: string }>(
        "SELECT scheme_code AS code, isin, strftime(first_date, '%Y-%m-%d') AS first, strftime(last_date, '%Y-%m-%d') AS last FROM mf.latest WHERE scheme_code = 115610",
      );
      const [{ symbol }] = await store.engine.all<{ symbol: string }>("SELECT symbol FROM indicators.stock_prices WHERE symbol = '^GSPC' LIMIT 1");
      const [{ start }] = await store.engine.all<{ start: string }>("SELECT strftime(min(date), '%Y-%m-%d') AS start FROM indicators.stock_prices WHERE symbol = '^GSPC'");
      const source = await openPriceSource(store.engine);
      const params = { benchmark: symbol, start_date: start, end_date: scheme.last, risk_free_rate: 0, precision: 'full' as const };
      const byCode = await compare(store.engine, { ...params, symbols: [String(scheme.code)] }, source);
      const byIsin = await compare(store.engine, { ...params, symbols: [scheme.isin] }, source);
      const [entry] = byCode.symbols;
      expect(entry.success, String(entry.error)).toBe(true);
      expect(Object.keys(entry.all_metrics)).toEqual([...METRIC_NAMES]);
      expect(entry.trading_days).toBeGreaterThan(100);
      expect(byIsin.symbols[0].all_metrics).toEqual(entry.all_metrics);
      expect(byIsin.symbols[0].trading_days).toBe(entry.trading_days);
    } finally {
      await store.close();
    }
  });
});
