/**
 * Compare on a light copy (the MF snapshot without `mf.nav`, docs/mobile.md): the funds' histories are
 * fetched from the publisher's NAV endpoint and held as `mf_fetched.nav`. The comparison must equal
 * the one a full copy of the same publish gives, metric for metric, and the held rows must equal
 * mf.nav's for those schemes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generate, NO_LIMITS } from '../sync/fixture.js';
import { startPublisher, type Publisher } from '../../../src/publisher/server.js';
import { sync } from '../../../src/core/sync/sync.js';
import { nodeHost, openStore } from '../../../src/core/database/node.js';
import type { Store } from '../../../src/core/database/store.js';
import { openPriceSource } from '../../../src/core/services/compare/prices.js';
import { compare } from '../../../src/core/services/compare/compare.js';
import { publisherSchemeNav } from '../../../src/core/services/mf/publisher-nav.js';
import { holdFetchedNavs, lightCopy } from '../../../src/core/services/mf/fetched.js';
import type { CompareParams } from '../../../src/core/contract/compare.js';

let root = '';
let publisher: Publisher;
let full: Store;
let light: Store;
/** Two live schemes, one asked by code and one by ISIN, and the benchmark. */
let code = '';
let isin = '';
let params: Omit<CompareParams, 'symbols'>;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'almanac-compare-light-'));
  const pub = path.join(root, 'pub');
  await generate(pub, ['mf', 'indicators']);
  publisher = await startPublisher({ dataDir: pub, limits: 'off' });
  for (const [dir, skip] of [['full', {}], ['light', { mf: ['nav'] }]] as const) {
    const host = nodeHost(path.join(root, dir));
    const summary = await sync({ storage: host.storage, host, source: publisher.url, only: ['mf', 'indicators'], rules: NO_LIMITS, skipTables: skip });
    expect(summary.errors).toEqual([]);
  }
  full = await openStore(path.join(root, 'full'));
  light = await openStore(path.join(root, 'light'));
  const live = await full.engine.all<{ c: number; isin: string }>(
    'SELECT scheme_code AS c, isin FROM mf.latest WHERE is_active AND isin IS NOT NULL ORDER BY scheme_code LIMIT 2',
  );
  code = String(live[0].c);
  isin = live[1].isin;
  const [{ start, end }] = await full.engine.all<{ start: string; end: string }>(
    "SELECT strftime(min(date), '%Y-%m-%d') AS start, strftime(max(date), '%Y-%m-%d') AS end FROM indicators.stock_prices WHERE symbol = '^GSPC'",
  );
  params = { benchmark: '^GSPC', start_date: start, end_date: end, risk_free_rate: 0, precision: 'full' };
}, 300_000);

afterAll(async () => {
  await full?.close();
  await light?.close();
  await publisher?.close();
  await rm(root, { recursive: true, force: true });
});

describe('compare on a light copy', () => {
  it('has no fund prices before any history is fetched', { timeout: 60_000 }, async () => {
    const tables = (await light.engine.all<{ t: string }>("SELECT database_name || '.' || table_name AS t FROM duckdb_tables() WHERE database_name = 'mf'")).map((r) => r.t);
    expect(tables).not.toContain('mf.nav');
    expect(await lightCopy(light.engine)).toBe(true);
    expect(await lightCopy(full.engine)).toBe(false);
    const report = await compare(light.engine, { ...params, symbols: [code, isin] }, await openPriceSource(light.engine));
    expect(report.symbols.map((s) => s.success)).toEqual([false, false]);
  });

  it("equals the full copy's comparison once the funds' histories are fetched from the publisher", { timeout: 120_000 }, async () => {
    const navs = await Promise.all([code, isin].map(async (id) => (await publisherSchemeNav(fetch, publisher.url, id)).nav));
    const held = await holdFetchedNavs(light.engine, navs);
    expect(held).toBe(navs[0].count + navs[1].count);

    const source = await openPriceSource(light.engine);
    expect(source.tables).toContain('mf_fetched.nav');
    const got = await compare(light.engine, { ...params, symbols: [code, isin] }, source);
    const want = await compare(full.engine, { ...params, symbols: [code, isin] }, await openPriceSource(full.engine));
    expect(got.symbols.every((s) => s.success)).toBe(true);
    expect(got).toEqual(want);

    // Row for row the same as mf.nav's rows of those schemes.
    const rows = (e: Store, table: string) =>
      e.engine.all<{ c: number; d: string; n: string; name: string; isin: string | null }>(
        // eslint-disable-next-line sql/no-interpolated-sql -- table: one of the two fixed names below
        `SELECT scheme_code AS c, strftime(date, '%Y-%m-%d') AS d, CAST(nav AS VARCHAR) AS n, scheme_name AS name, isin FROM ${table}
         WHERE scheme_code IN (?::INTEGER, ?::INTEGER) ORDER BY 1, 2`,
        [String(navs[0].scheme_code), String(navs[1].scheme_code)],
      );
    expect(await rows(light, 'mf_fetched.nav')).toEqual(await rows(full, 'mf.nav'));
  });

  it('holds again from scratch: a second hold replaces the first, the same one is not written twice, and a store with mf.nav ignores it', { timeout: 60_000 }, async () => {
    const one = (await publisherSchemeNav(fetch, publisher.url, code)).nav;
    expect(await holdFetchedNavs(light.engine, [one, one])).toBe(one.count);
    const [{ n }] = await light.engine.all<{ n: number }>('SELECT count(DISTINCT scheme_code)::INTEGER AS n FROM mf_fetched.nav');
    expect(n).toBe(1);

    // The same histories again are not written again; a table gone (dropped in the SQL workbench) is.
    const marker = async () => (await light.engine.all<{ m: number }>('SELECT count(*)::INTEGER AS m FROM mf_fetched.nav WHERE nav = -1'))[0].m;
    await light.engine.exec('INSERT INTO mf_fetched.nav VALUES (1, DATE \'2000-01-01\', -1, \'marker\', NULL)');
    await holdFetchedNavs(light.engine, [one]);
    expect(await marker()).toBe(1);
    await light.engine.exec('DROP TABLE mf_fetched.nav');
    expect(await holdFetchedNavs(light.engine, [one])).toBe(one.count);
    expect(await marker()).toBe(0);
    expect((await light.engine.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM mf_fetched.nav'))[0].n).toBe(one.count);

    await holdFetchedNavs(full.engine, [one]);
    expect((await openPriceSource(full.engine)).tables).not.toContain('mf_fetched.nav');
  });
});
