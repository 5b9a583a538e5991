/**
 * Dates as whole days since 1970-01-01 (UTC), and the observation calendars of the sample data:
 * trading days per market (weekends and the main fixed holidays closed) and period starts for
 * weekly, monthly, quarterly and annual series.
 */
import type { Frequency } from '../core/contract/indicators.js';
import { toDay } from '../core/contract/dates.js';

const DAY_MS = 86_400_000;

export { toDay };

export function isoOf(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

function parts(day: number): { y: number; m: number; d: number; dow: number } {
  const dt = new Date(day * DAY_MS);
  return { y: dt.getUTCFullYear(), m: dt.getUTCMonth() + 1, d: dt.getUTCDate(), dow: dt.getUTCDay() };
}

/** Closed days besides weekends: the big fixed-date holidays of each market (enough for realistic gaps). */
const FIXED_HOLIDAYS: Record<string, string[]> = {
  US: ['01-01', '07-04', '12-25'],
  IN: ['01-26', '08-15', '10-02', '12-25'],
  JP: ['01-01', '01-02', '01-03', '12-31'],
  HK: ['01-01', '07-01', '10-01', '12-25', '12-26'],
  DE: ['01-01', '05-01', '12-24', '12-25', '12-26', '12-31'],
  GB: ['01-01', '12-25', '12-26'],
  EA: ['01-01', '05-01', '12-25', '12-26'],
  CN: ['01-01', '10-01', '10-02', '10-03', '10-04', '10-05', '10-06', '10-07'],
};

export function isTradingDay(day: number, country: string): boolean {
  const p = parts(day);
  if (p.dow === 0 || p.dow === 6) return false;
  const md = `${String(p.m).padStart(2, '0')}-${String(p.d).padStart(2, '0')}`;
  if ((FIXED_HOLIDAYS[country] ?? FIXED_HOLIDAYS.US).includes(md)) return false;
  // US Thanksgiving: the fourth Thursday of November.
  if ((country === 'US' || !FIXED_HOLIDAYS[country]) && p.m === 11 && p.dow === 4 && p.d >= 22 && p.d <= 28) return false;
  return true;
}

export function tradingDays(from: number, to: number, country: string): number[] {
  const out: number[] = [];
  for (let d = from; d <= to; d++) if (isTradingDay(d, country)) out.push(d);
  return out;
}

/** First day of the period that contains `day`. */
function periodStart(day: number, frequency: Exclude<Frequency, 'daily' | 'weekly'>): number {
  const p = parts(day);
  const month = frequency === 'monthly' ? p.m : frequency === 'quarterly' ? p.m - ((p.m - 1) % 3) : 1;
  return Math.round(Date.UTC(p.y, month - 1, 1) / DAY_MS);
}

function addMonths(day: number, n: number): number {
  const p = parts(day);
  return Math.round(Date.UTC(p.y, p.m - 1 + n, 1) / DAY_MS);
}

const MONTHS: Record<'monthly' | 'quarterly' | 'annual', number> = { monthly: 1, quarterly: 3, annual: 12 };

/**
 * Observation dates from `start` whose period has ended and been published by `asOf`
 * (period end + lagDays ≤ asOf). Daily series use trading days; weekly use one weekday;
 * the others are dated the first day of the period (FRED's convention).
 */
export function observationDates(
  frequency: Frequency,
  start: number,
  asOf: number,
  opts: { country: string; lagDays: number; weekday?: number },
): number[] {
  if (frequency === 'daily') return tradingDays(start, asOf - Math.max(0, opts.lagDays - 1), opts.country);
  if (frequency === 'weekly') {
    const wd = opts.weekday ?? 6;
    let d = start;
    while (parts(d).dow !== wd) d++;
    const out: number[] = [];
    for (; d + opts.lagDays <= asOf; d += 7) out.push(d);
    return out;
  }
  const step = MONTHS[frequency];
  const out: number[] = [];
  for (let d = periodStart(start, frequency); ; d = addMonths(d, step)) {
    const end = addMonths(d, step) - 1;
    if (end + opts.lagDays > asOf) break;
    out.push(d);
  }
  return out;
}

/** Years as a fraction, for scaling volatility and trend between observations. */
export const STEP_YEARS: Record<Frequency, number> = {
  daily: 1 / 252,
  weekly: 1 / 52,
  monthly: 1 / 12,
  quarterly: 1 / 4,
  annual: 1,
};
