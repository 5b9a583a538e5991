import { sync } from '../../core/sync/sync.js';
import { files, readState, writeState, type StoreState } from '../../core/sync/state.js';
import type { SyncListener, SyncSummary } from '../../core/sync/progress.js';
import type { Service } from '../../core/sync/datasets.js';
import { Store } from '../../core/store/store.js';
import type { UserData } from '../../core/store/user.js';
import { parsePricesCsv, storePrices } from '../../core/services/compare/import.js';
import { initParquet } from './parquet.js';
import { OpfsStorage } from './opfs-storage.js';
import { BrowserHost } from './browser-host.js';
import { BrowserEngine } from '../../core/engine/browser.js';

export interface BrowserStore {
  store: Store;
  storage: OpfsStorage;
  host: BrowserHost;
  /** The user's own data (imported prices) as schema `user`. */
  user: UserData;
}

let ready: Promise<BrowserStore> | undefined;

/** The local store: OPFS database files ATTACHed as schemas into one DuckDB worker, opened once. */
export function getStore(): Promise<BrowserStore> {
  ready ??= (async () => {
    const storage = new OpfsStorage();
    const host = new BrowserHost(storage);
    const store = new Store(await BrowserEngine.open(), storage, host);
    await store.refresh();
    const user = await store.openUser(host);
    return { store, storage, host, user };
  })();
  return ready;
}

export async function storeState(): Promise<StoreState> {
  return readState((await getStore()).storage);
}

/** One sync of the chosen sources; each switched dataset is re-attached as soon as it is current. */
export async function runSync(only: Service[], sources: Record<Service, string>, onEvent: SyncListener): Promise<SyncSummary> {
  const { store, storage, host } = await getStore();
  // The ingest decodes parquet with parquet-wasm, whose browser build needs its wasm loaded first.
  await initParquet();
  const summary = await sync({
    storage,
    host,
    source: sources[only[0]],
    sources,
    only,
    // Bound: the sync engine calls it as a method of its own object, which `fetch` refuses.
    fetch: (input, init) => fetch(input, init),
    onEvent,
    onSwitch: () => store.refresh(),
  });
  await store.refresh();
  return summary;
}

/**
 * Forgets a dataset: the state switch first (so nothing points at the files), then DETACH, then the
 * files. Composed from the store's own operations.
 */
export async function deleteLocal(service: Service): Promise<void> {
  const { store, storage } = await getStore();
  const state = await readState(storage);
  const { [service]: _gone, ...rest } = state.datasets;
  await writeState(storage, { ...state, datasets: rest });
  await store.refresh();
  for (const name of await storage.list()) if (files.belongsTo(service, name)) await storage.remove(name);
}

/** Parses and stores a prices CSV with the core's importer; returns the rows stored. */
export async function importPrices(csv: string): Promise<number> {
  const rows = parsePricesCsv(csv);
  const { user } = await getStore();
  return user.mutate((engine) => storePrices(engine, rows));
}
