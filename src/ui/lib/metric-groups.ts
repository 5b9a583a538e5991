import { METRIC_NAMES, type MetricName } from '../../core/contract/compare.js';

/** quantstats prints its metrics table in blocks separated by blank rows; these are those blocks. */
const GROUP_STARTS: Partial<Record<MetricName, string>> = {
  'Start Period': 'Period',
  'Cumulative Return': 'Returns',
  Sharpe: 'Risk-adjusted returns',
  'Max Drawdown': 'Drawdown',
  'Volatility (ann.)': 'Volatility and distribution',
  'Ulcer Performance Index': 'Return profile',
  'Expected Daily': 'Expectations and tail risk',
  'Max Consecutive Wins': 'Streaks',
  'Gain/Pain Ratio': 'Gain and pain',
  MTD: 'Trailing returns',
  'Best Day': 'Best and worst',
  'Avg. Drawdown': 'Drawdown profile',
  'Avg. Up Month': 'Win rates',
  Beta: 'Versus the benchmark',
};

export const METRIC_GROUPS: { title: string; metrics: MetricName[] }[] = METRIC_NAMES.reduce(
  (groups, m) => {
    if (GROUP_STARTS[m] || groups.length === 0) groups.push({ title: GROUP_STARTS[m] ?? '', metrics: [] });
    groups[groups.length - 1].metrics.push(m);
    return groups;
  },
  [] as { title: string; metrics: MetricName[] }[],
);
