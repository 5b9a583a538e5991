import { METRIC_NAMES, type MetricName } from '../../core/contract/compare.js';

/**
 * quantstats' `reports.metrics` prints its table in blocks separated by blank rows (its `~` rows);
 * these are those blocks, each starting at the metric named here. The titles are ours.
 */
const GROUP_STARTS: Partial<Record<MetricName, string>> = {
  'Start Period': 'Period',
  'Cumulative Return': 'Returns',
  Sharpe: 'Risk-adjusted ratios',
  'Max Drawdown': 'Drawdown, volatility and shape',
  'Avg. Return': 'Average days',
  'Expected Daily': 'Expectations and tail risk',
  'Max Consecutive Wins': 'Streaks and gain to pain',
  'Payoff Ratio': 'Wins against losses',
  MTD: 'Trailing returns',
  'Best Day': 'Best and worst',
  'Avg. Drawdown': 'Drawdown profile',
  'Avg. Up Month': 'Win rates',
  Beta: 'Against the benchmark',
};

export const METRIC_GROUPS: { title: string; metrics: MetricName[] }[] = METRIC_NAMES.reduce(
  (groups, m) => {
    if (GROUP_STARTS[m] || groups.length === 0) groups.push({ title: GROUP_STARTS[m] ?? '', metrics: [] });
    groups[groups.length - 1].metrics.push(m);
    return groups;
  },
  [] as { title: string; metrics: MetricName[] }[],
);
