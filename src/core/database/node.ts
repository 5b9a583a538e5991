import { createRequire } from 'node:module';
import type { Table } from 'apache-arrow';
import { NodeEngine } from '../engine/node.js';
import { NodeWorkerEngine } from '../engine/node-worker.js';
import type { Engine } from '../engine/engine.js';
import { FsStorage } from '../storage/fs.js';
import type { AttachHost, DatabaseHost } from '../sync/host.js';
import { rowGroupsInWorker } from '../sync/node-row-groups.js';
import type { RowGroups } from '../sync/row-groups.js';
import { Store } from './store.js';

/** The copy of apache-arrow the blocking DuckDB-WASM bundle loads (CommonJS): its tables are of this one. */
const cjsArrow = createRequire(import.meta.url)('apache-arrow') as typeof import('apache-arrow');

export interface NodeHostOptions {
  /**
   * Build new database files in a worker thread (NodeWorkerEngine): needed while this process has
   * another engine with files open, as the store has; one thread's engines share one table of open
   * files (docs/storage.md, hazard 6). Off: in this thread, faster, for a process that only builds.
   */
  isolated?: boolean;
}

/**
 * DuckDB-WASM in Node over a store directory. NEW files are created as an engine's main database
 * with direct I/O; EXISTING files are only ever attached without it, to be read (docs/storage.md).
 */
export class NodeHost implements DatabaseHost, AttachHost {
  constructor(
    readonly storage: FsStorage,
    private readonly opts: NodeHostOptions = {},
  ) {}

  createDatabase(name: string): Promise<Engine> {
    const open = { path: this.storage.path(name), create: true };
    return this.opts.isolated ? NodeWorkerEngine.open(open) : NodeEngine.open(open);
  }

  scratch(): Promise<Engine> {
    return NodeEngine.open();
  }

  async sqlPath(_engine: Engine, name: string): Promise<string> {
    return this.storage.path(name);
  }

  rowGroups(name: string): Promise<RowGroups> {
    return rowGroupsInWorker(this.storage.path(name));
  }

  async attachPath(_engine: Engine, name: string): Promise<string> {
    return this.storage.path(name);
  }

  /** DETACH keeps the file locked in this engine until it is dropped. */
  async forget(engine: Engine, name: string): Promise<void> {
    if (!(engine instanceof NodeEngine || engine instanceof NodeWorkerEngine)) return;
    const p = this.storage.path(name);
    for (const f of [p, `${p}.wal`]) {
      try {
        await engine.db.dropFile(f);
      } catch {
        // not open in this engine: nothing to let go of
      }
    }
  }

  toIPC(table: Table): Uint8Array {
    const ipc = cjsArrow.tableToIPC(table, 'stream');
    if (table.numRows > 0 && ipc.length === 0) throw new Error('Arrow IPC came out empty (two apache-arrow copies?)');
    return ipc;
  }

  release(engine: Engine): Promise<void> {
    return engine.close();
  }
}

export interface OpenStoreOptions {
  /**
   * The store's engine in a worker thread (NodeWorkerEngine) rather than this one: for the local
   * server, whose event loop then accepts connections and writes answers while DuckDB works.
   */
  worker?: boolean;
}

/**
 * Opens the store in `dir`: an in-memory engine with every present dataset attached. Its host builds in a
 * worker thread, so saving the user's data works while the datasets stay attached.
 */
export async function openStore(dir: string, opts: OpenStoreOptions = {}): Promise<Store> {
  const storage = new FsStorage(dir);
  const host = new NodeHost(storage, { isolated: true });
  const store = new Store(await (opts.worker ? NodeWorkerEngine.open() : NodeEngine.open()), storage, host);
  await store.refresh();
  await store.openUser(host);
  return store;
}

export function nodeHost(dir: string): NodeHost {
  return new NodeHost(new FsStorage(dir));
}
