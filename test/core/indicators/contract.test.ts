import { describe, it, expect, afterAll } from 'vitest';
import fc from 'fast-check';
import { NodeEngine } from '../../../src/core/engine/node.js';
import {
  INDICATOR_TABLES,
  TABLE_NAMES,
  ValidationError,
  createTableSql,
  parseFindParams,
  parseSeriesParams,
  splitIds,
} from '../../../src/core/contract/indicators.js';
import { safeId } from '../../../src/core/services/indicators/series.js';

function detailOf(f: () => unknown) {
  try {
    f();
  } catch (e) {
    if (e instanceof ValidationError) return e.detail;
    throw e;
  }
  throw new Error('no ValidationError');
}

describe('indicator contract', () => {
  it('splits ids on commas, trims, drops blanks and case-insensitive repeats', () => {
    expect(splitIds(' DGS10, dgs10 ,,^GSPC,')).toEqual(['DGS10', '^GSPC']);
  });

  it('series rules: at most 10 ids, real dates, from ≤ to, json or tsv', () => {
    expect(parseSeriesParams({ ids: 'a,b', from: '2024-02-29', to: '2024-03-01' })).toEqual({ ids: ['a', 'b'], from: '2024-02-29', to: '2024-03-01', format: 'json' });
    expect(detailOf(() => parseSeriesParams({ ids: 'a', from: '2023-02-29' }))[0]).toMatchObject({ loc: ['query', 'from'], type: 'date_parsing' });
    expect(detailOf(() => parseSeriesParams({ ids: Array(11).fill(0).map((_, i) => `x${i}`).join(',') }))[0].ctx).toEqual({ max_length: 10, actual_length: 11 });
    // Every problem is reported at once.
    expect(detailOf(() => parseSeriesParams({ from: 'x', to: 'y', format: 'xml' })).map((d) => d.loc[1])).toEqual(['ids', 'from', 'to', 'format']);
  });

  it('find rules: query or q of 2 to 60 characters, limit 1 to 200 (default 50)', () => {
    expect(parseFindParams({ q: 'gd' })).toEqual({ query: 'gd', limit: 50 });
    expect(parseFindParams({ query: 'gdp', q: 'x', limit: '200' })).toEqual({ query: 'gdp', limit: 200 });
    expect(detailOf(() => parseFindParams({ q: 'gdp', limit: 1.5 }))[0].type).toBe('int_parsing');
  });

  it('header-safe ids are visible ASCII without separators and decode back to the id', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (id) => {
        const s = safeId(id);
        expect(s).toMatch(/^[\x21-\x7e]*$/);
        expect(s).not.toMatch(/[,[\]]/);
        expect(decodeURIComponent(s)).toBe(id);
      }),
    );
  });

  it('the table schemas create real DuckDB tables with their required columns NOT NULL', async () => {
    const engine = await NodeEngine.open();
    try {
      await engine.exec('CREATE SCHEMA indicators');
      for (const t of TABLE_NAMES) {
        await engine.exec(createTableSql(t, 'indicators'));
        const cols = await engine.all<{ column_name: string; column_type: string; null: string }>(`DESCRIBE indicators.${t}`);
        expect(cols.map((c) => [c.column_name, c.column_type, c.null === 'NO'])).toEqual(
          INDICATOR_TABLES[t].columns.map((c) => [c.name, c.type, c.required || INDICATOR_TABLES[t].primaryKey.includes(c.name)]),
        );
      }
    } finally {
      await engine.close();
    }
  });
});
