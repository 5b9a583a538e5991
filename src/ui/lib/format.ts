/** Display formatting only: values are shown as the core returned them, never re-computed. */
const intFmt = new Intl.NumberFormat('en-US');

export function formatInt(n: number | null | undefined): string {
  return n == null ? '—' : intFmt.format(n);
}

export function formatNumber(v: unknown, maxFractionDigits = 4): string {
  if (v == null) return '';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return String(v);
    return v.toLocaleString('en-US', { maximumFractionDigits: maxFractionDigits });
  }
  if (typeof v === 'bigint') return v.toString();
  return String(v);
}

export function formatBytes(n: number | null | undefined): string {
  if (n == null) return '—';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(i === 0 ? 0 : v < 10 ? 2 : 1)} ${units[i]}`;
}

export function formatRate(bytesPerSecond: number): string {
  return `${formatBytes(bytesPerSecond)}/s`;
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '—';
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds % 60);
  return m < 60 ? `${m} min ${s} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

const navFmt = new Intl.NumberFormat('en-US', { minimumFractionDigits: 4, maximumFractionDigits: 4 });

/** A NAV as AMFI publishes it, to four decimals: 10.0000 and 10.0240, not 10 and 10.024. */
export function formatNav(v: number | null | undefined): string {
  return v == null ? '—' : navFmt.format(v);
}

/** A fraction as a percentage; one that rounds to zero shows no sign ("0.00%", not "-0.00%"). */
export function formatPercent(v: number | null | undefined, digits = 2): string {
  if (v == null) return '—';
  const rounded = Number((v * 100).toFixed(digits));
  return `${(rounded === 0 ? 0 : rounded).toFixed(digits)}%`;
}

/**
 * A chart axis's tick labels with as many decimals as the step between ticks needs, so ticks 0.0005
 * apart read 10.0005, 10.0010 (a liquid fund's NAV), not uPlot's three-decimal 10.001, 10.001.
 */
export function formatTicks(ticks: number[], step: number): string[] {
  // No usable step (a flat series' single tick): the values' own decimals, as formatNumber gives them.
  if (!(step > 0)) return ticks.map((t) => formatNumber(t));
  const digits = [0, 1, 2, 3, 4, 5, 6, 7, 8].find((d) => Math.abs(Math.round(step * 10 ** d) - step * 10 ** d) < 1e-6) ?? 9;
  return ticks.map((t) => t.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }));
}
