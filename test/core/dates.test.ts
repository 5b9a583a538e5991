import { describe, expect, it } from 'vitest';
import { isIsoDate } from '../../src/core/contract/dates.js';
import { parseCompareParams } from '../../src/core/contract/compare.js';
import { parsePricesCsv } from '../../src/core/services/compare/import.js';

/** One date rule for every door: the specs' YYYY-MM-DD, and only days that exist. */
describe('isIsoDate', () => {
  it('takes calendar days written YYYY-MM-DD, leap days included', () => {
    for (const d of ['2024-02-29', '2006-04-01', '2025-12-31', '1999-01-01']) expect(isIsoDate(d), d).toBe(true);
  });

  it('refuses days that do not exist and other spellings', () => {
    for (const d of ['2025-02-29', '2025-02-30', '2025-13-01', '2025-00-10', '2025-1-01', '2025-01-01T00:00:00Z', '01-04-2006', ' 2025-01-01', '']) {
      expect(isIsoDate(d), d).toBe(false);
    }
  });

  it('is the rule compare and the price import apply', () => {
    expect(() => parseCompareParams({ symbols: 'A', benchmark: 'B', start_date: '2025-02-30' })).toThrow(/start_date must be a date/);
    expect(() => parsePricesCsv('date,symbol,close\n2025-02-30,ABC,1\n')).toThrow(/line 2: date '2025-02-30'/);
  });
});
