import type { Engine } from '../../engine/engine.js';
import {
  CompareError,
  type AllMetrics,
  type CompareParams,
  type CompareResponse,
  type MetricName,
  type MetricValue,
  type SymbolEntry,
} from '../../contract/compare.js';
import { availableBenchmarks, type PriceSource } from './prices.js';
import { computeMetricRows, type MetricsRow } from './metrics-sql.js';
import { cleanNumber, cleanString, numpyRound2, pyFormatComma2, pyRound2, pyStr } from './format.js';

/**
 * GET /v1/compare, the MCP tool and the CLI: one call of quantstats' `reports.metrics(mode="full")`
 * per symbol against the benchmark, reproduced from DuckDB aggregates (metrics-sql.ts). This module
 * only combines the aggregates the way quantstats' formulas do and applies its formatting.
 */
export async function compare(engine: Engine, params: CompareParams, source: PriceSource): Promise<CompareResponse> {
  const { benchmarkKnown, rows } = await computeMetricRows(engine, source, params);
  if (!benchmarkKnown) {
    const available = await availableBenchmarks(engine, source);
    throw new CompareError(
      404,
      'benchmark_not_found',
      `Benchmark '${params.benchmark}' is not held locally.`,
      available.length
        ? `Pass one of the available benchmarks as benchmark=..., or import its prices (npm run cli -- import-prices).`
        : 'No market or imported prices are held locally yet: sync the indicators data or import prices first.',
      available,
    );
  }
  const symbols = params.symbols.map((symbol) => entry(symbol, rows.get(symbol)!, params));
  return {
    success: symbols.some((s) => s.success),
    benchmark: params.benchmark,
    start_date: params.start_date,
    end_date: params.end_date,
    risk_free_rate: params.risk_free_rate,
    symbols,
  };
}

function fail(symbol: string, row: MetricsRow, error: string): SymbolEntry {
  return { symbol, success: false, trading_days: row.trading_days, error, all_metrics: {} };
}

function entry(symbol: string, row: MetricsRow, p: CompareParams): SymbolEntry {
  const window = `between ${p.start_date} and ${p.end_date}`;
  if (!row.known) return fail(symbol, row, `Unknown symbol '${symbol}': no market, mutual-fund or imported prices are held locally under that name.`);
  if (row.trading_days === 0) return fail(symbol, row, `No prices for '${symbol}' ${window}.`);
  if (row.trading_days === 1) return fail(symbol, row, `Only one price for '${symbol}' ${window}; returns need at least two.`);
  const n = row.n as number | null;
  if (n === null || n < 2) {
    return fail(symbol, row, `Fewer than two returns of '${symbol}' overlap the benchmark '${p.benchmark}' ${window}.`);
  }
  if (row.rmin === row.rmax) {
    // quantstats raises here (scipy's linregress); the service reports it in the entry.
    return fail(symbol, row, `Cannot calculate a linear regression if all x values are identical: every daily return of '${symbol}' ${window} is ${pyStr(row.rmin as number)} (a frozen price?).`);
  }
  return { symbol, success: true, trading_days: row.trading_days, error: null, all_metrics: metrics(row, p) };
}

const num = (v: unknown): number => (v === null || v === undefined ? Number.NaN : (v as number));
const div = (a: number, b: number): number => (b === 0 ? Number.NaN : a / b);
const SQRT252 = Math.sqrt(252);

/** quantstats' cagr(): |total + 1| ** (1 / (count / 252)) - 1, rf ignored. */
function cagr(prod: number, count: number): number {
  return Math.abs(prod - 1 + 1) ** (1 / (count / 252)) - 1;
}

/** quantstats' _autocorr_penalty: sqrt(1 + 2 Σ_{k=1}^{n-1} (n-k)/n · coef^k), coef the lag-1 autocorrelation. */
function autocorrPenalty(coef: number, n: number): number {
  let sum = 0;
  for (let k = 1; k < n; k++) sum += ((n - k) / n) * coef ** k;
  return Math.sqrt(1 + 2 * (Number.isNaN(sum) ? 0 : sum));
}

/** Python round-half-even of a float mean, as numpy's round does. */
function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

function metrics(row: MetricsRow, p: CompareParams): AllMetrics {
  const g = (k: string) => num(row[k]);
  const n = g('n');
  const rf = p.risk_free_rate;
  const stdR = Math.sqrt(g('m2') / (n - 1));
  const stdE = Math.sqrt(g('ve') / (n - 1));
  const penalty = autocorrPenalty(g('coef'), n);
  const comp = g('prod_r') - 1;
  const cagrAll = cagr(g('prod_r'), n);
  const nz = g('npos') + g('nneg');
  const exposure = Math.ceil((nz / n) * 100) / 100;
  const downside = Math.sqrt(g('e_down') / n);
  const sortino = (div(g('me'), downside) * SQRT252);
  const smartSortino = div(g('me'), downside * penalty) * SQRT252;
  const winRate = nz === 0 ? 0 : g('npos') / nz;
  const avgWin = g('avg_win');
  const avgLoss = g('avg_loss');
  const payoff = avgLoss === 0 || Number.isNaN(avgLoss) ? Number.NaN : avgWin / Math.abs(avgLoss);
  const winsSum = g('sum_win0');
  const lossesSum = Math.abs(g('sum_neg'));
  // the DataFrame branch of profit_factor turns x/0 = inf into 0, leaves 0/0 NaN
  const profitFactor = lossesSum === 0 ? (winsSum === 0 ? Number.NaN : 0) : winsSum / lossesSum;
  const q05 = g('q05');
  const tail = q05 === 0 || Number.isNaN(q05) ? Number.NaN : Math.abs(g('q95') / q05);
  const maxddAll = g('maxdd_all');
  const ulcer = Math.sqrt(g('dd_sq') / (n - 1));
  const varR = g('var_r');
  const cvarR = Number.isNaN(g('cvar_r')) ? varR : g('cvar_r');
  const ddSd = g('dd_sd');
  const ddCvar = ddSd > 0 ? (Number.isNaN(g('dd_cvar')) ? g('dd_var') : g('dd_cvar')) : Number.NaN;
  const pitfall = div(-ddCvar, stdR);
  const serenity = div(g('sum_r') - rf, ulcer * pitfall);
  const vb = g('vb');
  const betaRaw = vb === 0 ? Number.NaN : g('cxy') / (n - 1) / (vb / (n - 1));
  const alphaRaw = (g('mr') - betaRaw * g('mb')) * 252;
  const beta = Number.isNaN(betaRaw) ? 0 : betaRaw;
  const alpha = Number.isNaN(alphaRaw) ? 0 : alphaRaw;
  const corr = g('cxy') / (n - 1) / Math.sqrt(vb / (n - 1)) / Math.sqrt(g('m2') / (n - 1));
  const rDen = Math.sqrt((g('m2') / n) * (vb / n));
  const rVal = rDen === 0 ? 0 : Math.min(1, Math.max(-1, g('cxy') / n / rDen));
  const treynor = beta === 0 ? 0 : (comp - rf) / beta;
  const stdDiff = Math.sqrt(g('vdf') / (n - 1));
  // profit_ratio: the mean of the non-negative days and of the negative days, each over its count again
  const wc = n - g('nneg');
  const lc = g('nneg');
  const avgNeg = lc === 0 ? Number.NaN : g('sum_neg') / lc;
  const avgWin0 = wc === 0 ? Number.NaN : winsSum / wc;
  const lossRatio = lc === 0 ? Number.NaN : Math.abs(avgNeg / lc);
  const profitRatio = wc === 0 ? 0 : lc === 0 || lossRatio === 0 ? Number.NaN : Math.abs(avgWin0 / wc) / lossRatio;
  const ePos = Number.isNaN(g('e_pos')) ? 0 : g('e_pos');
  const eNeg = -1 * (Number.isNaN(g('e_neg')) ? 0 : g('e_neg'));
  const cumStr = pyFormatComma2(comp * 1);
  const benchCumStr = pyFormatComma2(g('prod_b') - 1);
  const cumulative: MetricValue = cumStr.includes(',') || benchCumStr.includes(',') ? cumStr : Number(cumStr);

  const out: Array<[MetricName, number | string]> = [
    ['Start Period', row.start_period as string],
    ['End Period', row.end_period as string],
    ['Risk-Free Rate', rf * 100],
    ['Time in Market', exposure],
    ['Cumulative Return', cumulative],
    ['CAGR﹪', cagrAll],
    ['Sharpe', (g('me') / stdE) * SQRT252],
    ['Prob. Sharpe Ratio', g('psr')],
    ['Smart Sharpe', (g('me') / (stdE * penalty)) * SQRT252],
    ['Sortino', sortino],
    ['Smart Sortino', smartSortino],
    ['Sortino/√2', sortino / Math.SQRT2],
    ['Smart Sortino/√2', smartSortino / Math.SQRT2],
    ['Omega', n < 2 || !(eNeg > 0) ? Number.NaN : ePos / eNeg],
    ...drawdownHead(row),
    ['Volatility (ann.)', stdR * SQRT252],
    ['R^2', rVal ** 2],
    ['Information Ratio', stdDiff !== 0 ? g('mdf') / stdDiff : 0],
    ['Calmar', div(cagr(g('prod_r'), n), Math.abs(maxddAll))],
    ['Skew', g('skew')],
    ['Kurtosis', g('kurt')],
    ['Ulcer Performance Index', div(comp - rf, ulcer)],
    // rar() gets the raw returns back from quantstats' preparation cache: rf never applies
    ['Risk-Adjusted Return', cagrAll / exposure],
    ['Risk-Return Ratio', div(g('mr'), stdR)],
    ['Avg. Return', g('avg_ret')],
    ['Avg. Win', avgWin],
    ['Avg. Loss', avgLoss],
    ['Win/Loss Ratio', payoff],
    ['Profit Ratio', profitRatio],
    ['Expected Daily', g('prod_r') ** (1 / n) - 1],
    ['Expected Monthly', g('pm') ** (1 / g('nm')) - 1],
    ['Expected Yearly', g('py') ** (1 / g('ny')) - 1],
    ['Kelly Criterion', payoff === 0 || Number.isNaN(payoff) ? Number.NaN : (payoff * winRate - (1 - winRate)) / payoff],
    ['Risk of Ruin', ((1 - winRate) / (1 + winRate)) ** n],
    ['Daily Value-at-Risk', -Math.abs(varR * 1)],
    ['Expected Shortfall (cVaR)', -Math.abs(cvarR * 1)],
    ['Max Consecutive Wins', g('max_wins')],
    ['Max Consecutive Losses', g('max_losses')],
    ['Gain/Pain Ratio', div(g('sum_r'), Math.abs(g('sum_neg')))],
    ['Gain/Pain (1M)', div(g('gpm_sum'), Math.abs(g('gpm_neg')))],
    ['Payoff Ratio', payoff],
    ['Profit Factor', profitFactor],
    ['Common Sense Ratio', profitFactor * tail],
    ['CPC Index', profitFactor * winRate * payoff],
    ['Tail Ratio', tail],
    ['Outlier Win Ratio', div(g('q99'), avgWin0)],
    ['Outlier Loss Ratio', div(g('q01'), avgNeg)],
    ['MTD', g('p_mtd') - 1],
    ['3M', g('p_3m') - 1],
    ['6M', g('p_6m') - 1],
    ['YTD', g('p_ytd') - 1],
    ['1Y', g('p_1y') - 1],
    ['3Y (ann.)', cagr(g('p_3y'), g('n_3y'))],
    ['5Y (ann.)', cagr(g('p_5y'), g('n_5y'))],
    ['10Y (ann.)', cagr(g('p_10y'), g('n_10y'))],
    ['All-time (ann.)', cagrAll],
    ['Best Day', g('rmax')],
    ['Worst Day', g('rmin')],
    ['Best Month', g('best_m')],
    ['Worst Month', g('worst_m')],
    ['Best Year', g('best_y')],
    ['Worst Year', g('worst_y')],
    ...drawdownTail(row),
    ['Recovery Factor', div(Math.abs(g('sum_r') - 0), Math.abs(maxddAll))],
    ['Ulcer Index', ulcer],
    ['Serenity Index', serenity],
    ['Avg. Up Month', g('up_m')],
    ['Avg. Down Month', g('down_m')],
    ['Win Days', winRate],
    ['Win Month', g('m_nz') === 0 ? 0 : g('m_pos') / g('m_nz')],
    ['Win Quarter', g('q_nz') === 0 ? 0 : g('q_pos') / g('q_nz')],
    ['Win Year', g('y_nz') === 0 ? 0 : g('y_pos') / g('y_nz')],
    ['Beta', pyStr(pyRound2(beta))],
    ['Alpha', pyStr(pyRound2(alpha))],
    ['Correlation', `${pyStr(pyRound2(corr * 1))}%`],
    ['Treynor Ratio', treynor === 0 && beta === 0 ? '0%' : `${pyStr(pyRound2(treynor * 1))}%`],
  ];
  const emptyDrawdowns = num(row.n_periods) === 0 && !row.bench_has_dd;
  if (emptyDrawdowns) out.push(['Avg. Drawdown Days', '-']);
  const display = p.precision === 'display';
  const result: AllMetrics = {};
  for (const [k, v] of out) {
    if (typeof v === 'string') result[k] = cleanString(v);
    else result[k] = cleanNumber(display ? numpyRound2(v) : v);
  }
  return result;
}

/** Max Drawdown .. Longest DD Days, from quantstats' drawdown_details table. */
function drawdownHead(row: MetricsRow): Array<[MetricName, number | string]> {
  const names: MetricName[] = ['Max Drawdown', 'Max DD Date', 'Max DD Period Start', 'Max DD Period End', 'Longest DD Days'];
  if (num(row.n_periods) === 0) {
    // no drawdown period: NaN rows ('-') when the benchmark had one, blank cells when neither had
    return names.map((k) => [k, row.bench_has_dd || k === 'Longest DD Days' ? '-' : '']);
  }
  return [
    ['Max Drawdown', num(row.max_dd)],
    ['Max DD Date', row.max_dd_date as string],
    ['Max DD Period Start', row.max_dd_start as string],
    ['Max DD Period End', row.max_dd_end as string],
    // the day counts become integers only if the benchmark column converts too
    ['Longest DD Days', row.bench_has_dd ? num(row.longest) : '-'],
  ];
}

function drawdownTail(row: MetricsRow): Array<[MetricName, number | string]> {
  if (num(row.n_periods) === 0) return row.bench_has_dd ? [['Avg. Drawdown', '-'], ['Avg. Drawdown Days', '-']] : [];
  return [
    ['Avg. Drawdown', num(row.avg_dd)],
    ['Avg. Drawdown Days', row.bench_has_dd ? roundHalfEven(num(row.avg_days)) : '-'],
  ];
}
