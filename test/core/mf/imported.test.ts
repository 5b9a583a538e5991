import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importAmfiText } from '../../../src/core/amfi/import.js';
import { openStore } from '../../../src/core/database/node.js';
import type { Store } from '../../../src/core/database/store.js';
import { importedNavs } from '../../../src/core/services/mf/imported.js';
import { openPriceSource } from '../../../src/core/services/compare/prices.js';
import { compare } from '../../../src/core/services/compare/compare.js';
import { schemeNav } from '../../../src/core/services/mf/nav.js';
import { parseNavParams } from '../../../src/core/contract/mf-params.js';
import { bench, type Bench } from '../sync/fixture.js';
import { amfiDailyFile } from '../../helpers/amfi-file.js';

/**
 * AMFI files imported after a sync: the days after the publisher's last NAV extend a scheme's history
 * (the scheme page's "imported" NAVs, compare's prices); a day the publisher has keeps its NAV.
 */
describe('imported AMFI NAVs newer than the publisher\'s data (synced tiny mf + indicators)', { timeout: 600_000 }, () => {
  let b: Bench;
  let store: Store;
  let code: number;
  let isin: string;
  let last: string;
  let lastNav: number;

  beforeAll(async () => {
    b = await bench(['mf', 'indicators']);
    expect((await b.run()).errors).toEqual([]);
    store = await openStore(b.storeDir);
    [{ code, isin, last, lastNav }] = await store.engine.all<{ code: number; isin: string; last: string; lastNav: number }>(
      "SELECT scheme_code AS code, isin, strftime(last_date, '%Y-%m-%d') AS last, nav::DOUBLE AS lastNav FROM mf.latest WHERE is_active AND isin IS NOT NULL AND nav > 0 ORDER BY scheme_code LIMIT 1",
    );
  }, 600_000);

  afterAll(async () => {
    await store?.close();
    await b?.close();
  });

  const days = ['2026-11-16', '2026-11-17', '2026-11-18'];
  const compareTo = async (end: string) => {
    const [{ start }] = await store.engine.all<{ start: string }>(
      "SELECT strftime(max(date) - INTERVAL 200 DAY, '%Y-%m-%d') AS start FROM indicators.stock_prices WHERE symbol = '^GSPC'",
    );
    const r = await compare(store.engine, { symbols: [String(code), isin], benchmark: '^GSPC', start_date: start, end_date: end, risk_free_rate: 0, precision: 'full' }, await openPriceSource(store.engine));
    for (const e of r.symbols) expect(e.success, String(e.error)).toBe(true);
    return r.symbols.map((e) => e.trading_days);
  };

  it('before any import: no imported NAVs', async () => {
    expect(await importedNavs(store.engine, code)).toEqual([]);
  });

  it('the days after the publisher\'s last NAV come from the import, marked by their file; the publisher\'s own days stand', async () => {
    expect(last < days[0]).toBe(true);
    const before = await compareTo(days[2]);
    const scheme = await schemeNav(store.engine, parseNavParams([['scheme', String(code)]]));
    const row = (n: number) => ({ code, name: scheme.scheme_name, isin, nav: n.toFixed(4) });
    // The publisher's last day again, with another NAV: the publisher's stays.
    await store.user!.mutate((e) => importAmfiText(e, amfiDailyFile(last, [row(lastNav * 2)]), `NAVAll-${last}.txt`));
    const navs = [lastNav * 1.01, lastNav * 1.02, lastNav * 0.99];
    for (const [i, d] of days.entries()) {
      await store.user!.mutate((e) => importAmfiText(e, amfiDailyFile(d, [row(navs[i])]), `NAVAll-${d}.txt`));
    }
    expect(await importedNavs(store.engine, code)).toEqual(
      days.map((d, i) => ({ date: d, nav: Number(navs[i].toFixed(4)), source_file: `NAVAll-${d}.txt` })),
    );
    // Compare takes them as prices, by scheme code and by ISIN alike: three more days of returns.
    const after = await compareTo(days[2]);
    expect(after).toEqual(before.map((n) => n + days.length));
    const [{ n }] = await store.engine.all<{ n: number }>(
      "SELECT count(*) AS n FROM compare_prices WHERE symbol = ? AND date = ?::DATE AND close = ?", [String(code), last, lastNav],
    );
    expect(n).toBe(1);
  });
});
