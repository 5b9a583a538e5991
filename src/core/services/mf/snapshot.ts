import type { Engine } from '../../engine/engine.js';
import { LATEST_COLUMNS } from '../../contract/mf.js';

/** The 22 snapshot columns in the published order (identifiers from the contract, not from input). */
export const SNAPSHOT_SQL = `SELECT ${LATEST_COLUMNS.join(', ')} FROM mf.latest ORDER BY scheme_code`;

export interface Snapshot {
  csv: string;
  /** Strong validator: a hash of the bytes, so the same data gives the same ETag. */
  etag: string;
}

/**
 * `mf_nav_master_latest.csv` rebuilt from the local table: RFC 4180, header row, empty for null;
 * scheme_name always quoted (as in the full-history CSV, spec schema version 3).
 */
export async function latestSnapshotCsv(engine: Engine): Promise<Snapshot> {
  const rows = await engine.all<Record<string, unknown>>(SNAPSHOT_SQL);
  const lines = [LATEST_COLUMNS.join(',')];
  for (const r of rows) lines.push(LATEST_COLUMNS.map((c) => cell(r[c], c === 'scheme_name')).join(','));
  const csv = lines.join('\n') + '\n';
  return { csv, etag: await etagOf(csv) };
}

function cell(v: unknown, quote: boolean): string {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return quote || /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

async function etagOf(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return `"${Array.from(digest.subarray(0, 16), (b) => b.toString(16).padStart(2, '0')).join('')}"`;
}
