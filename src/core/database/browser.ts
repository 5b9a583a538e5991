import { DuckDBDataProtocol } from '@duckdb/duckdb-wasm';
import { tableToIPC, type Table } from 'apache-arrow';
import { createStore, get, update } from 'idb-keyval';
import { BrowserEngine } from '../engine/browser.js';
import type { Engine } from '../engine/engine.js';
import type { AttachHost, DatabaseHost } from '../sync/host.js';
import { rowGroupsHere, type RowGroups } from '../sync/row-groups.js';
import { webLock, type SyncLock } from '../sync/lock.js';
import { normalizeState, type StateStore, type StoreState } from '../sync/metadata.js';
import { OpfsStorage } from '../storage/opfs.js';
import { storeName } from '../storage/storage.js';
import { Store } from './store.js';

const opfs = (name: string) => `opfs://${storeName(name)}`;

function browser(engine: Engine): BrowserEngine {
  if (!(engine instanceof BrowserEngine)) throw new Error('the browser host needs a BrowserEngine');
  return engine;
}

/**
 * How the browser builds and attaches store files (docs/storage.md). A new database is the main file
 * of a DuckDB worker of its own; database files are opened through OPFS, registering the file AND its
 * WAL; other inputs (csv, csv.gz) are read through their File objects.
 */
export class BrowserHost implements DatabaseHost, AttachHost {
  /** The database file each build engine created, so release() can remove its log. */
  private readonly built = new WeakMap<Engine, string>();

  constructor(readonly storage: OpfsStorage) {}

  async createDatabase(name: string): Promise<Engine> {
    const engine = await BrowserEngine.open({ path: opfs(name) });
    this.built.set(engine, name);
    return engine;
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

  async rowGroups(name: string): Promise<RowGroups> {
    return rowGroupsHere(await this.storage.blob(name));
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

  /**
   * Terminating the worker releases every OPFS access handle it held. A built database's log goes
   * too: DuckDB deletes the log after each checkpoint, but DuckDB-WASM's browser runtime removes no
   * file, so a log written before a checkpoint stays. When DuckDB checkpointed by itself mid-build
   * (a large commit does: the full MF history, never the small test data), nothing marks that stale
   * log as done, and the next ATTACH replays it: "Failure while replaying WAL file … Table with name
   * data_quality already exists", and the dataset cannot be read. The build ends with a CHECKPOINT,
   * so everything is in the file; a failed build is discarded anyway.
   */
  async release(engine: Engine): Promise<void> {
    await engine.close();
    const name = this.built.get(engine);
    if (name) await removeOnceFree(this.storage, `${name}.wal`);
  }
}

/**
 * Removes a store file that a terminated worker held: the browser lets go of its OPFS access handles
 * a little after `terminate()`, and until then removing fails with NoModificationAllowedError.
 */
async function removeOnceFree(storage: OpfsStorage, name: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await storage.remove(name);
    } catch (e) {
      if ((e as DOMException).name !== 'NoModificationAllowedError' || Date.now() > end) {
        throw new Error(`${name} could not be removed after the build (${(e as Error).message}); the next sync retries`);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

/**
 * The sync metadata in IndexedDB (idb-keyval), one record. `update` is one readwrite transaction, so
 * the generation switch is one atomic write that every tab and worker of the origin sees at once.
 */
export function idbState(dbName = 'almanac'): StateStore {
  const db = createStore(dbName, 'sync');
  const KEY = 'state';
  return {
    read: async () => normalizeState(await get<StoreState>(KEY, db)),
    async update(change) {
      let next!: StoreState;
      await update<StoreState>(KEY, (old) => (next = change(normalizeState(old))), db);
      return next;
    },
  };
}

/** Names every tab and worker of the origin agrees on. */
export const BROWSER_STORE = {
  /** The Web Lock a sync or a delete holds. */
  lock: 'almanac-sync',
  /** The Web Lock of the one query store of the origin (OPFS access handles are exclusive). */
  store: 'almanac-store',
  /** Where a sync announces a switch, so other tabs' stores re-attach. */
  channel: 'almanac-store',
} as const;

/** What the browser store is made of: files in OPFS, metadata in IndexedDB, one lock for changes. */
export interface BrowserStoreParts {
  storage: OpfsStorage;
  host: BrowserHost;
  state: StateStore;
  lock: SyncLock;
}

export function browserStoreParts(): BrowserStoreParts {
  const storage = new OpfsStorage();
  return { storage, host: new BrowserHost(storage), state: idbState(), lock: webLock(BROWSER_STORE.lock) };
}

/**
 * Waits until this context may open the query store, then holds that right until it goes away.
 * DuckDB opens OPFS files through sync access handles, which are exclusive: two tabs cannot attach
 * the same database file, so one store per origin is open at a time and a second tab waits for the
 * first to close. `onWait` is called if it has to wait.
 */
export async function holdStore(onWait?: () => void): Promise<void> {
  const forever = () => new Promise<never>(() => {});
  const got = await new Promise<boolean>((resolve, reject) => {
    navigator.locks.request(BROWSER_STORE.store, { ifAvailable: true }, (lock) => {
      resolve(lock !== null);
      return lock ? forever() : undefined;
    }).catch(reject);
  });
  if (got) return;
  onWait?.();
  await new Promise<void>((resolve, reject) => {
    navigator.locks.request(BROWSER_STORE.store, () => {
      resolve();
      return forever();
    }).catch(reject);
  });
}

/** The local store for queries: OPFS database files ATTACHed as schemas into one DuckDB worker. */
export async function openBrowserStore(parts: BrowserStoreParts = browserStoreParts()): Promise<Store> {
  const store = new Store(await BrowserEngine.open(), parts.storage, parts.host, parts.state);
  await store.refresh();
  await store.openUser(parts.host);
  return store;
}
