/**
 * A second, independent implementation of the compare metrics in plain TypeScript over arrays: the
 * benchmark for the DuckDB version and a cross-check in the tests (test/core/compare/plain.test.ts).
 * It shares nothing with src/core/services/compare but the Python/numpy formatting rules (format.ts).
 */
import { cleanNumber, cleanString, numpyRound2, pyFormatComma2, pyRound2, pyStr } from '../src/core/services/compare/format.js';
import { normCdf } from './norm-cdf.js';

export interface PriceSeries {
  dates: string[];
  closes: number[];
}

const PPF05 = -1.6448536269514729;
const sum = (a: number[]) => a.reduce((s, x) => s + x, 0);
const mean = (a: number[]) => (a.length ? sum(a) / a.length : Number.NaN);
const prod = (a: number[]) => a.reduce((s, x) => s * (1 + x), 1);
function std(a: number[]): number {
  const m = mean(a);
  return Math.sqrt(sum(a.map((x) => (x - m) ** 2)) / (a.length - 1));
}
function quantile(a: number[], q: number): number {
  const s = [...a].sort((x, y) => x - y);
  const vi = (s.length - 1) * q;
  const lo = Math.floor(vi);
  const t = vi - lo;
  const x0 = s[Math.min(lo, s.length - 1)];
  const x1 = s[Math.min(lo + 1, s.length - 1)];
  return t >= 0.5 ? x1 - (x1 - x0) * (1 - t) : x0 + (x1 - x0) * t;
}
const ratioOrNaN = (a: number, b: number) => (b === 0 || Number.isNaN(b) ? Number.NaN : a / b);
/**
 * pct_change (`raw`), below -100% through a negative close, ±inf or NaN out of a close of 0; `r` is
 * that with the non-numbers 0, as _prepare_returns cleans them.
 */
function returnsOf(p: PriceSeries) {
  const raw = p.closes.slice(1).map((c, i) => c / p.closes[i] - 1);
  return { dates: p.dates.slice(1), raw, r: raw.map((x) => (Number.isFinite(x) ? x : 0)) };
}

function shiftDate(d: string, months: number): string {
  const [y, m, day] = d.split('-').map(Number);
  const total = y * 12 + (m - 1) - months;
  const ny = Math.floor(total / 12);
  const nm = total - ny * 12 + 1;
  const last = new Date(Date.UTC(ny, nm, 0)).getUTCDate();
  return `${ny}-${String(nm).padStart(2, '0')}-${String(Math.min(day, last)).padStart(2, '0')}`;
}

interface Period {
  start: string;
  end: string;
  valley: string;
  min: number;
  days: number;
  firstIndex: number;
}

function drawdown(dates: string[], r: number[]): { dd: number[]; periods: Period[] } {
  let cp = 1;
  let peak = 1;
  const dd = r.map((x, i) => {
    cp = i === 0 ? 1 + x : cp * (1 + x);
    const price = 1 + (cp - 1);
    peak = Math.max(peak, price);
    return price / peak - 1;
  });
  const runs: Period[] = [];
  for (let i = 0; i < dd.length; i++) {
    if (dd[i] >= 0) continue;
    let j = i;
    let v = i;
    while (j + 1 < dd.length && dd[j + 1] < 0) {
      j++;
      if (dd[j] < dd[v]) v = j;
    }
    const days = (Date.parse(dates[j]) - Date.parse(dates[i])) / 86400000 + 1;
    runs.push({ start: dates[i], end: dates[j], valley: dates[v], min: dd[v], days, firstIndex: i });
    i = j;
  }
  const periods = runs.length === 1 && runs[0].firstIndex === 0 ? [] : runs;
  return { dd, periods };
}

function groupComp(dates: string[], r: number[], key: (d: string) => string): Map<string, number[]> {
  const g = new Map<string, number[]>();
  dates.forEach((d, i) => g.set(key(d), [...(g.get(key(d)) ?? []), r[i]]));
  return g;
}

/** The 81 metrics of one symbol against the benchmark, both already cut to the window. */
export function plainMetrics(symbol: PriceSeries, benchmark: PriceSeries, rf: number, display: boolean): Record<string, number | string> {
  const s = returnsOf(symbol);
  const b0 = returnsOf(benchmark);
  const benchDates = new Set(b0.dates);
  const sameSet = s.dates.length === b0.dates.length && s.dates.every((d) => benchDates.has(d));
  let b: number[];
  if (sameSet) {
    const at = new Map(b0.dates.map((d, i) => [d, b0.r[i]]));
    b = s.dates.map((d) => at.get(d)!);
  } else {
    let cp = 1;
    // to_prices: NaN counts as 0 and ±inf leaves that day's price NaN (cumprod skips it)
    const bp = b0.raw.map((x) => (Math.abs(x) === Infinity ? Number.NaN : 1 + ((cp *= 1 + (Number.isNaN(x) ? 0 : x)) - 1)));
    let k = 0;
    const px = s.dates.map((d) => {
      while (k < b0.dates.length && b0.dates[k] < d) k++;
      return k < b0.dates.length ? bp[k] : Number.NaN;
    });
    b = px.map((p, i) => (i === 0 ? 0 : p / px[i - 1] - 1)).map((x) => (Number.isFinite(x) ? x : 0));
  }
  const firstNz = (a: number[]) => Math.max(0, a.findIndex((x) => x !== 0));
  const loc = Math.max(firstNz(s.r), firstNz(b));
  const dates = s.dates.slice(loc);
  const r = s.r.slice(loc);
  const bm = b.slice(loc);
  const n = r.length;
  const rfd = rf > 0 ? (1 + rf) ** (1 / 252) - 1 : 0;
  const e = r.map((x) => x - rfd);

  const comp = prod(r) - 1;
  const cagr = (a: number[]) => Math.abs(prod(a) - 1 + 1) ** (1 / (a.length / 252)) - 1;
  const exposure = Math.ceil((r.filter((x) => x !== 0).length / n) * 100) / 100;
  const sdR = std(r);
  const sdE = std(e);
  const e0 = e.slice(0, -1);
  const e1 = e.slice(1);
  const m0 = mean(e0);
  const m1 = mean(e1);
  const coef = Math.abs(sum(e0.map((x, i) => (x - m0) * (e1[i] - m1))) / Math.sqrt(sum(e0.map((x) => (x - m0) ** 2)) * sum(e1.map((x) => (x - m1) ** 2))));
  let acc = 0;
  for (let x = 1; x < n; x++) acc += ((n - x) / n) * coef ** x;
  const penalty = Math.sqrt(1 + 2 * acc);
  const downside = Math.sqrt(sum(e.filter((x) => x < 0).map((x) => x * x)) / n);
  const sortino = (ratioOrNaN(mean(e), downside) * Math.sqrt(252));
  const smartSortino = ratioOrNaN(mean(e), downside * penalty) * Math.sqrt(252);

  const mr = mean(r);
  const dev = r.map((x) => x - mr);
  const m2 = sum(dev.map((x) => x * x));
  const m3 = sum(dev.map((x) => x * x * x));
  const m4 = sum(dev.map((x) => x * x * (x * x)));
  const skew = Math.abs(m2) < 1e-14 ? 0 : ((n * (n - 1) ** 0.5) / (n - 2)) * ((Math.abs(m3) < 1e-14 ? 0 : m3) / m2 ** 1.5);
  const kden = (n - 2) * (n - 3) * (m2 * m2);
  const kurt = Math.abs(kden) < 1e-14 ? 0 : (n * (n + 1) * (n - 1) * m4) / kden - (3 * (n - 1) ** 2) / ((n - 2) * (n - 3));
  const sh = mr / sdR;
  const psrVar = (1 + 0.5 * sh * sh - skew * sh + ((kurt - 3) / 4) * sh * sh) / (n - 1);
  const psr = psrVar >= 0 ? normCdf((sh - rf) / Math.sqrt(psrVar)) : Number.NaN;

  const { dd, periods } = drawdown(dates, r);
  const bdd = drawdown(dates, bm);
  const maxAll = Math.min(0, ...dd);
  const ulcer = Math.sqrt(sum(dd.map((x) => x * x)) / (n - 1));
  const ddSd = std(dd);
  const ddVar = PPF05 * ddSd + mean(dd);
  const ddTail = dd.filter((x) => x < ddVar);
  const ddCvar = ddSd > 0 ? (ddTail.length ? mean(ddTail) : ddVar) : Number.NaN;
  const varR = PPF05 * sdR + mr;
  const tail = r.filter((x) => x < varR);
  const cvarR = tail.length ? mean(tail) : varR;

  const pos = r.filter((x) => x > 0).length;
  const nz = r.filter((x) => x !== 0).length;
  const win = nz ? pos / nz : 0;
  const joint = (f: (x: number, y: number) => boolean) => mean(r.filter((x, i) => f(x, bm[i])));
  const avgWin = joint((x, y) => x > 0 && y > 0);
  const avgLoss = joint((x, y) => x < 0 && y < 0);
  const payoff = avgLoss === 0 || Number.isNaN(avgLoss) ? Number.NaN : avgWin / Math.abs(avgLoss);
  const wins = r.filter((x) => x >= 0);
  const losses = r.filter((x) => x < 0);
  const pf = sum(losses) === 0 ? (sum(wins) === 0 ? Number.NaN : 0) : sum(wins) / Math.abs(sum(losses));
  const profitRatio = wins.length === 0 ? 0 : losses.length === 0 ? Number.NaN : Math.abs(mean(wins) / wins.length) / Math.abs(mean(losses) / losses.length);
  const q05 = quantile(r, 0.05);
  const tailRatio = q05 === 0 ? Number.NaN : Math.abs(quantile(r, 0.95) / q05);

  const months = groupComp(dates, r, (d) => d.slice(0, 7));
  const monthsB = groupComp(dates, bm, (d) => d.slice(0, 7));
  const quarters = groupComp(dates, r, (d) => `${d.slice(0, 4)}Q${Math.ceil(Number(d.slice(5, 7)) / 3)}`);
  const years = groupComp(dates, r, (d) => d.slice(0, 4));
  const mc = [...months.values()].map((a) => prod(a) - 1);
  const mcb = [...monthsB.values()].map((a) => prod(a) - 1);
  const qc = [...quarters.values()].map((a) => prod(a) - 1);
  const yc = [...years.values()].map((a) => prod(a) - 1);
  const winRate = (a: number[]) => (a.filter((x) => x !== 0).length ? a.filter((x) => x > 0).length / a.filter((x) => x !== 0).length : 0);
  const monthSums = [...months.values()].map(sum);

  const last = dates[n - 1];
  const since = (from: string) => r.filter((_, i) => dates[i] >= from);
  const bVar = sum(bm.map((x) => (x - mean(bm)) ** 2));
  const cxy = sum(r.map((x, i) => (x - mr) * (bm[i] - mean(bm))));
  const betaRaw = bVar === 0 ? Number.NaN : cxy / (n - 1) / (bVar / (n - 1));
  const beta = Number.isNaN(betaRaw) ? 0 : betaRaw;
  const alphaRaw = (mr - betaRaw * mean(bm)) * 252;
  const alpha = Number.isNaN(alphaRaw) ? 0 : alphaRaw;
  const corr = cxy / Math.sqrt(bVar * m2);
  const diff = r.map((x, i) => x - bm[i]);
  const deep = periods.length ? periods.reduce((a, p) => (p.min < a.min ? p : a)) : undefined;
  const benchHasDd = bdd.periods.length > 0;
  const avgDays = periods.length ? mean(periods.map((p) => p.days)) : Number.NaN;
  const cum = pyFormatComma2(comp);
  const benchCum = pyFormatComma2(prod(bm) - 1);

  const out: Record<string, number | string> = {
    'Start Period': dates[0],
    'End Period': last,
    'Risk-Free Rate': rf * 100,
    'Time in Market': exposure,
    'Cumulative Return': cum.includes(',') || benchCum.includes(',') ? cum : Number(cum),
    'CAGR﹪': cagr(r),
    Sharpe: (mean(e) / sdE) * Math.sqrt(252),
    'Prob. Sharpe Ratio': psr,
    'Smart Sharpe': (mean(e) / (sdE * penalty)) * Math.sqrt(252),
    Sortino: sortino,
    'Smart Sortino': smartSortino,
    'Sortino/√2': sortino / Math.SQRT2,
    'Smart Sortino/√2': smartSortino / Math.SQRT2,
    Omega: ratioOrNaN(sum(e.filter((x) => x > 0)), -sum(e.filter((x) => x < 0))),
    'Max Drawdown': deep ? (deep.min * 100) / 100 : benchHasDd ? '-' : '',
    'Max DD Date': deep ? deep.valley : benchHasDd ? '-' : '',
    'Max DD Period Start': deep ? deep.start : benchHasDd ? '-' : '',
    'Max DD Period End': deep ? deep.end : benchHasDd ? '-' : '',
    'Longest DD Days': deep && benchHasDd ? Math.max(...periods.map((p) => p.days)) : '-',
    'Volatility (ann.)': sdR * Math.sqrt(252),
    'R^2': (corr > 1 ? 1 : corr < -1 ? -1 : corr) ** 2,
    'Information Ratio': std(diff) !== 0 ? mean(diff) / std(diff) : 0,
    Calmar: ratioOrNaN(cagr(r), Math.abs(maxAll)),
    Skew: skew,
    Kurtosis: kurt,
    'Ulcer Performance Index': ratioOrNaN(comp - rf, ulcer),
    'Risk-Adjusted Return': cagr(r) / exposure,
    'Risk-Return Ratio': ratioOrNaN(mr, sdR),
    'Avg. Return': joint((x, y) => x !== 0 && y !== 0),
    'Avg. Win': avgWin,
    'Avg. Loss': avgLoss,
    'Win/Loss Ratio': payoff,
    'Profit Ratio': profitRatio,
    'Expected Daily': prod(r) ** (1 / n) - 1,
    'Expected Monthly': prod(mc) ** (1 / mc.length) - 1,
    'Expected Yearly': prod(yc) ** (1 / yc.length) - 1,
    'Kelly Criterion': payoff === 0 || Number.isNaN(payoff) ? Number.NaN : (payoff * win - (1 - win)) / payoff,
    'Risk of Ruin': ((1 - win) / (1 + win)) ** n,
    'Daily Value-at-Risk': -Math.abs(varR),
    'Expected Shortfall (cVaR)': -Math.abs(cvarR),
    'Max Consecutive Wins': longestRun(r, (x) => x > 0),
    'Max Consecutive Losses': longestRun(r, (x) => x < 0),
    'Gain/Pain Ratio': ratioOrNaN(sum(r), Math.abs(sum(losses))),
    'Gain/Pain (1M)': ratioOrNaN(sum(monthSums), Math.abs(sum(monthSums.filter((x) => x < 0)))),
    'Payoff Ratio': payoff,
    'Profit Factor': pf,
    'Common Sense Ratio': pf * tailRatio,
    'CPC Index': pf * win * payoff,
    'Tail Ratio': tailRatio,
    'Outlier Win Ratio': ratioOrNaN(quantile(r, 0.99), mean(wins)),
    'Outlier Loss Ratio': ratioOrNaN(quantile(r, 0.01), mean(losses)),
    MTD: prod(since(`${last.slice(0, 7)}-01`)) - 1,
    '3M': prod(since(shiftDate(last, 3))) - 1,
    '6M': prod(since(shiftDate(last, 6))) - 1,
    YTD: prod(since(`${last.slice(0, 4)}-01-01`)) - 1,
    '1Y': prod(since(shiftDate(last, 12))) - 1,
    '3Y (ann.)': cagr(since(shiftDate(last, 35))),
    '5Y (ann.)': cagr(since(shiftDate(last, 59))),
    '10Y (ann.)': cagr(since(shiftDate(last, 120))),
    'All-time (ann.)': cagr(r),
    'Best Day': Math.max(...r),
    'Worst Day': Math.min(...r),
    'Best Month': Math.max(...mc),
    'Worst Month': Math.min(...mc),
    'Best Year': Math.max(...yc),
    'Worst Year': Math.min(...yc),
  };
  if (deep || benchHasDd) {
    out['Avg. Drawdown'] = deep ? mean(periods.map((p) => p.min * 100)) / 100 : '-';
    out['Avg. Drawdown Days'] = deep && benchHasDd ? roundHalfEven(avgDays) : '-';
  }
  Object.assign(out, {
    'Recovery Factor': ratioOrNaN(Math.abs(sum(r)), Math.abs(maxAll)),
    'Ulcer Index': ulcer,
    'Serenity Index': ratioOrNaN(sum(r) - rf, ulcer * ratioOrNaN(-ddCvar, sdR)),
    'Avg. Up Month': mean(mc.filter((x, i) => x > 0 && mcb[i] > 0)),
    'Avg. Down Month': mean(mc.filter((x, i) => x < 0 && mcb[i] < 0)),
    'Win Days': win,
    'Win Month': winRate(mc),
    'Win Quarter': winRate(qc),
    'Win Year': winRate(yc),
    Beta: pyStr(pyRound2(beta)),
    Alpha: pyStr(pyRound2(alpha)),
    Correlation: `${pyStr(pyRound2(corr))}%`,
    'Treynor Ratio': beta === 0 ? '0%' : `${pyStr(pyRound2((comp - rf) / beta))}%`,
  });
  if (!deep && !benchHasDd) out['Avg. Drawdown Days'] = '-';
  for (const [k, v] of Object.entries(out)) {
    out[k] = typeof v === 'string' ? cleanString(v) : cleanNumber(display ? numpyRound2(v) : v);
  }
  return out;
}

function longestRun(a: number[], f: (x: number) => boolean): number {
  let best = 0;
  let cur = 0;
  for (const x of a) {
    cur = f(x) ? cur + 1 : 0;
    best = Math.max(best, cur);
  }
  return best;
}

function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}
