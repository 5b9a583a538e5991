/**
 * File writers shared by every service generator: one DuckDB table (or several) in, the published
 * bulk files out. Three promises hold for every file written here:
 * - streaming: no file is ever held whole in memory (DuckDB COPY to a temp file, then streams);
 * - deterministic: the same rows give byte-identical files (fixed zip times, gzip mtime 0). The one
 *   exception is DuckDB's own file format: DuckDB leaves stale buffer bytes in the unused tail of
 *   blocks (and FSST samples strings), so two builds of the same rows differ. A .duckdb family is
 *   therefore kept by a fingerprint of its content (see `duckdbFingerprint`), not by its bytes;
 *   ETags still stay equal for unchanged data;
 * - atomic: a temp name in the same directory, renamed into place; a final file whose bytes would
 *   not change is left untouched, so its ETag survives a new generation.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { DuckDBConnection } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import { writeZip, type ZipEntry } from './zip.js';

export type FileFormat =
  | 'parquet'
  | 'csv'
  | 'csv.gz'
  | 'csv.zip'
  | 'tsv'
  | 'tsv.gz'
  | 'tsv.zip'
  | 'db.gz'
  | 'db.zip'
  | 'duckdb.gz'
  | 'duckdb.zip'
  | 'json';

export interface WrittenFile {
  format: FileFormat;
  size_bytes: number;
  row_count: number;
}

export type SqliteType = 'REAL' | 'TEXT' | 'INTEGER';

export interface TableFilesOptions {
  /** Source table in `conn`; its last dotted part is the table's name inside .db/.duckdb files. */
  table: string;
  dir: string;
  /** File names are `${baseName}.${format}`; zips hold `${baseName}.${inner}` (+ README.md). */
  baseName: string;
  formats: FileFormat[];
  readme?: string;
  parquet?: { rowGroupSize?: number; compression?: 'zstd' | 'snappy' };
  /** Quote every text column in CSV (header included); numbers stay plain. TSV is never quoted. */
  csvQuoteAll?: boolean;
  /** Column → SQLite type, overriding the mapping from the DuckDB type. */
  sqliteTypes?: Record<string, SqliteType>;
}

export interface DatabaseFilesOptions {
  tables: string[];
  dir: string;
  baseName: string;
  kind: 'sqlite' | 'duckdb';
  formats: FileFormat[];
  readme?: string;
  sqliteTypes?: Record<string, SqliteType>;
}

type Inner = 'parquet' | 'csv' | 'tsv' | 'db' | 'duckdb' | 'json';
type Wrap = 'none' | 'gz' | 'zip';

const GZIP_LEVEL = 6;

export async function writeTableFiles(
  conn: DuckDBConnection,
  opts: TableFilesOptions,
): Promise<Record<string, WrittenFile>> {
  await mkdir(opts.dir, { recursive: true });
  const rowCount = await countRows(conn, opts.table);
  const build = (inner: Inner, target: string): Promise<void> => {
    switch (inner) {
      case 'parquet': {
        const compression = opts.parquet?.compression ?? 'zstd';
        const rg = opts.parquet?.rowGroupSize ? `, ROW_GROUP_SIZE ${Math.trunc(opts.parquet.rowGroupSize)}` : '';
        return copyTo(conn, opts.table, target, `FORMAT parquet, COMPRESSION ${compression}${rg}`);
      }
      case 'csv':
        return writeCsv(conn, opts.table, target, opts.csvQuoteAll === true);
      case 'tsv':
        return writeTsv(conn, opts.table, target);
      case 'json':
        return copyTo(conn, opts.table, target, 'FORMAT json, ARRAY true');
      case 'db':
        return buildSqlite(conn, [opts.table], target, opts.sqliteTypes ?? {});
      case 'duckdb':
        return buildDuckdb(conn, [opts.table], target);
    }
  };
  return writeFamily(conn, [opts.table], opts, rowCount, build);
}

/** The `*_all` bundles: several tables in one SQLite or DuckDB file, then gzip/zip wrapped. */
export async function writeDatabaseFiles(
  conn: DuckDBConnection,
  opts: DatabaseFilesOptions,
): Promise<Record<string, WrittenFile>> {
  const inner: Inner = opts.kind === 'sqlite' ? 'db' : 'duckdb';
  for (const f of opts.formats) {
    if (splitFormat(f).inner !== inner) throw new Error(`format ${f} does not hold a ${opts.kind} database`);
  }
  await mkdir(opts.dir, { recursive: true });
  let rowCount = 0;
  for (const t of opts.tables) rowCount += await countRows(conn, t);
  const build = (_: Inner, target: string): Promise<void> =>
    inner === 'db' ? buildSqlite(conn, opts.tables, target, opts.sqliteTypes ?? {}) : buildDuckdb(conn, opts.tables, target);
  return writeFamily(conn, opts.tables, opts, rowCount, build);
}

/** One definition for every manifest, the publisher's and the local mirror's. */
export { sizeHuman } from '../core/contract/indicators.js';

export function splitFormat(f: FileFormat): { inner: Inner; wrap: Wrap } {
  const [inner, wrap] = f.split('.') as [Inner, 'gz' | 'zip' | undefined];
  return { inner, wrap: wrap ?? 'none' };
}

/**
 * Builds each inner file once (a temp file), derives every requested wrapper from it, then commits.
 * csv.gz and csv.zip thus share one CSV export.
 */
async function writeFamily(
  conn: DuckDBConnection,
  tables: string[],
  opts: { dir: string; baseName: string; formats: FileFormat[]; readme?: string },
  rowCount: number,
  build: (inner: Inner, target: string) => Promise<void>,
): Promise<Record<string, WrittenFile>> {
  const { dir, baseName, readme } = opts;
  const byInner = new Map<Inner, FileFormat[]>();
  for (const f of new Set(opts.formats)) {
    const { inner } = splitFormat(f);
    byInner.set(inner, [...(byInner.get(inner) ?? []), f]);
  }
  const written: Record<string, WrittenFile> = {};
  const finalPath = (f: FileFormat): string => path.join(dir, `${baseName}.${f}`);
  for (const [inner, group] of byInner) {
    const fingerprint = inner === 'duckdb' ? await duckdbFingerprint(conn, tables, dir, readme) : null;
    if (fingerprint !== null && (await allKept(group.map(finalPath), fingerprint))) {
      for (const f of group) written[`${baseName}.${f}`] = { format: f, size_bytes: (await stat(finalPath(f))).size, row_count: rowCount };
      continue;
    }
    const raw = tempName(dir, `${baseName}.${inner}`);
    try {
      await build(inner, raw);
      const innerName = `${baseName}.${inner}`;
      for (const format of group) {
        const { wrap } = splitFormat(format);
        if (wrap === 'none') continue;
        const tmp = tempName(dir, `${baseName}.${format}`);
        try {
          if (wrap === 'gz') await gzipFile(raw, tmp);
          else await zipFile(raw, innerName, readme, tmp);
          written[`${baseName}.${format}`] = await commit(tmp, finalPath(format), format, rowCount, fingerprint);
        } finally {
          await rm(tmp, { force: true });
        }
      }
      // The bare file last: committing it consumes the temp the wrappers were made from.
      const bare = group.find((f) => splitFormat(f).wrap === 'none');
      if (bare) written[`${baseName}.${bare}`] = await commit(raw, finalPath(bare), bare, rowCount, fingerprint);
    } finally {
      await rm(raw, { force: true });
    }
  }
  return written;
}

let tempCounter = 0;
/** Same directory as the final file, so the rename is atomic; a dot name no route ever maps to. */
function tempName(dir: string, name: string): string {
  return path.join(dir, `.${name}.tmp-${process.pid}-${++tempCounter}`);
}

/**
 * Renames `tmp` over `final` unless `final` already holds the same bytes (then its mtime/ETag stay).
 * With a fingerprint, the fingerprint is written beside the file (a dot file no route maps to).
 */
async function commit(
  tmp: string,
  final: string,
  format: FileFormat,
  rowCount: number,
  fingerprint: string | null,
): Promise<WrittenFile> {
  const size = (await stat(tmp)).size;
  const existing = await stat(final).catch(() => null);
  if (existing && existing.size === size && (await sha256(final)) === (await sha256(tmp))) {
    await rm(tmp, { force: true });
  } else {
    await rename(tmp, final);
  }
  if (fingerprint !== null) await writeFile(fingerprintPath(final), fingerprint);
  return { format, size_bytes: size, row_count: rowCount };
}

function fingerprintPath(final: string): string {
  return path.join(path.dirname(final), `.${path.basename(final)}.fingerprint`);
}

async function allKept(finals: string[], fingerprint: string): Promise<boolean> {
  for (const f of finals) {
    const [file, fp] = await Promise.all([stat(f).catch(() => null), readFile(fingerprintPath(f), 'utf8').catch(() => null)]);
    if (!file || fp !== fingerprint) return false;
  }
  return true;
}

/**
 * What a .duckdb file holds, independent of its bytes: the DuckDB version, the README, and each
 * table's name plus its parquet export (whose bytes are deterministic, schema included).
 */
async function duckdbFingerprint(conn: DuckDBConnection, tables: string[], dir: string, readme?: string): Promise<string> {
  const h = createHash('sha256');
  h.update(String((await conn.runAndReadAll('SELECT version()')).getRows()[0][0]));
  h.update(`\0${readme ?? ''}`);
  for (const table of tables) {
    const tmp = tempName(dir, `${baseTableName(table)}.fingerprint.parquet`);
    try {
      await copyTo(conn, table, tmp, 'FORMAT parquet, COMPRESSION zstd');
      h.update(`\0${baseTableName(table)}\0${await sha256(tmp)}`);
    } finally {
      await rm(tmp, { force: true });
    }
  }
  return h.digest('hex');
}

async function sha256(file: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
  return h.digest('hex');
}

async function gzipFile(src: string, dest: string): Promise<void> {
  // Node's gzip header carries mtime 0 and a fixed OS byte, so equal input gives equal bytes.
  await pipeline(createReadStream(src), createGzip({ level: GZIP_LEVEL }), createWriteStream(dest));
}

async function zipFile(src: string, innerName: string, readme: string | undefined, dest: string): Promise<void> {
  const entries: ZipEntry[] = [{ name: innerName, source: { path: src } }];
  if (readme !== undefined) entries.push({ name: 'README.md', source: { bytes: Buffer.from(readme, 'utf8') } });
  await writeZip(dest, entries, GZIP_LEVEL);
}

async function countRows(conn: DuckDBConnection, table: string): Promise<number> {
  const r = await conn.runAndReadAll(`SELECT count(*)::BIGINT FROM ${tableRef(table)}`);
  return Number(r.getRows()[0][0]);
}

async function copyTo(conn: DuckDBConnection, table: string, target: string, options: string): Promise<void> {
  await conn.run(`COPY ${tableRef(table)} TO ${literal(target)} (${options})`);
}

async function writeCsv(conn: DuckDBConnection, table: string, target: string, quoteText: boolean): Promise<void> {
  const text = quoteText ? (await columns(conn, table)).filter((c) => c.type === 'VARCHAR').map((c) => c.name) : [];
  const force = text.length ? `, FORCE_QUOTE (${text.map(ident).join(', ')})` : '';
  await copyTo(conn, table, target, `FORMAT csv, HEADER true${force}`);
}

/** TSV is never quoted (a split on tab is correct), so a tab or newline in a value is refused. */
async function writeTsv(conn: DuckDBConnection, table: string, target: string): Promise<void> {
  const text = (await columns(conn, table)).filter((c) => c.type === 'VARCHAR');
  if (text.length) {
    const bad = text.map((c) => `regexp_matches(${ident(c.name)}, '[\\t\\n\\r]')`).join(' OR ');
    const r = await conn.runAndReadAll(`SELECT count(*)::BIGINT FROM ${tableRef(table)} WHERE ${bad}`);
    const n = Number(r.getRows()[0][0]);
    if (n > 0) throw new Error(`${table}: ${n} rows hold a tab or line break; TSV cannot carry them unquoted`);
  }
  await copyTo(conn, table, target, `FORMAT csv, HEADER true, DELIMITER '\t', QUOTE '', ESCAPE ''`);
}

async function columns(conn: DuckDBConnection, table: string): Promise<{ name: string; type: string }[]> {
  const r = await conn.runAndReadAll(`DESCRIBE ${tableRef(table)}`);
  return r.getRowObjects().map((o) => ({ name: String(o.column_name), type: String(o.column_type) }));
}

function sqliteTypeOf(duckType: string): SqliteType {
  if (/^(BOOLEAN|TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT)$/.test(duckType)) return 'INTEGER';
  if (/^(FLOAT|DOUBLE|REAL)$/.test(duckType) || duckType.startsWith('DECIMAL')) return 'REAL';
  return 'TEXT';
}

const SQLITE_CAST: Record<SqliteType, string> = { INTEGER: 'BIGINT', REAL: 'DOUBLE', TEXT: 'VARCHAR' };

/** Rows are read from DuckDB one chunk (2048 rows) at a time and inserted in one transaction. */
async function buildSqlite(
  conn: DuckDBConnection,
  tables: string[],
  target: string,
  overrides: Record<string, SqliteType>,
): Promise<void> {
  await rm(target, { force: true });
  const db = new Database(target);
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.exec('BEGIN');
    for (const table of tables) {
      const cols = (await columns(conn, table)).map((c) => ({ ...c, sqlite: overrides[c.name] ?? sqliteTypeOf(c.type) }));
      const name = ident(baseTableName(table));
      db.exec(`CREATE TABLE ${name} (${cols.map((c) => `${ident(c.name)} ${c.sqlite}`).join(', ')})`);
      const insert = db.prepare(`INSERT INTO ${name} VALUES (${cols.map(() => '?').join(', ')})`);
      const select = cols.map((c) => `CAST(${ident(c.name)} AS ${SQLITE_CAST[c.sqlite]})`).join(', ');
      const result = await conn.stream(`SELECT ${select} FROM ${tableRef(table)}`);
      const row: unknown[] = new Array(cols.length);
      for await (const chunk of result) {
        // Column-wise conversion is about a third cheaper than getRows() in @duckdb/node-api.
        const values = chunk.getColumns();
        for (let i = 0; i < chunk.rowCount; i++) {
          for (let j = 0; j < values.length; j++) row[j] = values[j][i];
          insert.run(row);
        }
      }
    }
    db.exec('COMMIT');
  } finally {
    db.close();
  }
}

/** A fresh DuckDB file in the default storage version, which DuckDB-WASM 1.32 opens. */
async function buildDuckdb(conn: DuckDBConnection, tables: string[], target: string): Promise<void> {
  await rm(target, { force: true });
  await rm(`${target}.wal`, { force: true });
  const alias = `almanac_out_${process.pid}_${++tempCounter}`;
  await conn.run(`ATTACH ${literal(target)} AS ${ident(alias)}`);
  try {
    for (const table of tables) {
      await conn.run(`CREATE TABLE ${ident(alias)}.${ident(baseTableName(table))} AS SELECT * FROM ${tableRef(table)}`);
    }
  } finally {
    await conn.run(`DETACH ${ident(alias)}`);
  }
}

function baseTableName(table: string): string {
  return table.split('.').pop()!;
}

/** Identifiers here come from generator code, never from input; quoting still keeps odd names whole. */
function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** A table reference, optionally schema-qualified (`gen.stock_prices`). */
function tableRef(table: string): string {
  return table.split('.').map(ident).join('.');
}

function literal(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}
