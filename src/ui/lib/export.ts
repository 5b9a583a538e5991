import { tableToIPC, type Table } from 'apache-arrow';
import type { Row } from '../../core/engine/engine.js';
import { converter } from '../../core/engine/rows.js';
import { initParquet } from './parquet.js';

export type Delimited = 'csv' | 'tsv';

/** RFC 4180 quoting for CSV; TSV replaces tabs and newlines in a value, as TSV has no quoting. */
function cell(v: unknown, kind: Delimited): string {
  if (v == null) return '';
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  if (kind === 'tsv') return s.replace(/[\t\r\n]+/g, ' ');
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function rowsToDelimited(columns: string[], rows: readonly object[], kind: Delimited): string {
  const sep = kind === 'csv' ? ',' : '\t';
  const lines = [columns.map((c) => cell(c, kind)).join(sep)];
  for (const r of rows) lines.push(columns.map((c) => cell((r as Row)[c], kind)).join(sep));
  return `${lines.join('\n')}\n`;
}

const yieldToUi = () => new Promise<void>((r) => setTimeout(r, 0));

/**
 * An Arrow table as delimited text, built in slices of 10,000 rows with a yield between them, so
 * exporting a million rows never freezes the page.
 */
export async function tableToDelimited(table: Table, kind: Delimited): Promise<Blob> {
  const sep = kind === 'csv' ? ',' : '\t';
  const fields = table.schema.fields;
  const convs = fields.map((f) => converter(f));
  const cols = fields.map((_, i) => table.getChildAt(i)!);
  const parts: string[] = [fields.map((f) => cell(f.name, kind)).join(sep) + '\n'];
  let chunk: string[] = [];
  for (let r = 0; r < table.numRows; r++) {
    chunk.push(cols.map((c, i) => cell(convs[i](c.get(r)), kind)).join(sep));
    if (chunk.length === 10_000) {
      parts.push(chunk.join('\n') + '\n');
      chunk = [];
      await yieldToUi();
    }
  }
  if (chunk.length) parts.push(chunk.join('\n') + '\n');
  return new Blob(parts, { type: kind === 'csv' ? 'text/csv' : 'text/tab-separated-values' });
}

export async function tableToParquet(table: Table): Promise<Blob> {
  const pq = await initParquet();
  const props = new pq.WriterPropertiesBuilder().setCompression(pq.Compression.ZSTD).build();
  const bytes = pq.writeParquet(pq.Table.fromIPCStream(tableToIPC(table, 'stream')), props);
  return new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/vnd.apache.parquet' });
}

export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
