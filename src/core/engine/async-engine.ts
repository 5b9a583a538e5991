import * as duckdb from '@duckdb/duckdb-wasm';
import { Table, type AsyncRecordBatchStreamReader } from 'apache-arrow';
import { OFFLINE_SETTINGS, readableError, type Engine, type Param } from './engine.js';
import { KeptStatements } from './kept-statements.js';
import { tableToColumns, tableToRows } from './rows.js';

/** Where an AsyncDuckDB opens its main database, and how. */
export interface AsyncOpen {
  /** The compiled DuckDB module: a URL in the browser, a file path in Node. */
  wasm: string;
  /** The main database (`:memory:` when absent). */
  path?: string;
  /** Direct I/O: for ATTACHing several OPFS files, or a NEW file that must reopen with its data. */
  directIO: boolean;
}

/**
 * DuckDB-WASM's AsyncDuckDB behind the Engine interface: the logic both asynchronous engines share
 * (the browser's Web Worker, browser.ts; Node's worker thread, node-worker.ts), which differ only in
 * the worker they hand it and in how a file is registered and let go of (the pattern of duckdb-wasm's
 * own bindings_base.ts).
 */
export abstract class AsyncEngine implements Engine {
  protected constructor(
    readonly db: duckdb.AsyncDuckDB,
    protected readonly conn: duckdb.AsyncDuckDBConnection,
  ) {}

  /** Instantiates DuckDB in `worker`, opens the main database and connects offline; ends the worker if any step fails. */
  protected static async connect(worker: Worker, o: AsyncOpen): Promise<[duckdb.AsyncDuckDB, duckdb.AsyncDuckDBConnection]> {
    const db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), worker);
    try {
      await db.instantiate(o.wasm);
      await db.open({
        path: o.path ?? ':memory:',
        accessMode: duckdb.DuckDBAccessMode.READ_WRITE,
        useDirectIO: o.directIO,
        query: { castBigIntToDouble: false },
      });
      const conn = await db.connect();
      await conn.query(OFFLINE_SETTINGS);
      return [db, conn];
    } catch (e) {
      await db.terminate();
      throw e;
    }
  }

  /**
   * The Table class of the Arrow build the worker's results come in: the app's own in the browser;
   * in Node, apache-arrow's CommonJS build, which DuckDB-WASM's Node bundle requires (the ESM Table
   * does not recognise its batches and recurses until the stack overflows).
   */
  protected readonly resultTable: typeof Table = Table;

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

  /**
   * True: each statement runs as a pending query, polled until done, so `cancel()` can interrupt it
   * (the app's SQL editor). False: in one round trip to the worker, which cannot be interrupted; for
   * the local server, where the polling cost ~2 ms of CPU a NAV request (docs/performance.md).
   */
  protected readonly cancellable: boolean = true;

  arrow(sql: string, params?: Param[]): Promise<Table> {
    return this.serial(async () => {
      // `[]` asks for the kept prepared statement of a parameter-free query (one statement only)
      if (!params) {
        const table = this.cancellable ? await this.collect(await this.conn.send(sql, true)) : await this.conn.query(sql);
        await this.statements.ran(sql);
        return table;
      }
      // Kept: a statement prepared per call cost two more round trips to the worker, and its planning.
      const stmt = await this.statements.get(sql, (q) => this.conn.prepare(q));
      try {
        const table = this.cancellable ? await this.collect(await stmt.send(...params)) : await stmt.query(...params);
        await this.statements.ran(sql);
        return table;
      } catch (e) {
        await this.statements.forget(sql);
        throw e;
      }
    });
  }

  protected readonly statements = new KeptStatements<duckdb.AsyncPreparedStatement>();

  exec(sql: string): Promise<void> {
    return this.serial(async () => {
      await this.conn.query(sql);
      await this.statements.ran(sql);
    });
  }

  insertArrowIPC(ipc: Uint8Array, t: { schema?: string; name: string; create: boolean }): Promise<void> {
    return this.serial(async () => {
      await this.conn.insertArrowFromIPCStream(ipc, { name: t.name, schema: t.schema, create: t.create });
      if (t.create) await this.statements.clear();
    }).catch((e) => {
      throw readableError(e);
    });
  }

  abstract registerFile(name: string, path: string): Promise<void>;

  /**
   * Stops the running query. DuckDB-WASM interrupts through the connection; the pending query then
   * rejects, and the connection stays usable.
   */
  async cancel(): Promise<boolean> {
    return this.conn.cancelSent();
  }

  abstract close(): Promise<void>;

  private async collect(reader: AsyncRecordBatchStreamReader): Promise<Table> {
    const batches = await reader.readAll();
    return batches.length > 0 ? new this.resultTable(batches) : new this.resultTable(reader.schema);
  }
}
