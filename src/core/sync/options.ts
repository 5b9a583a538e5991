import type { Storage } from '../storage/storage.js';
import type { RateRule, Service } from './datasets.js';
import type { RetryPolicy } from './request.js';
import type { SyncHook } from './hooks.js';
import type { SyncLock } from './lock.js';
import type { DatabaseHost } from './host.js';
import type { Sleep } from './limits.js';
import type { HistoryChanges, SyncListener } from './progress.js';
import type { DatasetState, StateStore } from './metadata.js';

/** What a sync is given. Its own module, so the sync's steps (run.ts) read it without importing sync.ts. */
export interface SyncOptions {
  storage: Storage;
  host: DatabaseHost;
  /** Base URL shared by the three services (e.g. the embedded sample publisher). */
  source: string;
  /** Per-service base URL overriding `source`. */
  sources?: Partial<Record<Service, string>>;
  only?: readonly Service[];
  /**
   * Tables not to fetch, per service (a phone's light choice leaves out mf's `nav`, the NAV history).
   * A copy already stored keeps answering; nothing is deleted.
   */
  skipTables?: Partial<Record<Service, readonly string[]>>;
  fetch?: typeof fetch;
  onEvent?: SyncListener;
  /** Test hook: throwing from it stops the sync as a crash would. */
  hook?: SyncHook;
  /** Download-rate rules per service, replacing the published defaults. */
  rules?: Partial<Record<Service, readonly RateRule[]>>;
  retry?: Partial<RetryPolicy>;
  sleep?: Sleep;
  maxUnpackedBytes?: number;
  /**
   * Called after each switch, before the old generation is removed (a live store re-attaches here).
   * `history`: what a refresh of the MF history changed, when it ran (also in the summary's `history`).
   */
  onSwitch?: (service: Service, state: DatasetState, history?: HistoryChanges) => Promise<void>;
  /** Where the sync metadata lives (default: `state.json` in `storage`). */
  state?: StateStore;
  /** Held for the whole sync: a second sync of the same store is refused with `LockBusy`. */
  lock?: SyncLock;
  /**
   * Cancels the sync at its next safe point (a named step, a chunk, a wait): it rejects with
   * `Cancelled`, the previous generation keeps answering and partial downloads resume next time.
   */
  signal?: AbortSignal;
  /** How the MF history is refreshed: whole on demand (`--full`), verified in full every so often. */
  history?: HistoryOptions;
}

export interface HistoryOptions {
  /** Download the history whole and rebuild it, whatever a refresh could do (`sync --full`, "Verify now"). */
  full?: boolean;
  /** Download it whole when the last full download is older than this; null: never by itself. Default 7 days. */
  verifyEveryMs?: number | null;
}
