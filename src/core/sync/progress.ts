import type { Service } from './datasets.js';

/** Outcome of one file in a sync, as the CLI's --json summary prints it. */
export type FileStatus = 'downloaded' | 'resumed' | 'not_modified' | 'failed';

/** What the sync engine reports while it works (the UI's sync panel and the CLI's progress bar). */
export type SyncEvent =
  | { type: 'manifest'; service: Service; status: 'fetched' | 'not_modified' }
  | { type: 'file-start'; service: Service; file: string; total: number; offset: number }
  | { type: 'progress'; service: Service; file: string; bytes: number; total: number; rate: number; eta: number | null }
  | { type: 'waiting'; service: Service; file: string | null; reason: 'rate-limit' | 'retry-after' | 'backoff'; seconds: number }
  | { type: 'file-done'; service: Service; file: string; status: FileStatus; body_bytes: number; error?: string }
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
}

export interface SyncSummary {
  files: FileResult[];
  body_bytes: number;
  requests: number;
  /** Generation now current per service (unchanged when nothing new arrived). */
  generations: Partial<Record<Service, number>>;
  errors: string[];
}
