import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import * as duckdb from '@duckdb/duckdb-wasm/blocking';
import type { Table } from 'apache-arrow';
import { OFFLINE_SETTINGS, readableError, type Engine, type Param } from './engine.js';
import { KeptStatements } from './kept-statements.js';
import { tableToColumns, tableToRows } from './rows.js';

const require = createRequire(import.meta.url);
const dist = path.dirname(require.resolve('@duckdb/duckdb-wasm/dist/duckdb-eh.wasm'));
const BUNDLES: duckdb.DuckDBBundles = {
  mvp: { mainModule: path.join(dist, 'duckdb-mvp.wasm'), mainWorker: '' },
  eh: { mainModule: path.join(dist, 'duckdb-eh.wasm'), mainWorker: '' },
};

/**
 * Compiling the 34 MB DuckDB module costs ~2 s of CPU; the sync, the store and the tests open many
 * engines in one process, so the compiled module is shared. This replaces the bundle's own
 * `instantiateWasm` hook (same steps: publish the runtime, instantiate) with one that reuses the module;
 * test/core/engine-node.test.ts pins it for this pinned duckdb-wasm version.
 */
let compiled: Promise<WebAssembly.Module> | null = null;

function shareCompiledModule(db: duckdb.DuckDBBindings): void {
  (db as unknown as { instantiateWasm: unknown }).instantiateWasm = (
    imports: WebAssembly.Imports,
    done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
  ) => {
    const runtime: Record<string, unknown> = {};
    for (const name of Object.getOwnPropertyNames(duckdb.NODE_RUNTIME)) {
      runtime[name] = (duckdb.NODE_RUNTIME as unknown as Record<string, unknown>)[name];
    }
    (globalThis as { DUCKDB_RUNTIME?: unknown }).DUCKDB_RUNTIME = runtime;
    compiled ??= WebAssembly.compile(readFileSync(BUNDLES.eh!.mainModule));
    void compiled.then(async (module) => done(await WebAssembly.instantiate(module, imports), module));
    return [];
  };
}

/**
 * Node 20's V8 (11.3) does not inline small wasm functions into their callers unless asked; Chromium's
 * (150) does by default, and DuckDB's inner loops are full of such calls. Asked for here, before the
 * module is compiled (the flag is process-wide, so DuckDB's Node worker threads and parquet-wasm get
 * it too): the full MF NAV ingest took ~17 % less CPU, with identical results (docs/performance.md).
 */
setFlagsFromString('--wasm-inlining');

/**
 * V8 moves a wasm function to optimised code once it has run a budget of work (1.8M by default). A fresh
 * engine's first queries use hundreds of DuckDB's functions, each soon past that budget, and the wave of
 * tier-ups they set off took the first requests' time: the local server's first NAV request over HTTP
 * took ~215 ms and its second ~65-85 ms at full scale, against ~100-135 ms and ~20 ms with ten times the
 * budget; the steady calls (NAV, latest-as-of, search, compare) are as fast as before, since hot loops
 * still pass the larger budget at once (docs/performance.md, "The first request: V8's tier-up, …").
 * `--liftoff-only` was as quick at first but left compare's 81 metrics ~55 % slower for good.
 */
setFlagsFromString('--wasm-tiering-budget=18000000');

async function instantiate(): Promise<duckdb.DuckDBBindings> {
  const db = await duckdb.createDuckDB(BUNDLES, new duckdb.VoidLogger(), duckdb.NODE_RUNTIME);
  shareCompiledModule(db);
  await db.instantiate();
  return db;
}

/**
 * Even with the module compiled, a new instance costs ~2-2.4 s of CPU here (instantiating, DuckDB's
 * start), while a closed one's database reopened costs ~50 ms (measured 2026-11-26). A sync opens an
 * engine per build, per whole-dataset `.duckdb` read out and for comparing the generations (issue
 * 21), one after another: so a closed engine's instance, reset (its database and files gone) and its
 * registered files dropped, is kept for the next open. One at most, and for a short while only: its
 * WebAssembly memory never shrinks, and a long-running process should not hold a build's peak for
 * nothing. Holding no file, it is no second instance with open files (docs/storage.md, hazard 6).
 */
const SPARE_MS = 30_000;
let spare: { db: duckdb.DuckDBBindings; timer: ReturnType<typeof setTimeout> } | null = null;

function takeSpare(): duckdb.DuckDBBindings | null {
  const s = spare;
  spare = null;
  if (s) clearTimeout(s.timer);
  return s?.db ?? null;
}

function keepSpare(db: duckdb.DuckDBBindings): void {
  db.dropFiles();
  takeSpare();
  const timer = setTimeout(() => {
    if (spare?.db === db) spare = null;
  }, SPARE_MS);
  timer.unref();
  spare = { db, timer };
}

export interface NodeEngineOptions {
  /**
   * A database file to open as the main database. `create: true` opens it with direct I/O, the only
   * way a NEW file written by DuckDB-WASM in Node reopens with its data; an EXISTING file must be
   * opened without it, or its headers are rewritten (docs/storage.md pins both).
   */
  path?: string;
  create?: boolean;
}

/** DuckDB-WASM in this Node process (blocking bundle), behind the async Engine interface. */
export class NodeEngine implements Engine {
  private constructor(
    readonly db: duckdb.DuckDBBindings,
    private readonly conn: duckdb.DuckDBConnection,
    /** False for a connection from connect(): closing it must leave the database to its owner. */
    private readonly ownsDb = true,
  ) {}

  static async open(opts: NodeEngineOptions = {}): Promise<NodeEngine> {
    const db = takeSpare() ?? (await instantiate());
    db.open({
      path: opts.path ?? ':memory:',
      accessMode: duckdb.DuckDBAccessMode.READ_WRITE,
      useDirectIO: opts.create === true,
    });
    const conn = db.connect();
    conn.query(OFFLINE_SETTINGS);
    return new NodeEngine(db, conn);
  }

  /**
   * Another connection to this database: the same attached catalogs, settings and SQL functions, but
   * its own temp tables, temp views and prepared statements. A second front door (the desktop window
   * beside the local server) gets one, so the temp state one builds cannot leak into the other's.
   */
  connect(): NodeEngine {
    return new NodeEngine(this.db, this.db.connect(), false);
  }

  async all<T>(sql: string, params?: Param[]): Promise<T[]> {
    return tableToRows<T>(await this.arrow(sql, params));
  }

  async columns(sql: string, params?: Param[]): Promise<unknown[][]> {
    return tableToColumns(await this.arrow(sql, params));
  }

  async arrow(sql: string, params?: Param[]): Promise<Table> {
    // `[]` asks for the kept prepared statement of a parameter-free query (one statement only)
    if (!params) {
      const table = this.conn.query(sql);
      await this.statements.ran(sql);
      return table;
    }
    const stmt = await this.statements.get(sql, (q) => this.conn.prepare(q));
    try {
      const table = stmt.query(...params);
      await this.statements.ran(sql);
      return table;
    } catch (e) {
      await this.statements.forget(sql);
      throw e;
    }
  }

  private readonly statements = new KeptStatements<duckdb.PreparedStatement>();

  async exec(sql: string): Promise<void> {
    this.conn.query(sql);
    await this.statements.ran(sql);
  }

  async insertArrowIPC(ipc: Uint8Array, t: { schema?: string; name: string; create: boolean }): Promise<void> {
    try {
      this.conn.insertArrowFromIPCStream(ipc, { name: t.name, schema: t.schema, create: t.create });
    } catch (e) {
      throw readableError(e);
    }
    if (t.create) await this.statements.clear();
  }

  async registerFile(name: string, filePath: string): Promise<void> {
    this.db.registerFileURL(name, filePath, duckdb.DuckDBDataProtocol.NODE_FS, false);
  }

  async close(): Promise<void> {
    await this.statements.clear();
    this.conn.close();
    if (!this.ownsDb) return;
    this.db.reset();
    keepSpare(this.db);
  }
}
