import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseAmfi, summarise, AmfiFormatError } from '../../../src/core/amfi/parse.js';

const real = (name: string) => readFileSync(`../shared/data/real-amfi/${name}`, 'utf8');

/** Re-lays a real daily file into another AMFI layout, as AMFI's own August-2026 change did. */
function relay(text: string, layout: 'daily-2026' | 'all-schemes' | 'all-schemes-2026'): string {
  const headers = {
    'daily-2026': 'Scheme Code;Scheme Name;Plan;Option;ISIN Div Payout/ISIN Growth;ISIN Div Reinvestment;Net Asset Value;Date',
    'all-schemes': 'Scheme Code;ISIN Div Payout/ ISIN Growth;ISIN Div Reinvestment;Scheme Name;Net Asset Value;Date',
    'all-schemes-2026': 'Scheme Code;ISIN Div Payout/ ISIN Growth;ISIN Div Reinvestment;Scheme Name;Plan;Option;Net Asset Value;Date',
  };
  return text
    .split('\r\n')
    .map((line, i) => {
      if (i === 0) return headers[layout];
      const f = line.split(';');
      if (f.length !== 8) return line;
      const [code, name, isin, isin2, nav, , , date] = f;
      const plan = /direct/i.test(name) ? 'Direct' : 'Regular';
      const option = /growth/i.test(name) ? 'Growth' : 'IDCW';
      if (layout === 'daily-2026') return [code, name, plan, option, isin, isin2, nav, date].join(';');
      if (layout === 'all-schemes') return [code, isin, isin2, name, nav, date].join(';');
      return [code, isin, isin2, name, plan, option, nav, date].join(';');
    })
    .join('\r\n');
}

describe('AMFI NAV files', () => {
  it('reads the real 2006 file with the counts SOURCES.md states', () => {
    const s = summarise(parseAmfi(real('2006-04-03.csv')));
    expect(s).toMatchObject({ layout: 'daily', rows: 1790, schemes: 1790, dates: ['2006-04-03'], isins: 1578, categories: 55, amcs: 29 });
    expect(s.quality).toEqual({ nav_not_a_number: 30, nav_with_note: 1, nav_zero: 21 });
  });

  it('reads the real 2025 file with the counts SOURCES.md states', () => {
    const f = parseAmfi(real('2025-06-28.csv'));
    expect(summarise(f)).toMatchObject({ layout: 'daily', rows: 618, schemes: 618, isins: 736, categories: 4, amcs: 33, quality: {} });
    const first = f.rows[0];
    expect(first).toMatchObject({
      scheme_code: 145488,
      scheme_name: 'ADITYA BIRLA SUN LIFE OVERNIGHT FUND-  Direct - Monthly Payout of IDCW',
      isin: 'INF209KB1ZL4',
      isin2: null,
      nav: 1000.1694,
      date: '2025-06-28',
      category: 'Open Ended Schemes ( Debt Scheme - Overnight Fund )',
      amc: 'Aditya Birla Sun Life Mutual Fund',
    });
  });

  it('keeps scheme names verbatim, trailing and double spaces included', () => {
    const f = parseAmfi(real('2006-04-03.csv'));
    expect(f.rows.filter((r) => r.scheme_name.endsWith(' ')).length).toBe(22);
    expect(f.rows.filter((r) => r.scheme_name.includes('  ')).length).toBe(77);
  });

  it('records each dirty NAV with its reason and keeps the note-bearing one', () => {
    const f = parseAmfi(real('2006-04-03.csv'));
    const liquidBees = f.rows.find((r) => r.scheme_code === 101884)!;
    expect(liquidBees.nav).toBe(1000);
    expect(f.quality.find((q) => q.scheme_code === 101884)).toMatchObject({ reason: 'nav_with_note', value: '1000(Div0.1817645)' });
    expect(f.rows.find((r) => r.scheme_code === 102680)!.nav).toBeNull();
    const values = f.quality.filter((q) => q.reason === 'nav_not_a_number').map((q) => q.value);
    expect(new Set(values)).toEqual(new Set(['#N/A', 'B.C.', '-', '#DIV/0!']));
  });

  for (const layout of ['daily-2026', 'all-schemes', 'all-schemes-2026'] as const) {
    it(`reads the ${layout} layout by header names, giving the same NAVs`, () => {
      const original = parseAmfi(real('2006-04-03.csv'));
      const relaid = parseAmfi(relay(real('2006-04-03.csv'), layout));
      expect(relaid.layout).toBe(layout);
      expect(relaid.rows.map((r) => [r.scheme_code, r.nav, r.isin, r.isin2, r.scheme_name, r.category, r.amc])).toEqual(
        original.rows.map((r) => [r.scheme_code, r.nav, r.isin, r.isin2, r.scheme_name, r.category, r.amc]),
      );
      if (layout.endsWith('2026')) expect(relaid.rows.every((r) => r.plan && r.option)).toBe(true);
    });
  }

  it('accepts mixed CRLF/LF line endings and a trailing blank line', () => {
    const text = real('2025-06-28.csv');
    const mixed = text.split('\r\n').map((l, i) => l + (i % 2 ? '\n' : '\r\n')).join('') + '\r\n\r\n';
    expect(parseAmfi(mixed).rows.length).toBe(618);
  });

  it('flags a corrupted ISIN check digit', () => {
    const text = real('2025-06-28.csv').replace('INF209KB1ZL4', 'INF209KB1ZL5');
    const f = parseAmfi(text);
    expect(f.quality).toEqual([{ line: 7, scheme_code: 145488, reason: 'isin_bad_check_digit', value: 'INF209KB1ZL5' }]);
  });

  it('refuses a truncated file with a clear error naming the line', () => {
    const text = real('2025-06-28.csv');
    const cut = text.slice(0, text.indexOf('1000.1694') + 4);
    expect(() => parseAmfi(cut)).toThrow(/line 7: expected 8 fields, found 5 \(the file looks truncated\)/);
    expect(() => parseAmfi(text.split('\r\n')[0])).toThrow(AmfiFormatError);
  });

  it('refuses an unknown header instead of guessing positions', () => {
    expect(() => parseAmfi('Code;Name;NAV\r\n1;x;2\r\n')).toThrow(/unrecognised AMFI header/);
  });
});
