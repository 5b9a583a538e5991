import type { Service } from './datasets.js';

/** Outcome of one file in a sync, as the CLI's --json summary prints it. */
export type FileStatus = 'downloaded' | 'resumed' | 'not_modified' | 'patched' | 'failed';

/** How the MF history was brought up to date (docs/sync.md, "The history, refreshed by what changed"). */
export type HistoryRefresh = 'append' | 'ranges' | 'full';

/** What the sync engine reports while it works (the UI's sync panel and the CLI's progress bar). */
export type SyncEvent =
  | { type: 'manifest'; service: Service; status: 'fetched' | 'not_modified' }
  | { type: 'file-start'; service: Service; file: string; total: number; offset: number }
  | { type: 'progress'; service: Service; file: string; bytes: number; total: number; rate: number; eta: number | null }
  | { type: 'waiting'; service: Service; file: string | null; reason: 'rate-limit' | 'retry-after' | 'backoff'; seconds: number }
  | { type: 'file-done'; service: Service; file: string; status: FileStatus; body_bytes: number; error?: string; refresh?: HistoryRefresh; reason?: string; detail?: string }
  /** A table's load under way: rows moved so far, of `total` when the manifest announces it. */
  | { type: 'ingest-progress'; service: Service; table: string; file: string; rows: number; total: number | null }
  | { type: 'ingest'; service: Service; table: string; file: string; rows: number }
  | { type: 'switched'; service: Service; generation: number }
  | { type: 'service-failed'; service: Service; error: string };

export type SyncListener = (e: SyncEvent) => void;

export interface FileResult {
  service: Service;
  name: string;
  status: FileStatus;
  body_bytes: number;
  error?: string;
  /** The MF history only: how it was refreshed, and why it had to come whole. */
  refresh?: HistoryRefresh;
  reason?: string;
  /** The MF history only, in words: "appended 1 day from the latest snapshot". */
  detail?: string;
}

export interface SyncSummary {
  files: FileResult[];
  body_bytes: number;
  requests: number;
  /** Generation now current per service (unchanged when nothing new arrived). */
  generations: Partial<Record<Service, number>>;
  errors: string[];
  /** Per service whose history was refreshed and switched: what it took in (docs/sync.md). */
  history?: Partial<Record<Service, HistoryChanges>>;
}

/** One MF history row by its key. */
export interface NavKey {
  scheme_code: number;
  /** YYYY-MM-DD */
  date: string;
}

/**
 * What a refresh of the MF history changed, for whoever compares the old and new generations while the
 * old one is still readable (before the clean-up step). `appended`/`revised` are null when the file came
 * whole: then only a comparison of the two generations can tell.
 */
export interface HistoryChanges {
  refresh: HistoryRefresh;
  detail: string;
  reason?: string;
  /** Keys the history gained (new days, from the snapshot and the NAV endpoint). */
  appended: NavKey[] | null;
  /** Keys whose NAV was replaced, with the value before and after (as exact decimal text). */
  revised: (NavKey & { old: string | null; new: string })[] | null;
}
