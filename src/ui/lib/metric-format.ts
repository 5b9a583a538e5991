import type { MetricName, MetricValue } from '../../core/contract/compare.js';

/**
 * The metrics quantstats prints as percentages (its `%` columns): their values are fractions, shown
 * here ×100 with a % sign, as quantstats' own table shows them. The core's values are untouched.
 */
const PERCENT = new Set<MetricName>([
  'Time in Market', 'Cumulative Return', 'CAGR﹪', 'Prob. Sharpe Ratio', 'Max Drawdown', 'Volatility (ann.)',
  'Risk-Adjusted Return', 'Avg. Return', 'Avg. Win', 'Avg. Loss', 'Expected Daily', 'Expected Monthly',
  'Expected Yearly', 'Kelly Criterion', 'Risk of Ruin', 'Daily Value-at-Risk', 'Expected Shortfall (cVaR)',
  'MTD', '3M', '6M', 'YTD', '1Y', '3Y (ann.)', '5Y (ann.)', '10Y (ann.)', 'All-time (ann.)', 'Best Day',
  'Worst Day', 'Best Month', 'Worst Month', 'Best Year', 'Worst Year', 'Avg. Drawdown', 'Avg. Up Month',
  'Avg. Down Month', 'Win Days', 'Win Month', 'Win Quarter', 'Win Year',
]);
const COUNTS = new Set<MetricName>(['Longest DD Days', 'Avg. Drawdown Days', 'Max Consecutive Wins', 'Max Consecutive Losses']);

const fixed2 = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const count = new Intl.NumberFormat('en-US');

/** One cell of the metrics table; strings (dates, quantstats' own '0.99' and '0.94%', '-') as they are. */
export function formatMetric(name: MetricName, v: MetricValue | undefined): string {
  if (v === undefined) return '';
  if (typeof v === 'string') return v;
  if (name === 'Risk-Free Rate') return `${v}%`; // quantstats already multiplied it by 100
  if (PERCENT.has(name)) return `${fixed2.format(v * 100)}%`;
  if (COUNTS.has(name)) return count.format(v);
  return fixed2.format(v);
}

/** A metric's row label: quantstats' name, but 'CAGR﹪' (a small percent sign few fonts have) as 'CAGR'. */
export function metricLabel(name: MetricName): string {
  return name === 'CAGR﹪' ? 'CAGR' : name;
}
