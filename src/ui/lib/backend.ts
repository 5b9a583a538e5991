import type { Engine } from '../../core/engine/engine.js';
import type { Service } from '../../core/sync/datasets.js';
import type { SyncEvent, SyncSummary } from '../../core/sync/progress.js';
import type { StoreState } from '../../core/sync/state.js';
import { BrowserBackend } from './browser-backend.js';
import type { importAmfiText } from '../../core/amfi/import.js';

export type AmfiImportResult = Awaited<ReturnType<typeof importAmfiText>>;
import { engineState } from './engine.svelte.js';

/** One sync the user asked for: which datasets, from which base URLs. */
export interface SyncRequest {
  only: Service[];
  sources: Record<Service, string>;
}

/** How a sync ended. Failures of files and datasets are in the summary; `failed` is the sync itself. */
export type SyncOutcome =
  | { outcome: 'done'; summary: SyncSummary }
  /** Stopped by `cancel()`: the previous data answers, partial downloads resume next time. */
  | { outcome: 'cancelled' }
  /** Refused: another sync of the same store is running (another tab, window or process). */
  | { outcome: 'busy'; message: string }
  | { outcome: 'failed'; message: string };

/**
 * What the page hears: the sync engine's progress events for this window's sync, and `changed`
 * when the local data changed under it (another window's sync switched a generation).
 */
export type BackendEvent = SyncEvent | { type: 'changed' };

/**
 * Where the app's data lives and who keeps it current, as the views see it. The browser's backend
 * syncs in a dedicated Web Worker into OPFS and queries DuckDB-WASM in another (browser-backend.ts);
 * the desktop shell can answer the same calls over IPC from its main process.
 */
export interface Backend {
  /** The query engine over the local store: every synced dataset attached as its schema. */
  engine(): Promise<Engine>;
  /** The sync metadata: per dataset its generation, files, tables; the user's format choices. */
  status(): Promise<StoreState>;
  sync(req: SyncRequest): Promise<SyncOutcome>;
  /** Stops the running sync at its next safe point; `sync` then resolves `cancelled`. */
  cancel(): void;
  /** Returns the unsubscribe function. */
  subscribe(listener: (e: BackendEvent) => void): () => void;
  /** Forgets a dataset and removes its files; rejects with the reason (e.g. a sync is running). */
  deleteDataset(service: Service): Promise<void>;
  /** Parses and stores a prices CSV as `user.prices`; returns the rows stored. */
  importPrices(csv: string): Promise<number>;
  /** Imports one AMFI NAV text file into `user.amfi_nav` with the core's importer; what was read. */
  importAmfi(text: string, fileName: string): Promise<AmfiImportResult>;
}

let current: Backend | undefined;

/** The app's one backend (the browser's; the desktop shell will install its IPC one here). */
export function backend(): Backend {
  current ??= new BrowserBackend(() => {
    engineState.note = 'Almanac is open in another tab: this one answers once that tab is closed.';
  });
  return current;
}
