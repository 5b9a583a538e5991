import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { NodeEngine } from '../../../src/core/engine/node.js';
import { NORM_CDF, NORM_CDF_MACROS } from '../../../src/core/services/compare/normal.js';
import { numpyRound2, pyFormatComma2, pyRound2, pyStr } from '../../../src/core/services/compare/format.js';

/**
 * Φ(z) for each double z, from mpmath 1.3 at 60 digits (`float(mpmath.ncdf(z))`), across the whole
 * line: both tails, Cody's range boundaries (|z|/√2 = 0.46875 and 4), near zero and where Φ rounds to 1.
 */
const REFERENCE: Array<[number, number]> = [
  [-37.5, 4.605353009581955e-308], [-37, 5.725571222524577e-300], [-30, 4.906713927148187e-198],
  [-20, 2.7536241186062337e-89], [-12, 1.776482112077679e-33], [-8.5, 9.479534822203318e-18],
  [-8, 6.220960574271784e-16], [-6, 9.86587645037698e-10], [-5.656854249492381, 7.708628950139992e-9],
  [-5, 2.866515718791939e-7], [-4, 3.1671241833119924e-5], [-3, 0.0013498980316300946],
  [-2.5, 0.006209665325776135], [-1.959963984540054, 0.025000000000000012], [-1.2, 0.11506967022170828],
  [-0.6629126073623883, 0.253693263391031], [-0.5, 0.3085375387259869], [-0.1, 0.460172162722971],
  [-1e-8, 0.4999999960105772], [0, 0.5], [1e-8, 0.5000000039894228], [0.3, 0.6179114221889527],
  [0.6629126073623883, 0.746306736608969], [0.945, 0.8276705619871281], [1, 0.8413447460685429],
  [2, 0.9772498680518208], [3, 0.9986501019683699], [5.656854249492381, 0.999999992291371],
  [6, 0.9999999990134123], [8, 0.9999999999999993], [8.3, 1], [38, 1],
];

describe('normal CDF (SQL macro)', () => {
  let engine: NodeEngine;
  const cdf = async (z: number) =>
    (await engine.all<{ p: number }>(`SELECT ${NORM_CDF}(CAST(? AS DOUBLE)) AS p`, [z]))[0].p;
  beforeAll(async () => {
    engine = await NodeEngine.open();
    await engine.exec(NORM_CDF_MACROS);
  });
  afterAll(async () => engine?.close());

  // Rounding z/√2 to a double (as scipy's ndtr does) costs about z²·ε relative in the tails; the
  // approximation itself adds at most an ulp or two.
  it.each(REFERENCE)('Φ(%d) within (1 + z²)·2.2e-16 relative', async (z, p) => {
    expect(Math.abs((await cdf(z)) - p) / p).toBeLessThanOrEqual((1 + z * z) * 2.2e-16);
  });

  it('is a DOUBLE, NULL-preserving, NaN for NaN, 0 and 1 at the infinities and past the underflow', async () => {
    const [row] = await engine.all(
      `SELECT typeof(${NORM_CDF}(0.945e0)) AS t, ${NORM_CDF}(NULL::DOUBLE) AS n, ${NORM_CDF}('nan'::DOUBLE) AS nan,
        ${NORM_CDF}('-inf'::DOUBLE) AS lo, ${NORM_CDF}('inf'::DOUBLE) AS hi, ${NORM_CDF}(-40e0) AS under`,
    );
    expect(row).toEqual({ t: 'DOUBLE', n: null, nan: Number.NaN, lo: 0, hi: 1, under: 0 });
  });

  it('is symmetric: Φ(z) + Φ(-z) = 1 to an ulp of 1', async () => {
    for (const z of [0.1, 0.66, 1.7, 3.9, 4.1, 7.5]) expect(Math.abs((await cdf(z)) + (await cdf(-z)) - 1)).toBeLessThanOrEqual(2.3e-16);
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
