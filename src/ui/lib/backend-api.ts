import type { Engine } from '../../core/engine/engine.js';
import type { Service } from '../../core/sync/datasets.js';
import type { SyncEvent } from '../../core/sync/progress.js';
import type { SyncOutcome } from '../../core/sync/outcome.js';
import type { StoreState } from '../../core/sync/metadata.js';
import type { HistoryOptions } from '../../core/sync/refresh/history.js';
import type { ManifestReply } from '../../core/sync/manifest.js';
import type { AppConfig } from './app-config.js';
import type { ImportResult, Watch, WatchKind, WatchStatus } from '../../core/changes/watches.js';
import type { Changes } from '../../core/changes/shape.js';
import type { importAmfiText } from '../../core/amfi/import.js';

/** What an AMFI file import read (the core importer's summary). */
export type AmfiImportResult = Awaited<ReturnType<typeof importAmfiText>>;

/** One sync the user asked for: which datasets, from which base URLs. */
export interface SyncRequest {
  only: Service[];
  sources: Record<Service, string>;
  /** Tables not to fetch (the light choice: mf's `nav`, the NAV history). */
  skipTables?: Partial<Record<Service, string[]>>;
  /** The MF history: whole now ("Verify now"), or verified in full every so often (settings). */
  history?: HistoryOptions;
}

export type { SyncOutcome } from '../../core/sync/outcome.js';

/**
 * What the page hears: the sync engine's progress events for this window's sync, and `changed`
 * when the local data changed under it (another window's sync switched a generation), `changes`
 * when a sync of this window recorded what it changed (src/core/changes).
 */
export type BackendEvent = SyncEvent | { type: 'changed' } | { type: 'changes' };

/**
 * Where the app's data lives and who keeps it current, as the views see it. The browser's backend
 * syncs in a dedicated Web Worker into OPFS and queries DuckDB-WASM in another (browser-backend.ts);
 * the desktop's answers every call over IPC from Electron's main process (desktop-backend.ts).
 */
export interface Backend {
  /** The query engine over the local store: every synced dataset attached as its schema. */
  engine(): Promise<Engine>;
  /**
   * `compute` on the engine, or, while the engine is still starting, the answer kept for `key` under
   * the current data generation (the browser's AnswerCache). `key` names the question and every
   * input of it; `compute` reads synced data only, never the user's own tables.
   */
  answer<T>(key: string, compute: (engine: Engine) => Promise<T>): Promise<T>;
  /** Whether `answer` has answers kept for the current data generation, to give while the engine starts. */
  keptAnswers(): Promise<boolean>;
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
  /** A source's manifest asked with If-None-Match (the Data view's "is my copy current?"). */
  fetchManifest(service: Service, base: string, etag: string | null): Promise<ManifestReply>;
  /** The defaults the app starts from: the browser's served config.json, the desktop's settings. */
  appConfig(): Promise<Partial<AppConfig>>;
  /** The watchlist as stored (a small JSON document: reading and toggling take milliseconds). */
  watchList(): Promise<Watch[]>;
  /** Where each watch stands in the local data (pending, ended schemes and their successors). */
  watchStatus(): Promise<WatchStatus[]>;
  /** Watches (`on`) or stops watching; adding something the local data lacks rejects naming it. */
  setWatch(kind: WatchKind, id: string, on: boolean): Promise<void>;
  exportWatches(): Promise<string>;
  importWatches(text: string): Promise<ImportResult>;
  /** The last sync's changes, or every kept one since `since`, merged (the JSON of `changes --json`). */
  changes(since?: string | null): Promise<Changes>;
}
