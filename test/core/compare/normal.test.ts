import { describe, it, expect, afterAll } from 'vitest';
import { NodeEngine } from '../../../src/core/engine/node.js';
import { NORM_CDF_UDF, ensureNormCdf, normCdf } from '../../../src/core/services/compare/normal.js';
import { numpyRound2, pyFormatComma2, pyRound2, pyStr } from '../../../src/core/services/compare/format.js';

// 0.5 * math.erfc(-z / math.sqrt(2)) from CPython, whose erfc is accurate to a few ulps
const REFERENCE: Array<[number, number]> = [
  [0.945, 0.8276705619871281],
  [-2.7, 0.003466973803040668],
  [-0.3, 0.3820885778110474],
  [1.2, 0.8849303297782917],
  [-4, 3.1671241833119965e-5],
  [-8, 6.220960574271819e-16],
  [3.3, 0.9995165758576162],
];

describe('normal CDF', () => {
  it.each(REFERENCE)('Φ(%d) to 1e-12 relative', (z, p) => {
    expect(Math.abs(normCdf(z) - p) / p).toBeLessThan(1e-12);
  });

  it('runs in SQL as a UDF with full double precision in and out', async () => {
    const engine = await NodeEngine.open();
    try {
      await ensureNormCdf(engine);
      await ensureNormCdf(engine);
      const rows = await engine.all<{ p: number; q: number | null }>(
        `SELECT ${NORM_CDF_UDF}(CAST(0.945 AS DOUBLE)) AS p, ${NORM_CDF_UDF}(NULL::DOUBLE) AS q`,
      );
      expect(rows).toEqual([{ p: normCdf(0.945), q: null }]);
    } finally {
      await engine.close();
    }
  });
});

describe('Python and numpy formatting', () => {
  it('numpy round: x*100 then half-to-even', () => {
    expect(numpyRound2(0.125)).toBe(0.12);
    expect(numpyRound2(0.375)).toBe(0.38);
    expect(numpyRound2(2.675)).toBe(2.68); // 2.675 * 100 rounds to exactly 267.5 first
    expect(numpyRound2(-0.001)).toBe(-0);
  });
  it('Python round and repr', () => {
    expect(pyRound2(2.675)).toBe(2.67); // exact binary value is below the half
    expect(pyStr(pyRound2(0.999))).toBe('1.0');
    expect(pyStr(pyRound2(-0.001))).toBe('-0.0');
    expect(pyStr(pyRound2(-0.0123))).toBe('-0.01');
    expect(pyStr(1e16)).toBe('1e+16');
  });
  it("Python '{:,.2f}'", () => {
    expect(pyFormatComma2(0.125)).toBe('0.12');
    expect(pyFormatComma2(-0.004)).toBe('-0.00');
    expect(pyFormatComma2(1234.567)).toBe('1,234.57');
  });
});
