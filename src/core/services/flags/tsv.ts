import type { ColumnInfo } from '../../contract/flags.js';

/**
 * TSV as the publisher writes it: a header line, one line per row, tab-separated, never quoted (a
 * split on tab is correct), NULL as the empty field, DECIMALs with their scale ("12.30"). A tab or
 * line break inside a value would break the split, so it becomes a space.
 */
export function toTsv(columns: readonly ColumnInfo[], rows: readonly Record<string, unknown>[]): string {
  const fmt = columns.map((c) => formatter(c.type));
  const lines = [columns.map((c) => c.name).join('\t')];
  for (const r of rows) lines.push(columns.map((c, i) => fmt[i](r[c.name])).join('\t'));
  return `${lines.join('\n')}\n`;
}

function formatter(type: string): (v: unknown) => string {
  const scale = /^DECIMAL\(\d+,(\d+)\)$/.exec(type)?.[1];
  return (v) => {
    if (v === null || v === undefined) return '';
    if (scale !== undefined && typeof v === 'number') return v.toFixed(Number(scale));
    return String(v).replace(/[\t\r\n]+/g, ' ');
  };
}
