import * as duckdb from '@duckdb/duckdb-wasm';
import { Table, type AsyncRecordBatchStreamReader } from 'apache-arrow';
import ehWasm from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import ehWorker from '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js?url';
import { OFFLINE_SETTINGS, type Engine, type Param } from './engine.js';
import { tableToRows } from './rows.js';

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

  static async open(): Promise<BrowserEngine> {
    const worker = new Worker(ehWorker);
    const db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), worker);
    await db.instantiate(ehWasm);
    // In-memory main database with direct I/O, so several OPFS files can be ATTACHed as schemas.
    await db.open({ path: ':memory:', useDirectIO: true, query: { castBigIntToDouble: false } });
    const conn = await db.connect();
    await conn.query(OFFLINE_SETTINGS);
    return new BrowserEngine(db, conn);
  }

  async all<T>(sql: string, params?: Param[]): Promise<T[]> {
    return tableToRows<T>(await this.arrow(sql, params));
  }

  /** Runs as a pending query (polled by the worker), so `cancel()` can interrupt it. */
  async arrow(sql: string, params?: Param[]): Promise<Table> {
    if (!params || params.length === 0) return collect(await this.conn.send(sql, true));
    const stmt = await this.conn.prepare(sql);
    try {
      return collect(await stmt.send(...params));
    } finally {
      await stmt.close();
    }
  }

  async exec(sql: string): Promise<void> {
    await this.conn.query(sql);
  }

  async insertArrowIPC(ipc: Uint8Array, t: { schema?: string; name: string; create: boolean }): Promise<void> {
    await this.conn.insertArrowFromIPCStream(ipc, { name: t.name, schema: t.schema, create: t.create });
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

  async close(): Promise<void> {
    await this.conn.close();
    await this.db.terminate();
  }
}

async function collect(reader: AsyncRecordBatchStreamReader): Promise<Table> {
  const batches = await reader.readAll();
  return batches.length > 0 ? new Table(batches) : new Table(reader.schema);
}
