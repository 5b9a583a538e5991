import type { Engine } from '../../engine/engine.js';

/**
 * The standard normal CDF, which DuckDB lacks, registered as a scalar UDF (Prob. Sharpe Ratio needs
 * it in SQL). Accurate to a few ulps over the whole line: a positive-term series for erf near zero
 * (no cancellation) and a Lentz continued fraction for erfc in the tails, so tiny probabilities keep
 * their relative precision, as scipy's ndtr does.
 */
export const NORM_CDF_UDF = 'almanac_norm_cdf';

/** scipy.stats.norm.ppf(0.05): the z of the 95% one-sided VaR. */
export const NORM_PPF_05 = '-1.6448536269514729';

const SQRT1_2 = Math.SQRT1_2;
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
  const x = Math.abs(z) * SQRT1_2;
  if (x < 2.5) {
    const e = erfSeries(x);
    return z < 0 ? 0.5 * (1 - e) : 0.5 * (1 + e);
  }
  const c = erfcFraction(x);
  return z < 0 ? 0.5 * c : 1 - 0.5 * c;
}

const registered = new WeakSet<Engine>();

/** Registers the UDF once per engine; an engine that cannot host UDFs cannot run compare. */
export async function ensureNormCdf(engine: Engine): Promise<void> {
  if (registered.has(engine)) return;
  if (!engine.registerDoubleFunction) {
    throw new Error('This engine cannot register SQL functions (registerDoubleFunction), which compare needs for the normal CDF.');
  }
  await engine.registerDoubleFunction(NORM_CDF_UDF, normCdf);
  registered.add(engine);
}
