/// <reference lib="webworker" />
/**
 * The browser's sync, off the page's thread: manifests, downloads into OPFS, parquet decoding and
 * the ingest's orchestration all run here, so the UI never blocks. The page's store (its own DuckDB
 * worker) is asked to re-attach at each switch before the old generation's files go.
 */
import { withLock } from '../../core/sync/lock.js';
import { outcomeOf, type SyncOutcome } from '../../core/sync/outcome.js';
import { rateLog, seedRateLog, sync } from '../../core/sync/sync.js';
import { deleteDataset } from '../../core/sync/metadata.js';
import { BROWSER_STORE, browserStoreParts } from '../../core/database/browser.js';
import { initParquet } from './parquet.js';
import type { Service } from '../../core/sync/datasets.js';
import type { HistoryChanges } from '../../core/sync/progress.js';
import type { DatasetState } from '../../core/sync/metadata.js';
import type { FromWorker, PauseAt, StoreChanged, ToWorker } from './sync-protocol.js';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const parts = browserStoreParts();
const channel = new BroadcastChannel(BROWSER_STORE.channel);
/** Every sync this worker runs (a second one is refused by the lock, but must not hide the first). */
const running = new Set<AbortController>();
let seq = 0;
const refreshed = new Map<number, () => void>();

function post(m: FromWorker): void {
  scope.postMessage(m);
}

/**
 * The page's store and every other tab's re-attach; this page's is awaited (its handles must go). At a
 * switch (the sync's `onSwitch`), what a refresh of the MF history changed goes with it.
 */
async function storeChanged(service?: Service, _state?: DatasetState, history?: HistoryChanges): Promise<void> {
  channel.postMessage({ type: 'changed', from: scope.name } satisfies StoreChanged);
  const n = ++seq;
  await new Promise<void>((resolve) => {
    refreshed.set(n, resolve);
    post({ type: 'refresh', seq: n, history: service && history ? { [service]: history } : undefined });
  });
}

function pauseHook(p: PauseAt | undefined) {
  if (!p) return undefined;
  let seen = 0;
  return async (step: string) => {
    if (step !== p.step || ++seen !== p.nth) return;
    post({ type: 'paused', step: p.step });
    await new Promise(() => {});
  };
}

async function run(m: Extract<ToWorker, { op: 'sync' | 'delete' }>): Promise<SyncOutcome | { outcome: 'deleted' }> {
  if (m.op === 'delete') {
    await withLock(parts.lock, () => deleteDataset(parts.storage, parts.state, m.service, storeChanged));
    return { outcome: 'deleted' };
  }
  seedRateLog(m.rateLog);
  // parquet-wasm's browser build loads its wasm before first use (precached, so offline too).
  await initParquet();
  const ac = new AbortController();
  running.add(ac);
  try {
    const summary = await sync({
      ...parts,
      source: m.req.sources[m.req.only[0]],
      sources: m.req.sources,
      only: m.req.only,
      skipTables: m.req.skipTables,
      history: m.req.history,
      signal: ac.signal,
      hook: pauseHook(m.pauseAt),
      // Bound: the sync engine calls it as a method of its own object, which `fetch` refuses.
      fetch: (input, init) => fetch(input, init),
      onEvent: (event) => post({ type: 'event', event }),
      onSwitch: storeChanged,
    });
    return { outcome: 'done', summary };
  } finally {
    running.delete(ac);
  }
}

scope.onmessage = async (ev: MessageEvent<ToWorker>) => {
  const m = ev.data;
  if (m.op === 'cancel') {
    for (const ac of running) ac.abort();
    return;
  }
  if (m.op === 'refreshed') {
    refreshed.get(m.seq)?.();
    refreshed.delete(m.seq);
    return;
  }
  const outcome = await run(m).catch(outcomeOf);
  post({ type: 'result', id: m.id, outcome, rateLog: rateLog() });
};
