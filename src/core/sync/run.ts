import type { SyncOptions } from './options.js';
import type { PlannedFile, Service } from './datasets.js';
import { Cancelled, Crash } from './hooks.js';
import type { Exchange } from './request.js';
import type { FileResult, SyncSummary } from './progress.js';
import type { DatasetState, SourceState, StateStore } from './metadata.js';

/** What sync's steps use: the options with the state store resolved and cancellation wired in. */
export interface Run extends SyncOptions {
  state: StateStore;
}

/** One dataset's sync as its steps share it: fetching files, refreshing the MF history, building. */
export interface DatasetRun {
  opts: Run;
  service: Service;
  /** The publisher's base URL for this dataset. */
  base: string;
  prev: DatasetState | undefined;
  /** The generation being built. */
  generation: number;
  now: string;
  summary: SyncSummary;
  /** The source of each table of the generation being built, by manifest file name. */
  sources: Record<string, SourceState>;
  /** Files that failed, with why. */
  failed: string[];
  exchange(file: string | null): Exchange;
}

/** A crash or a cancellation stops the whole sync; no per-file or per-service handler keeps going. */
export function rethrowStop(e: unknown, opts: Run): void {
  if (e instanceof Crash) throw e;
  if (opts.signal?.aborted) throw new Cancelled();
}

export function sourceOf(file: PlannedFile, store: string, etag: string | null, bytes: number, at: string): SourceState {
  return { file: file.name, suffix: file.suffix, store, etag, bytes, tables: file.tables, rows: file.rows, fetched_at: at };
}

export function record(opts: SyncOptions, summary: SyncSummary, r: FileResult) {
  summary.files.push(r);
  const { service, name: file, status, body_bytes, error, refresh, reason, detail } = r;
  opts.onEvent?.({ type: 'file-done', service, file, status, body_bytes, error, refresh, reason, detail });
}
