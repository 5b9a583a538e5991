/**
 * Bulk files from the local tables. The mirror keeps the data, not the publisher's files, so it
 * builds the text formats (CSV and TSV, zip and gz) from its tables; the binary formats (parquet,
 * SQLite, DuckDB) and the whole-dataset file are the publisher's and are answered with a 404 that
 * says where to get them. Built files are cached per data version.
 */
import { gzipSync, strToU8, zipSync } from 'fflate';
import type { Engine } from '../../engine/engine.js';
import { recordedGeneratedAt } from '../sync-status.js';
import {
  ServiceError,
  INDICATOR_TABLES,
  TABLE_DOWNLOAD_FORMATS,
  TABLE_NAMES,
  sizeHuman,
  type IndicatorsManifest,
  type IndicatorsManifestFile,
  type TableName,
} from '../../contract/indicators.js';

/** The formats this mirror can build, as manifest suffixes. */
export const LOCAL_FORMATS = ['csv.zip', 'csv.gz', 'tsv.zip', 'tsv.gz'] as const;
type LocalFormat = (typeof LOCAL_FORMATS)[number];

export interface BuiltFile {
  name: string;
  bytes: Uint8Array;
  rows: number;
  etag: string;
  contentType: string;
}

/** Changes whenever a sync swaps the data (row counts and last dates move with every generation). */
export const VERSION_SQL = `
SELECT (SELECT count(*) FROM indicators.macro_indicators)::BIGINT AS m,
       (SELECT max(date) FROM indicators.macro_indicators)::VARCHAR AS md,
       (SELECT count(*) FROM indicators.stock_prices)::BIGINT AS s,
       (SELECT max(date) FROM indicators.stock_prices)::VARCHAR AS sd,
       (SELECT count(*) FROM indicators.indicator_config)::BIGINT AS c,
       (SELECT max(last_date) FROM indicators.indicator_config)::VARCHAR AS cd`;

/** Whole-table SELECT in primary-key order; identifiers come only from the contract's INDICATOR_TABLES. */
function tableSql(table: TableName): string {
  const t = INDICATOR_TABLES[table];
  return `SELECT ${t.columns.map((c) => `"${c.name}"`).join(', ')} FROM indicators.${t.name} ORDER BY ${t.primaryKey.map((k) => `"${k}"`).join(', ')}`;
}

const cache = new WeakMap<Engine, { version: string; files: Map<string, BuiltFile> }>();

async function version(engine: Engine): Promise<string> {
  return JSON.stringify(await engine.all(VERSION_SQL));
}

function cell(v: unknown): string {
  return v === null || v === undefined ? '' : String(v);
}

function csvCell(v: unknown): string {
  const s = cell(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** TSV is never quoted: a tab or line break inside a value becomes a space, so a split on tab holds. */
function tsvCell(v: unknown): string {
  return cell(v).replace(/[\t\r\n]/g, ' ');
}

async function sha(bytes: Uint8Array): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes.slice()));
  return `"${Array.from(d.slice(0, 16), (b) => b.toString(16).padStart(2, '0')).join('')}"`;
}

function readme(table: TableName): string {
  const t = INDICATOR_TABLES[table];
  const cols = t.columns.map((c) => `| ${c.name} | ${c.type} | ${c.required ? 'yes' : 'no'} |`).join('\n');
  return `# ${t.name}\n\n${t.description}. Built by the local Almanac mirror from its synced copy.\n\n| column | type | required |\n|---|---|---|\n${cols}\n\nLicence: CC0 1.0. Republished public records; not an authoritative source; provided as is.\n`;
}

async function build(engine: Engine, table: TableName, format: LocalFormat): Promise<BuiltFile> {
  const rows = await engine.all(tableSql(table));
  const cols = INDICATOR_TABLES[table].columns.map((c) => c.name);
  const tsv = format.startsWith('tsv');
  const fmt = tsv ? tsvCell : csvCell;
  const lines = [cols.join(tsv ? '\t' : ','), ...rows.map((r) => cols.map((c) => fmt(r[c])).join(tsv ? '\t' : ','))];
  const text = strToU8(`${lines.join('\n')}\n`);
  const inner = `${table}.${tsv ? 'tsv' : 'csv'}`;
  // Fixed times so the same data gives the same bytes (and the same ETag).
  const bytes = format.endsWith('.gz')
    ? gzipSync(text, { mtime: 0 })
    : zipSync({ [inner]: [text, { mtime: new Date(1980, 0, 1) }], 'README.md': [strToU8(readme(table)), { mtime: new Date(1980, 0, 1) }] });
  return {
    name: `${table}.${format}`,
    bytes,
    rows: rows.length,
    etag: await sha(bytes),
    contentType: format.endsWith('.gz') ? 'application/gzip' : 'application/zip',
  };
}

async function builtFile(engine: Engine, table: TableName, format: LocalFormat): Promise<BuiltFile> {
  const v = await version(engine);
  let entry = cache.get(engine);
  if (!entry || entry.version !== v) {
    entry = { version: v, files: new Map() };
    cache.set(engine, entry);
  }
  const name = `${table}.${format}`;
  let file = entry.files.get(name);
  if (!file) {
    file = await build(engine, table, format);
    entry.files.set(name, file);
  }
  return file;
}

/** GET /v1/downloads/manifest: the files this mirror serves, in the publisher's manifest shape. */
export async function localManifest(engine: Engine): Promise<IndicatorsManifest> {
  const files: Record<string, IndicatorsManifestFile> = {};
  let total = 0;
  for (const table of TABLE_NAMES) {
    for (const format of LOCAL_FORMATS) {
      const f = await builtFile(engine, table, format);
      files[f.name] = { format, size_bytes: f.bytes.length, size_human: sizeHuman(f.bytes.length), row_count: f.rows, table };
    }
    total += files[`${table}.csv.gz`].row_count;
  }
  const g = (await recordedGeneratedAt(engine, 'indicators')).reduce<string | null>((a, b) => (a === null || b > a ? b : a), null);
  // Without a sync record (data attached by hand): the newest market day, at midnight UTC.
  const [{ sd }] = await engine.all<{ sd: string | null }>(VERSION_SQL);
  return { generated_at: g ?? (sd ? `${sd}T00:00:00Z` : ''), total_rows: total, files };
}

/** GET /v1/download/{table_name} and /v1/download/all (params already validated against the contract). */
export async function downloadFile(engine: Engine, table: string, format: string): Promise<BuiltFile> {
  const suffix = table === 'all' ? null : TABLE_DOWNLOAD_FORMATS[format];
  if (suffix === null || !(LOCAL_FORMATS as readonly string[]).includes(suffix ?? '')) {
    throw new ServiceError(404, `${table === 'all' ? 'The whole-dataset file' : `format=${format}`} is a publisher file this local mirror does not build.`, {
      code: 'not_mirrored',
      hint: `This mirror builds csv, csv.gz, tsv and tsv.gz per table (see /v1/downloads/manifest); the whole dataset is queryable locally with /v1/series or SQL.`,
    });
  }
  return builtFile(engine, table as TableName, suffix as LocalFormat);
}
