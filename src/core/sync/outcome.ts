import { Cancelled } from './hooks.js';
import { LockBusy } from './lock.js';
import type { SyncSummary } from './progress.js';

/**
 * How a sync ended, as a front door that cannot pass exceptions along (a worker, IPC) reports it.
 * Failures of files and datasets are in the summary; `failed` is the sync itself.
 */
export type SyncOutcome =
  | { outcome: 'done'; summary: SyncSummary }
  /** Stopped by its AbortSignal: the previous data answers, partial downloads resume next time. */
  | { outcome: 'cancelled' }
  /** Refused: another sync of the same store is running (another tab, window or process). */
  | { outcome: 'busy'; message: string }
  | { outcome: 'failed'; message: string };

/** The outcome of a sync that threw `e`. */
export function outcomeOf(e: unknown): SyncOutcome {
  if (e instanceof Cancelled) return { outcome: 'cancelled' };
  if (e instanceof LockBusy) return { outcome: 'busy', message: e.message };
  return { outcome: 'failed', message: e instanceof Error ? e.message : String(e) };
}
