/**
 * The plain implementation's own standard normal CDF, independent of the SQL one (normal.ts) so the
 * cross-check stays a second implementation: a positive-term series for erf near zero (no
 * cancellation) and a Lentz continued fraction for erfc in the tails, so tiny probabilities keep their
 * relative precision, as scipy's ndtr does.
 */
const TWO_OVER_SQRT_PI = 1.1283791670955126;
const ONE_OVER_SQRT_PI = 0.5641895835477563;

/** erf(x) for 0 <= x < 2.5: 2x/√π · e^(−x²) · Σ (2x²)^k / (1·3·…·(2k+1)). */
function erfSeries(x: number): number {
  const x2 = x * x;
  let term = 1;
  let sum = 1;
  for (let k = 1; k < 200; k++) {
    term *= (2 * x2) / (2 * k + 1);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return TWO_OVER_SQRT_PI * x * Math.exp(-x2) * sum;
}

/** erfc(x) for x >= 2.5: e^(−x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …)))), modified Lentz. */
function erfcFraction(x: number): number {
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let d = 0;
  for (let k = 1; k < 500; k++) {
    const a = k / 2;
    d = x + a * d;
    d = Math.abs(d) < tiny ? tiny : d;
    c = x + a / c;
    c = Math.abs(c) < tiny ? tiny : c;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return (ONE_OVER_SQRT_PI * Math.exp(-x * x)) / f;
}

export function normCdf(z: number): number {
  if (Number.isNaN(z)) return Number.NaN;
  if (z === Infinity) return 1;
  if (z === -Infinity) return 0;
  const x = Math.abs(z) * Math.SQRT1_2;
  if (x < 2.5) {
    const e = erfSeries(x);
    return z < 0 ? 0.5 * (1 - e) : 0.5 * (1 + e);
  }
  const c = erfcFraction(x);
  return z < 0 ? 0.5 * c : 1 - 0.5 * c;
}
