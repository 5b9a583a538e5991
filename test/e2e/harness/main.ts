/**
 * The test harness page: the app's own browser backend (sync worker, OPFS, IndexedDB, Web Locks)
 * without its views, driven by page.evaluate through `window.harness`.
 */
import { BrowserBackend } from '../../../src/ui/lib/browser-backend.js';
import type { SyncRequest } from '../../../src/ui/lib/backend.js';
import type { PauseAt } from '../../../src/ui/lib/sync-protocol.js';
import type { SyncEvent } from '../../../src/core/sync/progress.js';
import type { FormatChoice, Service } from '../../../src/core/sync/datasets.js';
import { idbState } from '../../../src/core/store/browser.js';
import { setChoice } from '../../../src/core/sync/state.js';

const backend = new BrowserBackend();
const events: SyncEvent[] = [];
backend.subscribe((e) => {
  if (e.type !== 'changed') events.push(e);
});
let reportPause: (step: string) => void;
const paused = new Promise<string>((resolve) => (reportPause = resolve));
backend.onPaused = (step) => reportPause(step);

let services: Worker | null = null;
let seq = 0;
function ask<T>(m: Record<string, unknown>): Promise<T> {
  services ??= new Worker(new URL('./services.worker.ts', import.meta.url), { type: 'module' });
  const id = ++seq;
  const w = services;
  return new Promise((resolve, reject) => {
    const on = (ev: MessageEvent<{ id: number; value?: T; error?: string }>) => {
      if (ev.data.id !== id) return;
      w.removeEventListener('message', on);
      if (ev.data.error) reject(new Error(ev.data.error));
      else resolve(ev.data.value as T);
    };
    w.addEventListener('message', on);
    w.postMessage({ ...m, id });
  });
}

const harness = {
  sync: (req: SyncRequest, pauseAt?: PauseAt) => backend.sync(req, pauseAt),
  /** Resolves when a sync started with `pauseAt` reached it (one paused sync per page: it never goes on). */
  paused: () => paused,
  /** A dataset's format choice, stored in the sync metadata where the sync reads it. */
  choose: (service: Service, choice: FormatChoice) => setChoice(idbState(), service, choice),
  status: () => backend.status(),
  events: () => events,
  calls: () => ask<Record<string, unknown>>({ op: 'calls' }),
  checksums: (service: Service) => ask<{ generation: number; tables: Record<string, { n: number; h: string }> }>({ op: 'checksums', service }),
  /** Lets go of the store (its OPFS handles and the store lock), as closing a tab would. */
  closeStore: () => {
    services?.terminate();
    services = null;
  },
  opfs: async () => {
    const out: string[] = [];
    for await (const [name] of (await navigator.storage.getDirectory()) as unknown as AsyncIterable<[string, unknown]>) out.push(name);
    return out.sort();
  },
};

(window as unknown as { harness: typeof harness }).harness = harness;
document.body.dataset.ready = 'yes';
