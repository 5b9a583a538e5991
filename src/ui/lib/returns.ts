/**
 * Point-to-point returns of a NAV series over the usual windows, annualised (CAGR) from one year up.
 * Display arithmetic over the core's NAV rows; a 0.00 end-of-life NAV is not a price and is left out
 * by the caller.
 */
export interface WindowReturn {
  window: string;
  from: string;
  to: string;
  total: number;
  annualised: number | null;
}

const WINDOWS: [string, number, number][] = [
  ['1 month', 0, 1], ['3 months', 0, 3], ['6 months', 0, 6], ['1 year', 1, 0], ['3 years', 3, 0], ['5 years', 5, 0], ['10 years', 10, 0],
];

function back(iso: string, years: number, months: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() - years, d.getUTCMonth() - months);
  return d.toISOString().slice(0, 10);
}

/** Index of the last point on or before `date` (points ascending by date). */
function atOrBefore(points: { date: string }[], date: string): number {
  let lo = 0;
  let hi = points.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (points[mid].date <= date) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

export function windowReturns(points: { date: string; nav: number }[]): WindowReturn[] {
  if (points.length < 2) return [];
  const last = points[points.length - 1];
  const out: WindowReturn[] = [];
  const span = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / (365.25 * 86_400_000);
  for (const [label, y, m] of WINDOWS) {
    const i = atOrBefore(points, back(last.date, y, m));
    if (i < 0 || points[i].nav <= 0) continue;
    const total = last.nav / points[i].nav - 1;
    out.push({ window: label, from: points[i].date, to: last.date, total, annualised: y > 1 ? (1 + total) ** (1 / span(points[i].date, last.date)) - 1 : null });
  }
  const first = points.find((p) => p.nav > 0);
  if (first && first !== last) {
    const total = last.nav / first.nav - 1;
    const yrs = span(first.date, last.date);
    out.push({ window: 'Since launch', from: first.date, to: last.date, total, annualised: yrs >= 1 ? (1 + total) ** (1 / yrs) - 1 : null });
  }
  return out;
}
