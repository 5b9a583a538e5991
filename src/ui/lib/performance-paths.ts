/**
 * The two charts of a comparison, from its prices: cumulative return (close over the first close,
 * minus one) and drawdown (close over the running peak, minus one), one series per symbol on the
 * union of their dates; a day a symbol has no price is a gap (null).
 */
export interface PathSeries {
  label: string;
  values: (number | null)[];
}

export interface PerformancePaths {
  /** Unix seconds of each date, midnight UTC. */
  x: number[];
  cumulative: PathSeries[];
  drawdown: PathSeries[];
}

export function performancePaths(rows: readonly { symbol: string; date: string; close: number }[], symbols: readonly string[], benchmark: string): PerformancePaths {
  const dates = [...new Set(rows.map((r) => r.date))].sort();
  const at = new Map(dates.map((d, i) => [d, i]));
  const cumulative: PathSeries[] = [];
  const drawdown: PathSeries[] = [];
  for (const s of symbols) {
    const cum: (number | null)[] = new Array(dates.length).fill(null);
    const dd: (number | null)[] = new Array(dates.length).fill(null);
    let first: number | null = null;
    let peak = -Infinity;
    for (const r of rows) {
      if (r.symbol !== s) continue;
      first ??= r.close;
      peak = Math.max(peak, r.close);
      cum[at.get(r.date)!] = r.close / first - 1;
      dd[at.get(r.date)!] = r.close / peak - 1;
    }
    const label = s === benchmark ? `${s} (benchmark)` : s;
    cumulative.push({ label, values: cum });
    drawdown.push({ label, values: dd });
  }
  return { x: dates.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000), cumulative, drawdown };
}
