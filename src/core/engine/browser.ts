import * as duckdb from '@duckdb/duckdb-wasm';
import ehWasm from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import { AsyncEngine } from './async-engine.js';
import { quoteIdent } from '../sync/names.js';

export interface BrowserEngineOptions {
  path?: string;
}

/**
 * DuckDB-WASM in a Web Worker (AsyncDuckDB) behind the Engine interface. The 'eh' bundle is picked
 * explicitly: selectBundle would choose 'coi' on a cross-origin-isolated page, and that bundle broke
 * OPFS file handles (docs/storage.md).
 */
export class BrowserEngine extends AsyncEngine {
  /**
   * Without `path`: an in-memory main database with direct I/O, so several OPFS files can be
   * ATTACHed as schemas. With `path` (`opfs://x.duckdb`): that file as the main database, the way the
   * sync engine builds a new generation in a worker of its own.
   */
  static async open(opts: BrowserEngineOptions = {}): Promise<BrowserEngine> {
    const worker = new Worker(new URL('./duckdb.worker.ts', import.meta.url), { type: 'module' });
    return new BrowserEngine(...(await AsyncEngine.connect(worker, { wasm: ehWasm, path: opts.path, directIO: opts.path === undefined })));
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
   * Detaches and drops every registered file first: that releases the OPFS access handles before the
   * worker ends, so the files can be removed right after.
   */
  async close(): Promise<void> {
    const attached = await this.all<{ name: string }>(
      "SELECT database_name AS name FROM duckdb_databases() WHERE NOT internal AND database_name <> current_database()",
    ).catch(() => []);
    for (const { name } of attached) await this.exec(`DETACH ${quoteIdent(name)}`).catch(() => undefined);
    await this.statements.clear();
    await this.conn.close();
    // The main database file of a build engine stays registered until the worker ends.
    await this.db.dropFiles().catch(() => undefined);
    await this.db.terminate();
  }
}
