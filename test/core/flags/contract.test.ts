import { describe, expect, it } from 'vitest';
import {
  DATA_DEFAULTS,
  TABLE_NAMES,
  FLAGS_TABLES,
  allFileNames,
  createTableSql,
  validateCompanyParams,
  validateDataParams,
  validateScorecardParams,
  type RawQuery,
} from '../../../src/core/contract/flags.js';

const fails = (v: { ok: boolean; error?: { status: number; field?: string } }) => (v.ok ? null : { status: v.error!.status, field: v.error!.field });

describe('flags contract', () => {
  it('every table starts with the identity columns and its date column, names unique', () => {
    for (const t of TABLE_NAMES) {
      const names = FLAGS_TABLES[t].columns.map((c) => c.name);
      expect(names.slice(0, 4), t).toEqual(['symbol', 'isin', 'company_name', FLAGS_TABLES[t].dateColumn]);
      expect(new Set(names).size, t).toBe(names.length);
      expect(FLAGS_TABLES[t].columns.find((c) => c.name === FLAGS_TABLES[t].dateColumn)!.type).toBe('DATE');
    }
    expect(createTableSql('pledge_data')).toMatch(/^CREATE TABLE "flags"."pledge_data" \("symbol" VARCHAR NOT NULL, /);
  });

  it('names 7 × 7 table files plus flags_all.db.zip and .db.gz', () => {
    const names = allFileNames();
    expect(names).toHaveLength(51);
    expect(names).toContain('rpt_transactions.tsv.zip');
    expect(names).toContain('flags_all.db.gz');
  });

  it('/data: defaults, bounds, integers only, format, unknown and repeated parameters', () => {
    expect(validateDataParams('pledge_data', {})).toEqual({ ok: true, value: { table: 'pledge_data', ...DATA_DEFAULTS } });
    expect(validateDataParams('pledge_data', { limit: '5000', offset: '0', format: 'TSV' })).toMatchObject({ ok: true, value: { limit: 5000, format: 'tsv' } });
    const bad: Array<[RawQuery, string]> = [
      [{ limit: '5001' }, 'limit'], [{ limit: '0' }, 'limit'], [{ limit: '1e3' }, 'limit'], [{ limit: '' }, 'limit'],
      [{ offset: '-1' }, 'offset'], [{ offset: '2.5' }, 'offset'], [{ format: 'csv' }, 'format'],
      [{ limit: ['5', '6'] }, 'limit'], [{ lmit: '5' }, 'lmit'],
    ];
    for (const [q, field] of bad) expect(fails(validateDataParams('pledge_data', q)), JSON.stringify(q)).toEqual({ status: 422, field });
    expect(validateDataParams('pledge_data', { limit: ['5', '5'] })).toMatchObject({ ok: true, value: { limit: 5 } });
    expect(fails(validateDataParams('pledges', {}))).toEqual({ status: 404, field: undefined });
  });

  it('/company: tables list is case-insensitive, canonical order, unknown names 404', () => {
    expect(validateCompanyParams(' REDSTONE ', { tables: 'rpt_transactions, Credit_Ratings,' })).toEqual({
      ok: true,
      value: { identifier: 'REDSTONE', tables: ['credit_ratings', 'rpt_transactions'], format: 'json' },
    });
    expect(validateCompanyParams('X', {})).toMatchObject({ ok: true, value: { tables: [...TABLE_NAMES] } });
    expect(fails(validateCompanyParams('X', { tables: 'credit_ratings,bogus' }))).toEqual({ status: 404, field: 'tables' });
    expect(fails(validateCompanyParams('  ', {}))).toEqual({ status: 404, field: undefined });
  });

  it('/scorecard: real calendar dates only', () => {
    expect(validateScorecardParams({ as_of: '2024-02-29' })).toMatchObject({ ok: true, value: { as_of: '2024-02-29', limit: 50, offset: 0 } });
    for (const d of ['2023-02-29', '2026-13-01', '26-01-01', 'today']) expect(fails(validateScorecardParams({ as_of: d })), d).toEqual({ status: 422, field: 'as_of' });
  });
});
