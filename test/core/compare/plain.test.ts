import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect } from 'vitest';
import { plainMetrics, type PriceSeries } from '../../../bench/compare-plain.js';
import { parsePricesCsv } from '../../../src/core/services/compare/import.js';
import { REFERENCE_DIR, referenceCases, EXTRA_CASES } from './reference.js';

/** The independent plain-TypeScript implementation must also reproduce every reference value. */
function series(rows: ReturnType<typeof parsePricesCsv>, symbol: string, from: string, to: string): PriceSeries {
  const own = rows.filter((r) => r.symbol === symbol && r.date >= from && r.date <= to).sort((a, b) => (a.date < b.date ? -1 : 1));
  return { dates: own.map((r) => r.date), closes: own.map((r) => r.close) };
}

const close = (got: unknown, want: unknown) =>
  typeof want === 'number' && typeof got === 'number' ? got === want || Math.abs(got - want) <= 1e-9 * Math.abs(want) : got === want;

describe('plain TypeScript cross-check (bench/compare-plain.ts)', () => {
  for (const c of referenceCases(EXTRA_CASES)) {
    it(`${c.id}`, () => {
      const rows = parsePricesCsv(fs.readFileSync(path.join(REFERENCE_DIR, c.prices_csv), 'utf8'));
      const bench = series(rows, c.benchmark, c.start_date, c.end_date);
      for (const sym of c.symbols) {
        const want = c.results[sym];
        const s = series(rows, sym, c.start_date, c.end_date);
        const full = plainMetrics(s, bench, c.risk_free_rate, false);
        expect(Object.keys(full), sym).toEqual(Object.keys(want.all_metrics));
        const wrong = Object.entries(want.all_metrics).filter(([k, v]) => !close(full[k], v)).map(([k, v]) => `${k}: ${full[k]} != ${v}`);
        expect(wrong, sym).toEqual([]);
        expect(plainMetrics(s, bench, c.risk_free_rate, true), sym).toEqual(want.all_metrics_rounded);
      }
    });
  }
});
