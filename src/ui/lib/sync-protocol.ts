import type { Service } from '../../core/sync/datasets.js';
import type { SyncStep } from '../../core/sync/hooks.js';
import type { HistoryChanges, SyncEvent } from '../../core/sync/progress.js';
import type { RateLog } from '../../core/sync/sync.js';
import type { SyncOutcome, SyncRequest } from './backend-api.js';

/**
 * Test seam of the kill campaign (test/e2e): the sync stops dead the `nth` time it reaches `step`, as
 * if the machine froze there, and says so; the test then closes the page.
 */
export interface PauseAt {
  step: SyncStep;
  nth: number;
}

/** Page → sync worker. */
export type ToWorker =
  /** `rateLog`: the download budget an earlier sync worker of this page spent (it ends when idle). */
  | { op: 'sync'; id: number; req: SyncRequest; pauseAt?: PauseAt; rateLog: RateLog }
  | { op: 'delete'; id: number; service: Service }
  | { op: 'cancel' }
  /** The page's store re-attached after a switch; the worker may now remove the old files. */
  | { op: 'refreshed'; seq: number };

/** Sync worker → page. */
export type FromWorker =
  | { type: 'event'; event: SyncEvent }
  /**
   * Re-attach the store now (a switch or a delete happened), then answer `refreshed`. `history`: what
   * the refresh of the MF history changed at this switch, for the page's change recorder.
   */
  | { type: 'refresh'; seq: number; history?: Partial<Record<Service, HistoryChanges>> }
  | { type: 'paused'; step: SyncStep }
  | { type: 'result'; id: number; outcome: SyncOutcome | { outcome: 'deleted' }; rateLog: RateLog };

/** Between tabs (BroadcastChannel): the store changed; `from` names the tab whose worker changed it. */
export interface StoreChanged {
  type: 'changed';
  from: string;
}
