/**
 * The test harness page: the app's own browser backend (sync worker, OPFS, IndexedDB, Web Locks)
 * without its views, driven by page.evaluate through `window.harness`.
 */
import { BrowserBackend } from '../../../src/ui/lib/browser-backend.js';
import type { SyncRequest } from '../../../src/ui/lib/backend-api.js';
import type { PauseAt } from '../../../src/ui/lib/sync-protocol.js';
import type { SyncEvent } from '../../../src/core/sync/progress.js';
import type { FormatChoice, Service } from '../../../src/core/sync/datasets.js';
import { BrowserEngine } from '../../../src/core/engine/browser.js';
import { browserStoreParts, idbState } from '../../../src/core/database/browser.js';
import { setChoice } from '../../../src/core/sync/metadata.js';
import { originUsage } from '../../../src/core/storage/opfs.js';

const backend = new BrowserBackend();
const events: SyncEvent[] = [];
backend.subscribe((e) => {
  if (e.type !== 'changed' && e.type !== 'changes') events.push(e);
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
  /** Wall times of `calls` calls of MF bench case `index` (bench/mf.ts), in the services worker. */
  time: (index: number, calls: number) => ask<{ name: string; ms: number[] }>({ op: 'time', index, calls }),
  checksums: (service: Service) => ask<{ generation: number; tables: Record<string, { n: number; h: string }> }>({ op: 'checksums', service }),
  /** Lets go of the store (its OPFS handles and the store lock), as closing a tab would. */
  closeStore: () => {
    services?.terminate();
    services = null;
  },
  /**
   * The browser host's build recipe where DuckDB checkpoints by itself mid-build, as it does loading
   * the full MF history: create a database, commit several times past a small checkpoint threshold,
   * CHECKPOINT, release, remove the log as the sync does; then a fresh engine attaches the file as the
   * store would. Returns the row counts it sees, or the error.
   */
  rebuiltAttach: async (name: string) => {
    const { host, storage } = browserStoreParts();
    const build = await host.createDatabase(name);
    try {
      await build.exec("SET checkpoint_threshold = '1MB'");
      await build.exec('CREATE TABLE small AS SELECT range AS i, range::VARCHAR AS s FROM range(1000)');
      await build.exec('CREATE TABLE big AS SELECT range AS i, range::VARCHAR AS s FROM range(300000)');
      for (let k = 1; k <= 3; k++) await build.exec(`INSERT INTO big SELECT range AS i, range::VARCHAR AS s FROM range(${k * 300000}, ${(k + 1) * 300000})`);
      await build.exec('CHECKPOINT');
    } finally {
      await host.release(build);
    }
    await storage.remove(`${name}.wal`).catch(() => undefined);
    const reader = await BrowserEngine.open();
    try {
      await reader.exec(`ATTACH '${await host.attachPath(reader, name)}' AS rebuilt`);
      return await reader.all<{ small: number; big: number }>('SELECT (SELECT count(*) FROM rebuilt.small) AS small, (SELECT count(*) FROM rebuilt.big) AS big');
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    } finally {
      await reader.close();
    }
  },
  opfs: async () => {
    const out: string[] = [];
    for await (const [name] of (await navigator.storage.getDirectory()) as unknown as AsyncIterable<[string, unknown]>) out.push(name);
    return out.sort();
  },
  /** Prices into the user's tables: the page saves a new user database and removes the previous one. */
  importPrices: (csv: string) => backend.importPrices(csv),
  /** The browser's estimate as given (Chromium itemises it) and as the app counts it. */
  usage: async () => ({ estimate: (await navigator.storage.estimate()) as StorageEstimate & { usageDetails?: Record<string, number> }, counted: await originUsage() }),
};

(window as unknown as { harness: typeof harness }).harness = harness;
document.body.dataset.ready = 'yes';
