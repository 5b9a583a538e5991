import { describe, expect, it } from 'vitest';
import { performancePaths } from '../../../src/ui/lib/performance-paths.js';

describe('performancePaths: cumulative return and drawdown of each symbol on the union of dates', () => {
  const rows = [
    { symbol: 'A', date: '2024-01-01', close: 100 },
    { symbol: 'B', date: '2024-01-01', close: 50 },
    { symbol: 'A', date: '2024-01-02', close: 120 },
    { symbol: 'A', date: '2024-01-03', close: 90 },
    { symbol: 'B', date: '2024-01-03', close: 55 },
    { symbol: 'A', date: '2024-01-04', close: 126 },
  ];
  const p = performancePaths(rows, ['A', 'B'], 'B');

  it('one x per distinct date, midnight UTC in seconds', () => {
    expect(p.x).toEqual(['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-04'].map((d) => Date.parse(`${d}T00:00:00Z`) / 1000));
  });

  it('cumulative return is close over the first close, minus one; a missing day is a gap', () => {
    expect(p.cumulative[0]).toEqual({ label: 'A', values: [0, 0.19999999999999996, -0.09999999999999998, 0.26] });
    expect(p.cumulative[1].label).toBe('B (benchmark)');
    expect(p.cumulative[1].values[1]).toBeNull();
    expect(p.cumulative[1].values[2]).toBeCloseTo(0.1, 12);
  });

  it('drawdown is close over the running peak, minus one: zero at each new high', () => {
    expect(p.drawdown[0].values).toEqual([0, 0, 90 / 120 - 1, 0]);
    expect(p.drawdown[1].values).toEqual([0, null, 0, null]);
  });

  it('a symbol without prices is all gaps', () => {
    expect(performancePaths(rows, ['C'], 'B').cumulative[0].values).toEqual([null, null, null, null]);
  });
});
