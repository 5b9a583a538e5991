import * as duckdb from '@duckdb/duckdb-wasm';
import { Table, type AsyncRecordBatchStreamReader } from 'apache-arrow';
import ehWasm from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import { OFFLINE_SETTINGS, readableError, type Engine, type Param } from './engine.js';
import { tableToColumns, tableToRows } from './rows.js';
import { quoteIdent } from '../sync/names.js';

export interface BrowserEngineOptions {
  path?: string;
}

/**
 * DuckDB-WASM in a Web Worker (AsyncDuckDB) behind the Engine interface. The 'eh' bundle is picked
 * explicitly: selectBundle would choose 'coi' on a cross-origin-isolated page, and that bundle broke
 * OPFS file handles (docs/storage.md).
 */
export class BrowserEngine implements Engine {
  private constructor(
    readonly db: duckdb.AsyncDuckDB,
    private conn: duckdb.AsyncDuckDBConnection,
  ) {}

  /**
   * Without `path`: an in-memory main database with direct I/O, so several OPFS files can be
   * ATTACHed as schemas. With `path` (`opfs://x.duckdb`): that file as the main database, the way the
   * sync engine builds a new generation in a worker of its own.
   */
  static async open(opts: BrowserEngineOptions = {}): Promise<BrowserEngine> {
    const worker = new Worker(new URL('./duckdb.worker.ts', import.meta.url), { type: 'module' });
    const db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), worker);
    await db.instantiate(ehWasm);
    await db.open({
      path: opts.path ?? ':memory:',
      accessMode: duckdb.DuckDBAccessMode.READ_WRITE,
      useDirectIO: opts.path === undefined,
      query: { castBigIntToDouble: false },
    });
    const conn = await db.connect();
    await conn.query(OFFLINE_SETTINGS);
    return new BrowserEngine(db, conn);
  }

  private queue: Promise<unknown> = Promise.resolve();

  /**
   * One statement at a time on the connection: a pending query started while another is being
   * polled cancels the first ("cancelled ... by executing a different query"), and views ask in parallel.
   */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  async all<T>(sql: string, params?: Param[]): Promise<T[]> {
    return tableToRows<T>(await this.arrow(sql, params));
  }

  async columns(sql: string, params?: Param[]): Promise<unknown[][]> {
    return tableToColumns(await this.arrow(sql, params));
  }

  /** Runs as a pending query (polled by the worker), so `cancel()` can interrupt it. */
  arrow(sql: string, params?: Param[]): Promise<Table> {
    return this.serial(async () => {
      if (!params || params.length === 0) return collect(await this.conn.send(sql, true));
      const stmt = await this.conn.prepare(sql);
      try {
        return await collect(await stmt.send(...params));
      } finally {
        await stmt.close();
      }
    });
  }

  exec(sql: string): Promise<void> {
    return this.serial(async () => void (await this.conn.query(sql)));
  }

  insertArrowIPC(ipc: Uint8Array, t: { schema?: string; name: string; create: boolean }): Promise<void> {
    return this.serial(() => this.conn.insertArrowFromIPCStream(ipc, { name: t.name, schema: t.schema, create: t.create })).catch((e) => {
      throw readableError(e);
    });
  }

  /** `path` is an OPFS path (`opfs://x.duckdb`); its WAL is registered too, or ATTACH fails. */
  async registerFile(name: string, path: string): Promise<void> {
    if (path.startsWith('opfs://')) {
      await this.db.registerOPFSFileName(path);
      await this.db.registerOPFSFileName(`${path}.wal`);
      return;
    }
    await this.db.registerFileURL(name, path, duckdb.DuckDBDataProtocol.HTTP, false);
  }

  /**
   * Stops the running query. DuckDB-WASM interrupts through the connection; the pending query then
   * rejects, and the connection stays usable.
   */
  async cancel(): Promise<boolean> {
    return this.conn.cancelSent();
  }

  /**
   * Detaches and drops every registered file first: that releases the OPFS access handles before the
   * worker ends, so the files can be removed right after.
   */
  async close(): Promise<void> {
    const attached = await this.all<{ name: string }>(
      "SELECT database_name AS name FROM duckdb_databases() WHERE NOT internal AND database_name <> current_database()",
    ).catch(() => []);
    for (const { name } of attached) await this.exec(`DETACH ${quoteIdent(name)}`).catch(() => undefined);
    await this.conn.close();
    // The main database file of a build engine stays registered until the worker ends.
    await this.db.dropFiles().catch(() => undefined);
    await this.db.terminate();
  }
}

async function collect(reader: AsyncRecordBatchStreamReader): Promise<Table> {
  const batches = await reader.readAll();
  return batches.length > 0 ? new Table(batches) : new Table(reader.schema);
}
