/**
 * Securities comparison contract (spec: flags-and-compare-api.md, part B): request parameters and
 * their rules, limits, the response and the 81 metric names exactly as quantstats 0.0.81 prints them
 * (`reports.metrics(mode="full")`, strategy column). Choices the spec leaves open are recorded in
 * docs/compare.md and docs/decisions.md ("Compare").
 */
import { ApiError } from './api-error.js';
import { isIsoDate } from './dates.js';

export const COMPARE_PATH = '/v1/compare';
export const MCP_TOOL = 'mcp_compare_securities';
export const MAX_SYMBOLS = 6;
export const DEFAULT_BENCHMARK = 'SPY';
/** A benchmark to offer first where SPY is not held: the index SPY tracks, then the others. */
export const BENCHMARK_PREFERENCE = [DEFAULT_BENCHMARK, '^GSPC'] as const;
/** What an Indian mutual fund is measured against when none is named (the app's Compare from a fund's page): the Nifty 50. */
export const FUND_BENCHMARK = '^NSEI';
export const DEFAULT_RISK_FREE_RATE = 0;
export const PRECISIONS = ['display', 'full'] as const;
export type Precision = (typeof PRECISIONS)[number];

/** In quantstats' order; `all_metrics` keys come out in exactly this order. */
export const METRIC_NAMES = [
  'Start Period', 'End Period', 'Risk-Free Rate', 'Time in Market', 'Cumulative Return', 'CAGR﹪',
  'Sharpe', 'Prob. Sharpe Ratio', 'Smart Sharpe', 'Sortino', 'Smart Sortino', 'Sortino/√2',
  'Smart Sortino/√2', 'Omega', 'Max Drawdown', 'Max DD Date', 'Max DD Period Start', 'Max DD Period End',
  'Longest DD Days', 'Volatility (ann.)', 'R^2', 'Information Ratio', 'Calmar', 'Skew', 'Kurtosis',
  'Ulcer Performance Index', 'Risk-Adjusted Return', 'Risk-Return Ratio', 'Avg. Return', 'Avg. Win',
  'Avg. Loss', 'Win/Loss Ratio', 'Profit Ratio', 'Expected Daily', 'Expected Monthly', 'Expected Yearly',
  'Kelly Criterion', 'Risk of Ruin', 'Daily Value-at-Risk', 'Expected Shortfall (cVaR)',
  'Max Consecutive Wins', 'Max Consecutive Losses', 'Gain/Pain Ratio', 'Gain/Pain (1M)', 'Payoff Ratio',
  'Profit Factor', 'Common Sense Ratio', 'CPC Index', 'Tail Ratio', 'Outlier Win Ratio',
  'Outlier Loss Ratio', 'MTD', '3M', '6M', 'YTD', '1Y', '3Y (ann.)', '5Y (ann.)', '10Y (ann.)',
  'All-time (ann.)', 'Best Day', 'Worst Day', 'Best Month', 'Worst Month', 'Best Year', 'Worst Year',
  'Avg. Drawdown', 'Avg. Drawdown Days', 'Recovery Factor', 'Ulcer Index', 'Serenity Index',
  'Avg. Up Month', 'Avg. Down Month', 'Win Days', 'Win Month', 'Win Quarter', 'Win Year', 'Beta', 'Alpha',
  'Correlation', 'Treynor Ratio',
] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

/** A metric is a number, a `YYYY-MM-DD` or quantstats string (`'0.99'`, `'0.94%'`), or `-` for NaN/inf. */
export type MetricValue = number | string;
export type AllMetrics = Partial<Record<MetricName, MetricValue>>;

export interface CompareParams {
  symbols: string[];
  start_date: string;
  end_date: string;
  benchmark: string;
  /** Decimal: 0.045 is 4.5 percent. */
  risk_free_rate: number;
  /** `full` skips quantstats' final 2-decimal display rounding (an Almanac extension). */
  precision: Precision;
}

export interface SymbolEntry {
  symbol: string;
  success: boolean;
  /** Price rows of the symbol inside the window. */
  trading_days: number;
  error: string | null;
  all_metrics: AllMetrics;
}

export interface CompareResponse {
  success: boolean;
  benchmark: string;
  start_date: string;
  end_date: string;
  risk_free_rate: number;
  symbols: SymbolEntry[];
}

export interface CompareErrorBody {
  success: false;
  error: 'bad_request' | 'not_found' | 'method_not_allowed' | 'benchmark_not_found';
  status: number;
  message: string;
  hint: string;
  /** With benchmark_not_found: the symbols that can serve as a benchmark here. */
  available_benchmarks?: string[];
}

/** A request the service refuses as a whole (4xx); per-symbol failures go inside their entry. */
export class CompareError extends ApiError {
  constructor(
    readonly status: number,
    readonly code: CompareErrorBody['error'],
    message: string,
    readonly hint: string,
    readonly availableBenchmarks?: string[],
  ) {
    super(message);
  }

  /** The compare envelope names no path: the request is the one to /v1/compare or its tool call. */
  body(): CompareErrorBody {
    const b: CompareErrorBody = { success: false, error: this.code, status: this.status, message: this.message, hint: this.hint };
    if (this.availableBenchmarks) b.available_benchmarks = this.availableBenchmarks;
    return b;
  }
}

/** Tickers, scheme codes and ISINs: letters, digits and the punctuation tickers use (^ = . - & _ space). */
const SYMBOL_RE = /^[A-Za-z0-9^=.&_ -]{1,40}$/;

function bad(message: string, hint: string): CompareError {
  return new CompareError(400, 'bad_request', message, hint);
}

export interface RawCompareParams {
  symbols?: unknown;
  start_date?: unknown;
  end_date?: unknown;
  benchmark?: unknown;
  risk_free_rate?: unknown;
  precision?: unknown;
}

/** Validates the parameters as REST, MCP and the CLI receive them (strings or already-typed values). */
export function parseCompareParams(raw: RawCompareParams): CompareParams {
  if (typeof raw.symbols !== 'string' || raw.symbols.trim() === '') {
    throw bad('symbols is required: comma-separated tickers, at most 6.', 'Example: symbols=AAPL,MSFT');
  }
  const symbols = raw.symbols.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (symbols.length === 0) throw bad('symbols is empty.', 'Example: symbols=AAPL,MSFT');
  if (symbols.length > MAX_SYMBOLS) {
    throw bad(
      `At most ${MAX_SYMBOLS} symbols per request; got ${symbols.length}.`,
      `Split the list into batches of ${MAX_SYMBOLS} and run them one after another.`,
    );
  }
  for (const s of symbols) {
    if (!SYMBOL_RE.test(s)) throw bad(`Symbol '${s}' has characters a ticker, scheme code or ISIN cannot have.`, 'Use letters, digits and ^ = . & _ - only.');
  }
  const dates: Record<'start_date' | 'end_date', string> = { start_date: '', end_date: '' };
  for (const k of ['start_date', 'end_date'] as const) {
    const v = raw[k];
    if (typeof v !== 'string' || !isIsoDate(v)) throw bad(`${k} must be a date YYYY-MM-DD.`, `Example: ${k}=2020-01-31`);
    dates[k] = v;
  }
  if (dates.start_date > dates.end_date) throw bad('start_date is after end_date.', 'Swap the two dates.');
  let benchmark = DEFAULT_BENCHMARK;
  if (raw.benchmark !== undefined && raw.benchmark !== null && raw.benchmark !== '') {
    if (typeof raw.benchmark !== 'string' || !SYMBOL_RE.test(raw.benchmark.trim())) {
      throw bad('benchmark must be one ticker.', `Default is ${DEFAULT_BENCHMARK}.`);
    }
    benchmark = raw.benchmark.trim();
  }
  let rf = DEFAULT_RISK_FREE_RATE;
  if (raw.risk_free_rate !== undefined && raw.risk_free_rate !== null && raw.risk_free_rate !== '') {
    rf = typeof raw.risk_free_rate === 'number' ? raw.risk_free_rate : Number(raw.risk_free_rate);
    if (typeof raw.risk_free_rate === 'string' && !/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(raw.risk_free_rate.trim())) rf = Number.NaN;
    if (!Number.isFinite(rf) || rf <= -1 || rf >= 1) {
      throw bad('risk_free_rate must be a decimal between -1 and 1.', '0.045 means 4.5 percent a year.');
    }
  }
  let precision: Precision = 'display';
  if (raw.precision !== undefined && raw.precision !== null && raw.precision !== '') {
    if (!(PRECISIONS as readonly unknown[]).includes(raw.precision)) throw bad("precision must be 'display' or 'full'.", 'full skips the 2-decimal rounding.');
    precision = raw.precision as Precision;
  }
  return { symbols, ...dates, benchmark, risk_free_rate: rf, precision };
}
