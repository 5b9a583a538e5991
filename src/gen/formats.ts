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
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import type { GenState } from './timeline.js';
import { wrapFile } from './zip.js';

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
  /** `kvMetadata` goes into the footer: a rebuild changes the bytes and nothing a reader decodes. */
  parquet?: { rowGroupSize?: number; compression?: 'zstd' | 'snappy'; kvMetadata?: Record<string, string> };
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
        const kv = Object.entries(opts.parquet?.kvMetadata ?? {});
        const meta = kv.length ? `, KV_METADATA {${kv.map(([k, v]) => `${ident(k)}: ${literal(v)}`).join(', ')}}` : '';
        return writeParquet(conn, opts.table, target, `COMPRESSION ${compression}${rg}${meta}`);
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
 * Builds each inner file once (a temp file) and derives its gzip and zip from one deflate pass
 * (`wrapFile`). The deflate of one inner file runs on node:zlib's threads while the next inner file
 * is built, so the CSV, TSV and SQLite bodies of a family overlap; everything commits at the end.
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
  const finalPath = (f: FileFormat): string => path.join(dir, `${baseName}.${f}`);
  const kept: Record<string, WrittenFile> = {};
  const pending: { group: FileFormat[]; raw: string; temps: Map<FileFormat, string>; fingerprint: string | null; wrapped: Promise<void> }[] = [];
  try {
    for (const [inner, group] of byInner) {
      const fingerprint = inner === 'duckdb' ? await duckdbFingerprint(conn, tables, dir, readme) : null;
      if (fingerprint !== null && (await allKept(group.map(finalPath), fingerprint))) {
        for (const f of group) kept[`${baseName}.${f}`] = { format: f, size_bytes: (await stat(finalPath(f))).size, row_count: rowCount };
        continue;
      }
      const raw = tempName(dir, `${baseName}.${inner}`);
      const temps = new Map<FileFormat, string>();
      const entry = { group, raw, temps, fingerprint, wrapped: Promise.resolve() };
      pending.push(entry);
      await build(inner, raw);
      const gz = group.find((f) => splitFormat(f).wrap === 'gz');
      const zip = group.find((f) => splitFormat(f).wrap === 'zip');
      if (gz) temps.set(gz, tempName(dir, `${baseName}.${gz}`));
      if (zip) temps.set(zip, tempName(dir, `${baseName}.${zip}`));
      if (!gz && !zip) continue;
      const extra = readme === undefined ? [] : [{ name: 'README.md', bytes: Buffer.from(readme, 'utf8') }];
      entry.wrapped = wrapFile(raw, {
        gz: gz && temps.get(gz),
        zip: zip && { dest: temps.get(zip)!, name: `${baseName}.${inner}`, extra },
      }, GZIP_LEVEL);
      // Awaited below; until then a failure must not surface as an unhandled rejection.
      entry.wrapped.catch(() => undefined);
    }
    const written: Record<string, WrittenFile> = {};
    for (const { group, raw, temps, fingerprint, wrapped } of pending) {
      await wrapped;
      for (const f of group) {
        const tmp = temps.get(f);
        if (tmp) written[`${baseName}.${f}`] = await commit(tmp, finalPath(f), f, rowCount, fingerprint);
      }
      // The bare file last: committing it consumes the temp the wrappers were made from.
      const bare = group.find((f) => splitFormat(f).wrap === 'none');
      if (bare) written[`${baseName}.${bare}`] = await commit(raw, finalPath(bare), bare, rowCount, fingerprint);
    }
    // Manifests list files in this order: per inner file, its wrappers as asked, then the bare file.
    const ordered: Record<string, WrittenFile> = {};
    for (const group of byInner.values()) {
      for (const f of [...group.filter((g) => splitFormat(g).wrap !== 'none'), ...group.filter((g) => splitFormat(g).wrap === 'none')]) {
        const name = `${baseName}.${f}`;
        ordered[name] = kept[name] ?? written[name];
      }
    }
    return ordered;
  } finally {
    await Promise.allSettled(pending.map((p) => p.wrapped));
    await Promise.all(pending.flatMap((p) => [p.raw, ...p.temps.values()]).map((f) => rm(f, { force: true })));
  }
}

/**
 * A generation's manifest.json and state.json (what made the files and how the next generation steps
 * on, src/gen/timeline.ts), each replaced only when its text changes, so an unchanged manifest keeps
 * its ETag.
 */
export async function writeManifest(dir: string, manifest: unknown, state: GenState): Promise<void> {
  await writeTextIfChanged(path.join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await writeTextIfChanged(path.join(dir, 'state.json'), `${JSON.stringify(state, null, 2)}\n`);
}

/** Temp name then rename, and only when the text differs, like every other published file. */
async function writeTextIfChanged(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  if ((await readFile(file, 'utf8').catch(() => null)) === text) return;
  const tmp = tempName(path.dirname(file), path.basename(file));
  await writeFile(tmp, text);
  await rename(tmp, file);
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
      await writeParquet(conn, table, tmp, 'COMPRESSION zstd');
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

async function countRows(conn: DuckDBConnection, table: string): Promise<number> {
  const r = await conn.runAndReadAll(`SELECT count(*)::BIGINT FROM ${tableRef(table)}`);
  return Number(r.getRows()[0][0]);
}

async function copyTo(conn: DuckDBConnection, table: string, target: string, options: string): Promise<void> {
  await conn.run(`COPY ${tableRef(table)} TO ${literal(target)} (${options})`);
}

/**
 * On one thread: DuckDB's parallel parquet writer cuts row groups where its threads' batches happen
 * to meet, so the full MF history (38M rows) came out with different row groups, and bytes, from run
 * to run. One thread cuts them the same way every time, and was no slower there (7.5 s, 7.1 s CPU).
 */
async function writeParquet(conn: DuckDBConnection, table: string, target: string, options: string): Promise<void> {
  const threads = Number((await conn.runAndReadAll(`SELECT current_setting('threads')`)).getRows()[0][0]);
  await conn.run('SET threads = 1');
  try {
    await copyTo(conn, table, target, `FORMAT parquet, ${options}`);
  } finally {
    await conn.run(`SET threads = ${threads}`);
  }
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
    // contains() rather than a regex: this scans every text value of the full MF history.
    const bad = text.map((c) => ['chr(9)', 'chr(10)', 'chr(13)'].map((ch) => `contains(${ident(c.name)}, ${ch})`).join(' OR ')).join(' OR ');
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

/** Rows per INSERT statement: one call binds many rows, which is the cost that dominates per row. */
const SQLITE_ROWS_PER_INSERT = 100;

/**
 * Rows are read from DuckDB one chunk (2048 rows) at a time and inserted in one transaction, many
 * rows per statement; the file is the same as with one row per statement (same rows, same order).
 */
async function buildSqlite(
  conn: DuckDBConnection,
  tables: string[],
  target: string,
  overrides: Record<string, SqliteType>,
): Promise<void> {
  await rm(target, { force: true });
  const db = new Database(target);
  const types: string[] = [];
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.exec('BEGIN');
    for (const table of tables) {
      const cols = (await columns(conn, table)).map((c) => ({ ...c, sqlite: overrides[c.name] ?? sqliteTypeOf(c.type) }));
      const name = ident(baseTableName(table));
      // eslint-disable-next-line sql/no-interpolated-sql -- the generator's own tables: names quoted, types from DuckDB's catalog or the overrides above
      db.exec(`CREATE TABLE ${name} (${cols.map((c) => `${ident(c.name)} ${c.sqlite}`).join(', ')})`);
      const tuple = `(${cols.map(() => '?').join(', ')})`;
      const insertOne = db.prepare(`INSERT INTO ${name} VALUES ${tuple}`);
      const insertMany = db.prepare(`INSERT INTO ${name} VALUES ${new Array(SQLITE_ROWS_PER_INSERT).fill(tuple).join(', ')}`);
      const transfers = await sqliteTransfers(conn, table, cols, types);
      const result = await conn.stream(`SELECT ${transfers.map((t) => t.expr).join(', ')} FROM ${tableRef(table)}`);
      const batch: unknown[] = new Array(SQLITE_ROWS_PER_INSERT * cols.length);
      let k = 0;
      for await (const chunk of result) {
        // Column-wise conversion is about a third cheaper than getRows() in @duckdb/node-api.
        const values = chunk.getColumns().map((v, j) => {
          const dict = transfers[j].dict;
          return dict ? v.map((code) => (code === null ? null : dict[code as number])) : v;
        });
        const n = chunk.rowCount;
        for (let i = 0; i < n; i++) {
          for (let j = 0; j < values.length; j++) batch[k++] = values[j][i];
          if (k === batch.length) {
            insertMany.run(batch);
            k = 0;
          }
        }
      }
      for (let i = 0; i < k; i += cols.length) insertOne.run(batch.slice(i, i + cols.length));
    }
    db.exec('COMMIT');
  } finally {
    db.close();
    for (const t of types) await conn.run(`DROP TYPE IF EXISTS ${ident(t)}`);
  }
}

/**
 * How each column leaves DuckDB for SQLite. A text column whose values repeat (the MF history: ~37k
 * scheme names and ~7k dates over ~38M rows) leaves as an enum code and is looked up in its
 * dictionary, so each distinct string becomes a JavaScript string once: that conversion, not SQLite,
 * was the largest cost of the build. Enum types created here are listed in `types` for dropping.
 */
async function sqliteTransfers(
  conn: DuckDBConnection,
  table: string,
  cols: { name: string; sqlite: SqliteType }[],
  types: string[],
): Promise<{ expr: string; dict: string[] | null }[]> {
  const cast = (c: { name: string; sqlite: SqliteType }): string => `CAST(${ident(c.name)} AS ${SQLITE_CAST[c.sqlite]})`;
  const text = cols.filter((c) => c.sqlite === 'TEXT');
  const repeats = new Set<string>();
  if (text.length) {
    const counts = (await conn.runAndReadAll(`SELECT count(*)::BIGINT, ${text.map((c) => `count(DISTINCT ${cast(c)})::BIGINT`).join(', ')} FROM ${tableRef(table)}`)).getRows()[0].map(Number);
    text.forEach((c, i) => {
      if (counts[i + 1] > 0 && counts[i + 1] * 4 <= counts[0]) repeats.add(c.name);
    });
  }
  const out: { expr: string; dict: string[] | null }[] = [];
  for (const c of cols) {
    if (!repeats.has(c.name)) {
      out.push({ expr: cast(c), dict: null });
      continue;
    }
    const type = `almanac_dict_${process.pid}_${++tempCounter}`;
    await conn.run(`CREATE TYPE ${ident(type)} AS ENUM (SELECT DISTINCT ${cast(c)} AS v FROM ${tableRef(table)} WHERE ${ident(c.name)} IS NOT NULL ORDER BY v)`);
    types.push(type);
    const dict = (await conn.runAndReadAll(`SELECT unnest(enum_range(NULL::${ident(type)}))::VARCHAR`)).getColumns()[0] as string[];
    out.push({ expr: `enum_code(CAST(${cast(c)} AS ${ident(type)}))`, dict });
  }
  return out;
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
