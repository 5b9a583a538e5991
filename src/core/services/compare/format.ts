/**
 * How Python and numpy turn quantstats' floats into what its report holds. Three different roundings
 * meet in one table, so each is spelled out:
 * - numpy `round(x, 2)`: x*100 in floating point, rint (half to even), /100 — the final display step;
 * - Python `round(x, 2)` and `'{:.2f}'`: the exact binary value rounded half to even — Beta, Alpha,
 *   Correlation, Treynor and Cumulative Return;
 * - Python `str(float)`: the shortest repr, always with a decimal point (`'1.0'`, `'-0.0'`).
 */

/** numpy.rint: nearest integer, ties to even. */
function rint(y: number): number {
  const r = Math.round(y);
  return r - y === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

export function numpyRound2(x: number): number {
  if (!Number.isFinite(x)) return x;
  return rint(x * 100) / 100;
}

/** The exact decimal value of x rounded half-to-even to 2 decimals, as digits ('-0.13'). */
function exactFixed2(x: number): string {
  const neg = x < 0 || Object.is(x, -0);
  // toFixed(100) is exact for every double this large or larger than 1e-40, which covers returns.
  const digits = Math.abs(x).toFixed(100);
  const [int, frac] = digits.split('.');
  const keep = BigInt(int + frac.slice(0, 2));
  const rest = frac.slice(2);
  let up = false;
  if (rest[0] > '5') up = true;
  else if (rest[0] === '5') up = /[1-9]/.test(rest.slice(1)) || keep % 2n === 1n;
  const n = (keep + (up ? 1n : 0n)).toString().padStart(3, '0');
  return `${neg ? '-' : ''}${n.slice(0, -2)}.${n.slice(-2)}`;
}

/** Python round(x, 2) on a float. */
export function pyRound2(x: number): number {
  if (!Number.isFinite(x)) return x;
  return Number(exactFixed2(x));
}

/** Python '{:,.2f}'.format(x). */
export function pyFormatComma2(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const s = exactFixed2(x);
  const neg = s.startsWith('-');
  const [int, frac] = (neg ? s.slice(1) : s).split('.');
  return `${neg ? '-' : ''}${int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac}`;
}

/** Python str(float) (repr). */
export function pyStr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (Object.is(x, -0)) return '-0.0';
  const a = Math.abs(x);
  if (a >= 1e16 || (a !== 0 && a < 1e-4)) {
    const [m, e] = x.toExponential().split('e');
    const exp = Number(e);
    return `${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return Number.isInteger(x) ? `${x}.0` : String(x);
}

/** quantstats' last cleanup: NaN and infinities become '-', every zero becomes the integer 0. */
export function cleanNumber(x: number): number | string {
  if (!Number.isFinite(x)) return '-';
  return x === 0 ? 0 : x;
}

/** The strings quantstats replaces with '-' ('nan', 'inf%', ...). */
export function cleanString(s: string): string {
  return /^-?(nan|inf)%?$/.test(s) ? '-' : s;
}
