import type { Engine } from '../engine/engine.js';
import type { Storage } from '../storage/storage.js';
import { contractOf, tableOfStem, type ServiceDef } from './datasets.js';
import { sqlString, type DatabaseHost } from './host.js';
import { isTableIdent, quoteIdent } from './names.js';
import { unpack } from './unpack.js';
import { conversion } from './conversion.js';
import { asRefusal, checkedCast, SchemaRefused, type SchemaChange } from './drift.js';

export interface IngestSource {
  /** Manifest file name (for messages). */
  file: string;
  suffix: string;
  /** Store file holding the downloaded bytes. */
  store: string;
  /** Tables the file fills; null: every table inside (a whole-dataset file). */
  tables: string[] | null;
  /** Rows the manifest announces (single-table files only). */
  rows: number | null;
}

export interface Column {
  name: string;
  type: string;
}

export interface TableLoad {
  table: string;
  file: string;
  rows: number;
  columns: Column[];
  /** How the file's columns differed from the contract (accepted schema drift). */
  changes: SchemaChange[];
}

export interface IngestContext {
  engine: Engine;
  host: DatabaseHost;
  storage: Storage;
  def: ServiceDef;
  /** Store name prefix for temporary unpacked files. */
  scratchPrefix: string;
  maxUnpackedBytes?: number;
  /**
   * Called after each batch a table's load moves across (a parquet row group), with the rows loaded so
   * far: progress for a table that takes a minute, and a point where a cancel or a crash can stop it.
   */
  onBatch?: (p: { table: string; file: string; rows: number; total: number | null }) => Promise<void>;
}

const STAGE = '_almanac_stage';

export function isWholeDatabase(suffix: string): boolean {
  return suffix === 'duckdb.gz' || suffix === 'duckdb.zip';
}

/**
 * Loads one downloaded file into the generation being built (the engine's main database). Each
 * table is loaded in its own transaction; a failure rolls it back and names the file.
 */
export async function ingestSource(ctx: IngestContext, src: IngestSource, extracted?: Extracted): Promise<TableLoad[]> {
  const { suffix } = src;
  if (extracted) return loadExtracted(ctx, src, extracted);
  if (suffix === 'parquet') return [await loadParquet(ctx, src)];
  if (/^(csv|tsv)$/.test(suffix)) return [await loadCsv(ctx, src, ctx.host.sqlPath(ctx.engine, src.store))];
  const packed = /^(csv|tsv)\.(gz|zip)$/.exec(suffix);
  if (packed) {
    // Unpacked through the capped path, .gz too: read_csv would inflate a gzip bomb without a limit.
    // A name of its own per source: DuckDB-WASM keeps a handle per path, so a second file unpacked to
    // the same name would be read as the first one's (removed) bytes.
    const tmp = `${ctx.scratchPrefix}${src.store.replace(/\.(gz|zip)$/, '')}`;
    try {
      await unpack(ctx.storage, src.store, tmp, { kind: packed[2] as 'gz' | 'zip', want: `.${packed[1]}`, maxBytes: ctx.maxUnpackedBytes });
      return [await loadCsv(ctx, src, ctx.host.sqlPath(ctx.engine, tmp))];
    } finally {
      await ctx.storage.remove(tmp);
    }
  }
  throw new Error(`${src.file}: format ${suffix} cannot be read offline`);
}

async function loadParquet(ctx: IngestContext, src: IngestSource): Promise<TableLoad> {
  const table = singleTable(src);
  const file = await ctx.host.rowGroups(src.store);
  const { rows } = file;
  const read = (i: number) => {
    const ipc = file.read(i);
    ipc.catch(() => {}); // a failure is seen where the batch is awaited, not as an unhandled rejection before
    return ipc;
  };
  const batches = async function* (): AsyncGenerator<Batch> {
    if (rows.length === 0) throw new Error(`${src.file}: no row groups`);
    let next: Promise<Uint8Array> | undefined = read(0);
    for (let i = 0; next; i++) {
      const ipc = await next;
      // The next row group is decoded while this one is inserted, on another core: the host decodes
      // in a thread other than the engine's (the browser's DuckDB worker; Node's decoder thread).
      next = i + 1 < rows.length ? read(i + 1) : undefined;
      yield { rows: rows[i], put: (name, create) => ctx.engine.insertArrowIPC(ipc, { name, create }) };
    }
  };
  try {
    return await loadTable(ctx, src, table, batches());
  } finally {
    await file.close();
  }
}

async function loadCsv(ctx: IngestContext, src: IngestSource, path: Promise<string>): Promise<TableLoad> {
  const table = singleTable(src);
  const delim = src.suffix.startsWith('tsv') ? '\\t' : ',';
  // Every column read as text and cast by name to the contract's type: exact decimals, no guessing.
  const reader = `read_csv(${sqlString(await path)}, header = true, all_varchar = true, delim = '${delim}', quote = '"')`;
  return loadTable(ctx, src, table, once((name) => ctx.engine.exec(`CREATE TABLE ${quoteIdent(name)} AS SELECT * FROM ${reader}`)));
}

/** Tables of a whole-dataset .duckdb, read out as Arrow IPC before the new generation is opened. */
export type Extracted = { table: string; ipc: Uint8Array }[];

/**
 * Unpacks a .duckdb.gz/.zip and reads its known tables into memory. In Node, two DuckDB-WASM
 * instances with open files in one process corrupt each other's file table (docs/storage.md), so
 * this runs to completion, and its engine is closed, before the generation's engine opens.
 */
export async function extractDuckdb(ctx: Omit<IngestContext, 'engine'>, src: IngestSource): Promise<Extracted> {
  const tmp = `${ctx.scratchPrefix}duckdb`;
  await unpack(ctx.storage, src.store, tmp, {
    kind: src.suffix.endsWith('.gz') ? 'gz' : 'zip',
    want: '.duckdb',
    maxBytes: ctx.maxUnpackedBytes,
  });
  const reader = await ctx.host.scratch();
  try {
    await reader.exec(`ATTACH ${sqlString(await ctx.host.sqlPath(reader, tmp))} AS src`);
    const found = await reader.all<{ name: string }>(
      "SELECT table_name AS name FROM duckdb_tables() WHERE database_name = 'src' ORDER BY table_name",
    );
    const out: Extracted = [];
    for (const { name } of found) {
      const table = tableOfStem(ctx.def, name);
      if (!table || (src.tables && !src.tables.includes(table))) continue;
      out.push({ table, ipc: ctx.host.toIPC(await reader.arrow(`SELECT * FROM src.main.${quoteIdent(name)}`)) });
    }
    if (out.length === 0) throw new Error(`${src.file}: no known table inside`);
    return out;
  } finally {
    await ctx.host.release(reader);
    await ctx.storage.remove(tmp);
  }
}

async function loadExtracted(ctx: IngestContext, src: IngestSource, tables: Extracted): Promise<TableLoad[]> {
  const loads: TableLoad[] = [];
  for (const { table, ipc } of tables) {
    const put: Batch['put'] = (name, create) => ctx.engine.insertArrowIPC(ipc, { name, create });
    loads.push(await loadTable(ctx, { ...src, rows: null }, table, once(put)));
  }
  return loads;
}

/**
 * One batch of a file's rows. `put` inserts it into table `name` BY POSITION (creating the table from
 * the batch's own types when `create`), converting each value to the column's type as CAST does.
 */
interface Batch {
  /** Rows in the batch; null: count them once staged. */
  rows: number | null;
  put(name: string, create: boolean): Promise<void>;
}

async function* once(put: Batch['put']): AsyncGenerator<Batch> {
  yield { rows: null, put };
}

function singleTable(src: IngestSource): string {
  if (!src.tables || src.tables.length !== 1) throw new Error(`${src.file}: expected one table`);
  return src.tables[0];
}

/**
 * Batches per transaction: a commit every this many keeps memory bounded. In one transaction
 * DuckDB-WASM keeps every staged batch until the commit, and the 38M-row NAV history ran out of memory
 * ("3.1 GiB/3.1 GiB used"); committing every 16 row groups (~2M rows) peaked at ~870 MB RSS, ~650 MB
 * once later row groups went straight into the table.
 */
const BATCHES_PER_COMMIT = 16;

/**
 * Creates `table` from `batches`. The first is staged, to read the file's columns and build the by-name
 * projection onto the contract; when that projection keeps the file's column order and only casts
 * (`Projection.positional`), every later batch is inserted straight into the table, which converts
 * each value as the projection's CAST would: no second copy of the rows and no second scan (the
 * 38M-row NAV history: ~30 % less CPU). Otherwise each batch is staged and moved across with the
 * projection. Then the row count is checked against the manifest. The generation being built is
 * not visible to any reader until the switch, so committing part-way is safe; on any failure the
 * partial table is dropped, so a fallback source starts from nothing.
 */
async function loadTable(
  { engine, def, onBatch }: IngestContext,
  src: IngestSource,
  table: string,
  batches: AsyncIterable<Batch>,
): Promise<TableLoad> {
  if (!isTableIdent(table)) throw new Error(`${src.file}: refused table name ${JSON.stringify(table)}`);
  const target = quoteIdent(table);
  let plan: Projection | null = null;
  let done = 0;
  let rows = 0;
  try {
    await engine.exec(`DROP TABLE IF EXISTS ${target}`);
    await engine.exec('BEGIN TRANSACTION');
    for await (const batch of batches) {
      if (plan?.positional && batch.rows !== null) {
        await batch.put(table, false);
        rows += batch.rows;
      } else {
        await batch.put(STAGE, true);
        if (batch.rows !== null) rows += batch.rows;
        else if (onBatch) rows += (await engine.all<{ n: number }>(`SELECT count(*) AS n FROM ${STAGE}`))[0].n;
        if (!plan) {
          plan = projection(await describe(engine, STAGE), contractFor(def, table), src.file);
          // eslint-disable-next-line sql/no-interpolated-sql -- projection() quotes each column and casts to the contract's types
          await engine.exec(`CREATE TABLE ${target} AS SELECT ${plan.select} FROM ${STAGE}`);
        } else {
          // eslint-disable-next-line sql/no-interpolated-sql -- projection() quotes each column and casts to the contract's types
          await engine.exec(`INSERT INTO ${target} SELECT ${plan.select} FROM ${STAGE}`);
        }
        await engine.exec(`DROP TABLE ${STAGE}`);
      }
      if (++done % BATCHES_PER_COMMIT === 0) await engine.exec('COMMIT; BEGIN TRANSACTION');
      await onBatch?.({ table, file: src.file, rows, total: src.rows });
    }
    await engine.exec('COMMIT');
    const [{ n }] = await engine.all<{ n: number }>(`SELECT count(*) AS n FROM ${target}`);
    if (src.rows !== null && n !== src.rows) throw new Error(`${src.file}: ${n} rows loaded, the manifest announces ${src.rows}`);
    return { table, file: src.file, rows: n, columns: await describe(engine, table), changes: plan?.changes ?? [] };
  } catch (e) {
    await engine.exec('ROLLBACK').catch(() => {});
    await engine.exec(`DROP TABLE IF EXISTS ${STAGE}; DROP TABLE IF EXISTS ${target}`).catch(() => {});
    throw asRefusal(e);
  }
}

function contractFor(def: ServiceDef, table: string) {
  return { contract: contractOf(def, table), renames: def.renames[table] ?? {} };
}

async function describe(engine: Engine, table: string): Promise<Column[]> {
  const rows = await engine.all<{ column_name: string; column_type: string }>(`DESCRIBE ${quoteIdent(table)}`);
  return rows.map((r) => ({ name: r.column_name, type: r.column_type }));
}

/** The SELECT list that loads a staged file into the contract's table, and how the file differed. */
export interface Projection {
  select: string;
  changes: SchemaChange[];
  /**
   * The SELECT list is the file's columns in the file's order, each at most CAST to its contract type:
   * inserting the file's rows by position into the table does the same.
   */
  positional: boolean;
}

/**
 * The SELECT list that maps a file's columns onto the contract BY NAME (case-insensitive; known
 * renames accepted): contract columns first, converted to the contract type (conversion.ts: exact
 * widenings cast, other retypes checked value by value, lossy types refused); a missing optional column
 * is NULL; a missing required one refuses the file; columns the contract does not know are kept as they
 * are. Every difference from the contract is reported as a SchemaChange (drift.ts).
 */
export function projection(
  have: Column[],
  c: { contract: ReturnType<typeof contractOf>; renames: Readonly<Record<string, string>> },
  file: string,
): Projection {
  const byLower = new Map(have.map((h) => [h.name.toLowerCase(), h]));
  for (const [from, to] of Object.entries(c.renames)) {
    if (!byLower.has(to) && byLower.has(from)) byLower.set(to, byLower.get(from)!);
  }
  const used = new Set<string>();
  const out: string[] = [];
  /** The file's column behind each entry of `out`; null where that is not a plain CAST of one. */
  const sources: (string | null)[] = [];
  const changes: SchemaChange[] = [];
  for (const col of c.contract?.columns ?? []) {
    const src = byLower.get(col.name.toLowerCase());
    if (src === undefined) {
      if (col.required) throw new SchemaRefused(file, { change: 'missing', column: col.name, required: true });
      changes.push({ change: 'missing', column: col.name, required: false });
      out.push(`CAST(NULL AS ${col.type}) AS ${quoteIdent(col.name)}`);
      sources.push(null);
      continue;
    }
    used.add(src.name);
    if (src.name.toLowerCase() !== col.name.toLowerCase()) changes.push({ change: 'renamed', column: col.name, from: src.name });
    const conv = conversion(src.type, col.type);
    const retype = { change: 'retyped' as const, column: col.name, from: src.type, to: col.type };
    if (conv.kind === 'lossy') throw new SchemaRefused(file, retype, conv.why);
    if (conv.kind === 'widen' || conv.kind === 'checked') changes.push(retype);
    const ref = quoteIdent(src.name);
    const value = conv.kind === 'checked' ? checkedCast(ref, col.name, src.type, col.type, file) : `CAST(${ref} AS ${col.type})`;
    out.push(`${value} AS ${quoteIdent(col.name)}`);
    sources.push(conv.kind === 'checked' ? null : src.name);
  }
  for (const h of have) {
    if (used.has(h.name)) continue;
    out.push(quoteIdent(h.name));
    sources.push(h.name);
    if (c.contract) changes.push({ change: 'added', column: h.name, from: h.type });
  }
  if (out.length === 0) throw new Error(`${file}: no columns`);
  const positional = sources.length === have.length && sources.every((name, i) => name === have[i].name);
  return { select: out.join(', '), changes, positional };
}
