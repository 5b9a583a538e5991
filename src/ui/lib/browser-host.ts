import { DuckDBDataProtocol } from '@duckdb/duckdb-wasm';
import { tableToIPC, type Table } from 'apache-arrow';
import { BrowserEngine } from '../../core/engine/browser.js';
import type { Engine } from '../../core/engine/engine.js';
import type { DatabaseHost } from '../../core/sync/host.js';
import type { AttachHost } from '../../core/store/store.js';
import { storeName } from '../../core/storage/storage.js';
import type { OpfsStorage } from './opfs-storage.js';

const opfs = (name: string) => `opfs://${storeName(name)}`;

function browser(engine: Engine): BrowserEngine {
  if (!(engine instanceof BrowserEngine)) throw new Error('the browser host needs a BrowserEngine');
  return engine;
}

/**
 * How the browser builds and attaches store files (docs: duckdb-wasm-offline notes). A new database
 * is the main file of a worker of its own; database files are opened through OPFS, registering the
 * file AND its WAL; other inputs (csv, csv.gz) are read through their File objects.
 * Interim: the app's own host until src/core/store/browser.ts lands.
 */
export class BrowserHost implements DatabaseHost, AttachHost {
  constructor(readonly storage: OpfsStorage) {}

  createDatabase(name: string): Promise<Engine> {
    return BrowserEngine.open({ path: opfs(name) });
  }

  scratch(): Promise<Engine> {
    return BrowserEngine.open();
  }

  async sqlPath(engine: Engine, name: string): Promise<string> {
    const e = browser(engine);
    // Database files (`x.duckdb`, the unpacked `tmp~svc~duckdb`) are opened in place through OPFS.
    if (name.endsWith('duckdb')) {
      await e.db.registerOPFSFileName(opfs(name));
      await e.db.registerOPFSFileName(`${opfs(name)}.wal`);
      return opfs(name);
    }
    await e.db.registerFileHandle(name, await this.storage.blob(name), DuckDBDataProtocol.BROWSER_FILEREADER, true);
    return name;
  }

  attachPath(engine: Engine, name: string): Promise<string> {
    return this.sqlPath(engine, name);
  }

  async forget(engine: Engine, name: string): Promise<void> {
    const e = browser(engine);
    for (const f of [opfs(name), `${opfs(name)}.wal`]) await e.db.dropFile(f).catch(() => undefined);
  }

  /** The browser bundle and the app share one apache-arrow build, so its writer reads these tables. */
  toIPC(table: Table): Uint8Array {
    return tableToIPC(table, 'stream');
  }

  /** Terminating the worker releases every OPFS access handle it held. */
  release(engine: Engine): Promise<void> {
    return engine.close();
  }
}
