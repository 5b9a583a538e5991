/**
 * The MF generator's calendar and market drivers, day by day from 2006-04-01 (day number 0).
 * Every series is a fixed function of (seed, day): extending the horizon by a week never changes an
 * earlier day, so the next generation's history matches the previous one row for row.
 */
import { hash32, Rng } from './random.js';

const DAY_MS = 86_400_000;
const EPOCH = Date.UTC(2006, 3, 1);

export function dayNumber(iso: string): number {
  return Math.round((Date.parse(`${iso}T00:00:00Z`) - EPOCH) / DAY_MS);
}

export function isoOf(dn: number): string {
  return new Date(EPOCH + dn * DAY_MS).toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(dn: number): number {
  return (6 + dn) % 7; // 2006-04-01 was a Saturday
}

const FIXED_HOLIDAYS = ['01-26', '05-01', '08-15', '10-02', '12-25'];

/** Exchange holidays: the fixed national days plus eight festival weekdays a year (seed-independent). */
export function isHoliday(dn: number): boolean {
  const iso = isoOf(dn);
  if (FIXED_HOLIDAYS.includes(iso.slice(5))) return true;
  const year = Number(iso.slice(0, 4));
  const doy = dn - dayNumber(`${year}-01-01`);
  for (let i = 0; i < 8; i++) if (hash32(`holiday:${year}:${i}`) % 365 === doy) return true;
  return false;
}

const businessCache: (boolean | undefined)[] = [];

export function isBusinessDay(dn: number): boolean {
  let b = businessCache[dn];
  if (b === undefined) {
    const w = weekday(dn);
    b = businessCache[dn] = w !== 0 && w !== 6 && !isHoliday(dn);
  }
  return b;
}

/** The latest business day on or before dn. */
export function businessOnOrBefore(dn: number): number {
  let d = dn;
  while (!isBusinessDay(d)) d--;
  return d;
}

/** The first business day on or after dn. */
export function businessOnOrAfter(dn: number): number {
  let d = dn;
  while (!isBusinessDay(d)) d++;
  return d;
}

/** Policy-rate path (annual, decimal) at the start of each period; linear in between. */
const RATE_POINTS: [string, number][] = [
  ['2006-04-01', 0.065], ['2008-08-01', 0.09], ['2009-04-01', 0.0475], ['2011-10-01', 0.085], ['2013-07-01', 0.09],
  ['2015-01-01', 0.0775], ['2016-10-01', 0.0625], ['2019-01-01', 0.065], ['2020-05-01', 0.04], ['2022-04-01', 0.04],
  ['2023-02-01', 0.065], ['2025-01-01', 0.0625], ['2025-07-01', 0.055], ['2030-01-01', 0.055],
];

function policyRate(dn: number): number {
  for (let i = 1; i < RATE_POINTS.length; i++) {
    const a = dayNumber(RATE_POINTS[i - 1][0]);
    const b = dayNumber(RATE_POINTS[i][0]);
    if (dn < b) return RATE_POINTS[i - 1][1] + ((RATE_POINTS[i][1] - RATE_POINTS[i - 1][1]) * (dn - a)) / (b - a);
  }
  return RATE_POINTS[RATE_POINTS.length - 1][1];
}

/** Equity regimes: daily log drift and volatility; crashes in 2008 and 2020. */
const REGIMES: [string, string, number, number][] = [
  ['2008-01-08', '2009-03-09', -0.0035, 0.026],
  ['2009-03-10', '2009-12-31', 0.003, 0.018],
  ['2020-02-20', '2020-03-23', -0.014, 0.042],
  ['2020-03-24', '2020-12-31', 0.0028, 0.015],
];

function equityRegime(dn: number): [number, number] {
  for (const [from, to, mu, sigma] of REGIMES) if (dn >= dayNumber(from) && dn <= dayNumber(to)) return [mu, sigma];
  return [0.00055, 0.0105];
}

/** Factor 0 is gold, 1 is overseas equity, the rest are sector factors. */
export const FACTOR_COUNT = 12;
export const GOLD_FACTOR = 0;
export const OVERSEAS_FACTOR = 1;

export interface CalendarDay {
  dn: number;
  iso: string;
  business: boolean;
  /** Cumulative log level of the domestic equity market. */
  m: number;
  /** Cumulative log accrual of the money-market rate (calendar days). */
  a: number;
  /** Yield level change since day 0 (decimal); a bond of duration D moves by -D·Δr. */
  r: number;
  /** Cumulative log levels of the factors. */
  f: Float64Array;
}

export function buildCalendar(seed: number, lastDn: number): CalendarDay[] {
  const mkt = new Rng(seed, 'mf:market');
  const rates = new Rng(seed, 'mf:rates');
  const fac = Array.from({ length: FACTOR_COUNT }, (_, k) => new Rng(seed, `mf:factor:${k}`));
  const out: CalendarDay[] = [];
  let m = 0;
  let a = 0;
  let walk = 0;
  const f = new Float64Array(FACTOR_COUNT);
  const r0 = policyRate(0);
  for (let dn = 0; dn <= lastDn; dn++) {
    const business = isBusinessDay(dn);
    a += Math.log1p(policyRate(dn) / 365);
    if (business) {
      const [mu, sigma] = equityRegime(dn);
      const zm = mkt.normal();
      m += mu + sigma * zm;
      walk = 0.995 * walk + 0.0004 * rates.normal();
      for (let k = 0; k < FACTOR_COUNT; k++) {
        const z = fac[k].normal();
        if (k === GOLD_FACTOR) f[k] += 0.00045 + 0.009 * z;
        else if (k === OVERSEAS_FACTOR) f[k] += 0.0004 + 0.6 * sigma * z + 0.3 * (mu - 0.00055);
        else f[k] += 0.007 * z;
      }
    }
    out.push({ dn, iso: isoOf(dn), business, m, a, r: policyRate(dn) - r0 + walk, f: f.slice() });
  }
  return out;
}
