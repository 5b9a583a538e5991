import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { NodeEngine } from '../../../src/core/engine/node.js';
import { CATEGORY_IDS, ServiceError } from '../../../src/core/contract/indicators.js';
import { categories } from '../../../src/core/services/indicators/categories.js';
import { catalog } from '../../../src/core/services/indicators/catalog.js';
import { categoryIndicators, compactCategoryIndicators } from '../../../src/core/services/indicators/category-indicators.js';
import { find } from '../../../src/core/services/indicators/find.js';
import { series, seriesTsv } from '../../../src/core/services/indicators/series.js';
import { tinyIndicators } from './fixture.js';

let engine: NodeEngine;
beforeAll(async () => {
  ({ engine } = await tinyIndicators(5));
});
afterAll(async () => engine?.close());

const all = (from: string | null = null, to: string | null = null) => ({ from, to, format: 'json' as const });

describe('indicator services over DuckDB-WASM with the tiny data attached', () => {
  it('category counts are the visible rows of the dictionary', async () => {
    const menu = await categories(engine, { baseUrl: 'http://x' });
    const direct = await engine.all<{ category: string; n: number }>(
      'SELECT category, count(*)::INTEGER AS n FROM indicators.indicator_config WHERE visible GROUP BY ALL',
    );
    for (const c of menu.categories) expect(c.count, c.category).toBe(direct.find((d) => d.category === c.category)?.n ?? 0);
    expect((await catalog(engine, { baseUrl: 'http://x' })).categories).toEqual(menu.categories);
  });

  it('a listing holds every visible indicator of its category and no other', async () => {
    for (const category of CATEGORY_IDS) {
      const listing = await categoryIndicators(engine, category);
      const ids = await engine.all<{ indicator_id: string }>(
        'SELECT indicator_id FROM indicators.indicator_config WHERE visible AND category = ? ORDER BY source_category, indicator_id',
        [category],
      );
      expect(listing.indicators.map((i) => i.indicator_id)).toEqual(ids.map((r) => r.indicator_id));
    }
    await expect(compactCategoryIndicators(engine, 'Markets')).rejects.toBeInstanceOf(ServiceError);
  });

  it('find ranks an exact id first and treats quotes and wildcards as text', async () => {
    expect((await find(engine, { query: 'dgs10', limit: 50 })).matches[0].indicator_id).toBe('DGS10');
    expect((await find(engine, { query: "'; DROP TABLE x; --", limit: 50 })).count).toBe(0);
    // `_` is a literal underscore (IN_REPO_RATE), never LIKE's any-character (which would match DGS1…).
    expect((await find(engine, { query: 'o_r', limit: 50 })).matches.map((m) => m.indicator_id)).toContain('IN_REPO_RATE');
    expect((await find(engine, { query: 'D_S1', limit: 50 })).count).toBe(0);
  });

  it('series values are exactly the stored values, under canonical ids', async () => {
    const r = await series(engine, { ids: ['dgs10', '^gspc'], ...all('2026-06-01', '2026-06-30') });
    expect(r.ids).toEqual(['DGS10', '^GSPC']);
    const macro = await engine.all<{ date: string; value: number }>(
      "SELECT date, value FROM indicators.macro_indicators WHERE indicator_id = 'DGS10' AND date BETWEEN '2026-06-01' AND '2026-06-30' ORDER BY date",
    );
    const closes = await engine.all<{ date: string; close: number }>(
      "SELECT date, close FROM indicators.stock_prices WHERE symbol = '^GSPC' AND date BETWEEN '2026-06-01' AND '2026-06-30' ORDER BY date",
    );
    const dates = [...new Set([...macro.map((m) => m.date), ...closes.map((c) => c.date)])].sort();
    expect(r.rows.map((x) => x.date)).toEqual(dates);
    for (const m of macro) expect(r.rows.find((x) => x.date === m.date)!.DGS10).toBe(m.value);
    for (const c of closes) expect(r.rows.find((x) => x.date === c.date)!['^GSPC']).toBe(c.close);
  });

  it('hidden indicators are empty, typos unknown, and neither gets a column', async () => {
    const r = await series(engine, { ids: ['USDEUR', 'DGS1O', 'DGS10'], ...all('2026-11-01') });
    expect(r.meta.empty_ids).toEqual(['USDEUR']);
    expect(r.meta.unknown_ids).toEqual(['DGS1O']);
    expect(r.columns).toEqual(['DGS10']);
    expect(seriesTsv(r).split('\n')[0]).toBe(`# meta: count=${r.count} unknown=[DGS1O] empty=[USDEUR]`);
  });

  it('the cap cuts on whole dates and next_from starts the next page', async () => {
    const full = await series(engine, { ids: ['DGS10', 'FEDFUNDS'], ...all('2026-01-01', '2026-03-31') });
    const page = await series(engine, { ids: ['DGS10', 'FEDFUNDS'], ...all('2026-01-01', '2026-03-31') }, { maxRows: 10 });
    expect(page.rows).toEqual(full.rows.slice(0, 10));
    expect(page.meta.next_from).toBe(full.rows[10].date);
    const exact = await series(engine, { ids: ['DGS10'], ...all('2026-01-01', '2026-03-31') }, { maxRows: full.count });
    expect(exact.meta.truncated).toBe(false);
  });
});
