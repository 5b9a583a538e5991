import { createRequire } from 'node:module';
import path from 'node:path';
import * as duckdb from '@duckdb/duckdb-wasm/blocking';
import type { Table } from 'apache-arrow';
import { OFFLINE_SETTINGS, type Engine, type Param } from './engine.js';
import { tableToRows } from './rows.js';

const require = createRequire(import.meta.url);
const dist = path.dirname(require.resolve('@duckdb/duckdb-wasm/dist/duckdb-eh.wasm'));
const BUNDLES: duckdb.DuckDBBundles = {
  mvp: { mainModule: path.join(dist, 'duckdb-mvp.wasm'), mainWorker: '' },
  eh: { mainModule: path.join(dist, 'duckdb-eh.wasm'), mainWorker: '' },
};

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
  ) {}

  static async open(opts: NodeEngineOptions = {}): Promise<NodeEngine> {
    const db = await duckdb.createDuckDB(BUNDLES, new duckdb.VoidLogger(), duckdb.NODE_RUNTIME);
    await db.instantiate();
    db.open({
      path: opts.path ?? ':memory:',
      accessMode: duckdb.DuckDBAccessMode.READ_WRITE,
      useDirectIO: opts.create === true,
    });
    const conn = db.connect();
    conn.query(OFFLINE_SETTINGS);
    return new NodeEngine(db, conn);
  }

  async all<T>(sql: string, params?: Param[]): Promise<T[]> {
    return tableToRows<T>(await this.arrow(sql, params));
  }

  async arrow(sql: string, params?: Param[]): Promise<Table> {
    if (!params || params.length === 0) return this.conn.query(sql);
    const stmt = this.conn.prepare(sql);
    try {
      return stmt.query(...params);
    } finally {
      stmt.close();
    }
  }

  async exec(sql: string): Promise<void> {
    this.conn.query(sql);
  }

  async insertArrowIPC(ipc: Uint8Array, t: { schema?: string; name: string; create: boolean }): Promise<void> {
    this.conn.insertArrowFromIPCStream(ipc, { name: t.name, schema: t.schema, create: t.create });
  }

  async registerFile(name: string, filePath: string): Promise<void> {
    this.db.registerFileURL(name, filePath, duckdb.DuckDBDataProtocol.NODE_FS, false);
  }

  async close(): Promise<void> {
    this.conn.close();
    this.db.reset();
  }
}
