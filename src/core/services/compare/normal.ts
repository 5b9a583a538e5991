/**
 * The standard normal CDF in SQL (Prob. Sharpe Ratio needs it), which DuckDB lacks: DuckDB has no
 * erf. Written as DuckDB macros so the same statement runs in every host (the browser's worker API
 * cannot register JS functions). The erfc is W. J. Cody's rational Chebyshev approximation
 * (CALERF, Math. Comp. 23 (1969) 631-637; the coefficients of netlib's specfun), accurate to a few
 * ulps, with its split of exp(-y²) that keeps the tails' relative precision. Φ(z) = erfc(-z/√2)/2,
 * the argument scaled as scipy's ndtr scales it.
 */
export const NORM_CDF = 'almanac_norm_cdf';

/** scipy.stats.norm.ppf(0.05): the z of the 95% one-sided VaR (exponent form: a DOUBLE literal in DuckDB). */
export const NORM_PPF_05 = '-1.6448536269514729e0';

// Cody's coefficients, in exponent form: DuckDB reads those as DOUBLE (a plain decimal would be a DECIMAL).
const A = ['3.16112374387056560e00', '1.13864154151050156e02', '3.77485237685302021e02', '3.20937758913846947e03', '1.85777706184603153e-1'];
const B = ['2.36012909523441209e01', '2.44024637934444173e02', '1.28261652607737228e03', '2.84423683343917062e03'];
const C = [
  '5.64188496988670089e-1', '8.88314979438837594e00', '6.61191906371416295e01', '2.98635138197400131e02',
  '8.81952221241769090e02', '1.71204761263407058e03', '2.05107837782607147e03', '1.23033935479799725e03',
  '2.15311535474403846e-8',
];
const D = [
  '1.57449261107098347e01', '1.17693950891312499e02', '5.37181101862009858e02', '1.62138957456669019e03',
  '3.29079923573345963e03', '4.36261909014324716e03', '3.43936767414372164e03', '1.23033935480374942e03',
];
const P = ['3.05326634961232344e-1', '3.60344899949804439e-1', '1.25781726111229246e-1', '1.60837851487422766e-2', '6.58749161529837803e-4', '1.63153871373020978e-2'];
const Q = ['2.56852019228982242e00', '1.87295284992346725e00', '5.27905102951428412e-1', '6.05183413124413191e-2', '2.33520497626869185e-3'];
const SQRPI = '5.6418958354775628695e-1'; // 1/√π
const SQRT1_2 = '7.0710678118654752440e-1';

/** Cody's loops unrolled: ((c0·v + c1)·v + …)·v + cn, evaluated in his order. */
function horner(coefficients: string[], v: string): string {
  return coefficients.slice(1).reduce((acc, c) => `(${acc} * ${v} + ${c})`, coefficients[0]);
}

/** exp(-y²) as exp(-ŷ²)·exp(-(y-ŷ)(y+ŷ)) with ŷ = y rounded down to 1/16: no error from squaring y. */
const expMinusSquare = (y: string) => `(exp(-(trunc(${y} * 16) / 16) * (trunc(${y} * 16) / 16)) * exp(-((${y} - trunc(${y} * 16) / 16) * (${y} + trunc(${y} * 16) / 16))))`;

/** Run once per connection, before any statement that calls the CDF is prepared. */
export const NORM_CDF_MACROS = `
CREATE OR REPLACE TEMP MACRO almanac_erf_small(x) AS
  x * ${horner([A[4], A[0], A[1], A[2], A[3]], '(x * x)')} / ${horner(['1', B[0], B[1], B[2], B[3]], '(x * x)')};
CREATE OR REPLACE TEMP MACRO almanac_erfc_mid(y) AS
  ${expMinusSquare('y')} * (${horner([C[8], ...C.slice(0, 8)], 'y')} / ${horner(['1', ...D], 'y')});
CREATE OR REPLACE TEMP MACRO almanac_erfc_tail(y) AS
  CASE WHEN y >= 26.543e0 THEN 0e0
  ELSE ${expMinusSquare('y')} * ((${SQRPI} - (1 / (y * y)) * ${horner([P[5], ...P.slice(0, 5)], '(1 / (y * y))')} / ${horner(['1', ...Q], '(1 / (y * y))')}) / y) END;
CREATE OR REPLACE TEMP MACRO almanac_erfc_pos(y) AS
  CASE WHEN y <= 4e0 THEN almanac_erfc_mid(y) ELSE almanac_erfc_tail(y) END;
CREATE OR REPLACE TEMP MACRO ${NORM_CDF}(z) AS
  CASE WHEN isnan(CAST(z AS DOUBLE)) THEN CAST(z AS DOUBLE)
       WHEN abs(z) * ${SQRT1_2} <= 4.6875e-1 THEN 0.5e0 + 0.5e0 * almanac_erf_small(z * ${SQRT1_2})
       -- t = erfc(|z|/√2)/2: Φ(z) = t below 0 and 1 - t above, written without a second copy of t
       ELSE CAST(z >= 0 AS DOUBLE) + (1e0 - 2e0 * CAST(z >= 0 AS DOUBLE)) * (0.5e0 * almanac_erfc_pos(abs(z) * ${SQRT1_2})) END;
`;
