import type { Engine } from '../../core/engine/engine.js';
import type { Service } from '../../core/sync/datasets.js';
import type { StoreState } from '../../core/sync/metadata.js';
import type { Store } from '../../core/database/store.js';
import { BROWSER_STORE, browserStoreParts, holdStore, openBrowserStore, type BrowserStoreParts } from '../../core/database/browser.js';
import { parsePricesCsv, storePrices } from '../../core/services/compare/import.js';
import { importAmfiText } from '../../core/amfi/import.js';
import { manifestPath } from '../../core/contract/files.js';
import type { ManifestReply } from '../../core/sync/manifest.js';
import type { RateLog } from '../../core/sync/sync.js';
import type { AmfiImportResult, Backend, BackendEvent, SyncOutcome, SyncRequest } from './backend-api.js';
import type { AppConfig } from './app-config.js';
import { AnswerCache } from './answer-cache.js';
import { plainCopy } from './plain-copy.js';
import type { FromWorker, PauseAt, StoreChanged, ToWorker } from './sync-protocol.js';
import { addWatch, exportWatches, importWatches, readWatches, removeWatch, settleWatches, type ImportResult, type Watch, type WatchKind, type WatchStatus } from '../../core/changes/watches.js';
import { ChangeRecorder } from '../../core/changes/recorder.js';
import { changesSince } from '../../core/changes/log.js';
import type { Changes } from '../../core/changes/shape.js';

/** The last config.json read (its sources made absolute), for a start with the network off. */
const SERVED_CONFIG = 'almanac-served-config';

/**
 * The browser's backend. Queries: the local store opened on this page, its DuckDB in a worker of its
 * own. Syncs and deletes: a dedicated sync worker (sync.worker.ts), started on first use. Metadata in
 * IndexedDB, files in OPFS, one Web Lock for changes across every tab.
 */
export class BrowserBackend implements Backend {
  private readonly parts: BrowserStoreParts = browserStoreParts();
  private storeReady: Promise<Store> | undefined;
  /** Set once this tab holds the origin's query store (see holdStore). */
  private holding = false;
  /** Set once the store is open: its engine answers from then on. */
  private open = false;
  private readonly answers = new AnswerCache(__ALMANAC_BUILD__);
  private worker: Worker | undefined;
  /** The download budget spent by this page's sync workers, handed to the next one (see syncWorker). */
  private rateLog: RateLog = {};
  private readonly tab = crypto.randomUUID();
  private readonly listeners = new Set<(e: BackendEvent) => void>();
  private readonly pending = new Map<number, (o: SyncOutcome | { outcome: 'deleted' }) => void>();
  private nextId = 0;
  private persistAsked: Promise<boolean> | undefined;
  /** Re-attaches one at a time: a switch here and one announced by another tab may overlap. */
  private refreshing: Promise<void> = Promise.resolve();
  /**
   * Records the changes of this tab's sync. The page's store holds the only OPFS handles of the old
   * files, so it compares, at each switch, before the worker removes the old files.
   */
  private recorder: ChangeRecorder | undefined;
  /** Test seam (sync-protocol.ts): told when a sync stopped at its pause point. */
  onPaused: ((step: string) => void) | null = null;

  /** `onWaitForStore`: the store is open in another tab; this one answers once that one closes. */
  constructor(private readonly onWaitForStore?: () => void) {
    new BroadcastChannel(BROWSER_STORE.channel).onmessage = (ev: MessageEvent<StoreChanged>) => {
      if (ev.data?.type !== 'changed' || ev.data.from === this.tab) return;
      void this.refresh().then(() => this.emit({ type: 'changed' }));
    };
  }

  private store(): Promise<Store> {
    this.storeReady ??= holdStore(this.onWaitForStore).then(async () => {
      this.holding = true;
      const store = await openBrowserStore(this.parts);
      this.open = true;
      return store;
    });
    return this.storeReady;
  }

  async engine(): Promise<Engine> {
    return (await this.store()).engine;
  }

  /**
   * Until the store is open (DuckDB-WASM starting, or another tab holding the store), the answer kept
   * for this generation; then the engine's, kept for the next start when the generation stood
   * throughout (answer-cache.ts).
   */
  async answer<T>(key: string, compute: (engine: Engine) => Promise<T>): Promise<T> {
    if (!this.open) {
      const kept = await this.answers.read<T>(key, this.parts.state.read().then((s) => JSON.stringify(s))).catch(() => undefined);
      if (kept !== undefined) return kept;
    }
    const store = await this.store();
    const generation = store.generation;
    const value = await compute(store.engine);
    // Kept after the caller has it (a macrotask later), so the write's JSON does not delay the view.
    if (generation !== null && store.generation === generation) {
      setTimeout(() => void this.answers.write(key, generation, value).catch(() => undefined));
    }
    return value;
  }

  async keptAnswers(): Promise<boolean> {
    return this.answers.holds(JSON.stringify(await this.parts.state.read()));
  }

  status(): Promise<StoreState> {
    return this.parts.state.read();
  }

  async sync(req: SyncRequest, pauseAt?: PauseAt): Promise<SyncOutcome> {
    // Ask once the user stores data: the browser may then keep it under storage pressure (the
    // Data view's storage card shows the answer and can ask again).
    this.persistAsked ??= navigator.storage?.persist?.().catch(() => false);
    // Only the tab holding the store can read the old files; another tab's sync goes unrecorded.
    const store = this.holding ? await this.store() : null;
    const recorder = store ? await ChangeRecorder.begin(this.parts.storage, this.parts.state) : undefined;
    this.recorder = recorder;
    const outcome = (await this.call({ op: 'sync', id: ++this.nextId, req, pauseAt, rateLog: this.rateLog })) as SyncOutcome;
    if (this.recorder === recorder) this.recorder = undefined;
    if (recorder && outcome.outcome === 'done' && (await recorder.finish(outcome.summary))) {
      this.emit({ type: 'changes' });
      // The kept changes' SQL tables (schema almanac) follow the files; the sync's answer need not wait.
      void this.refresh().catch((e: unknown) => console.error('rebuilding the kept changes tables failed', e));
    }
    return outcome;
  }

  async watchList(): Promise<Watch[]> {
    return (await readWatches(this.parts.storage)).watches;
  }

  async watchStatus(): Promise<WatchStatus[]> {
    return settleWatches(this.parts.storage, await this.engine());
  }

  async setWatch(kind: WatchKind, id: string, on: boolean): Promise<void> {
    if (on) await addWatch(this.parts.storage, await this.engine(), kind, id);
    else await removeWatch(this.parts.storage, kind, id);
  }

  exportWatches(): Promise<string> {
    return exportWatches(this.parts.storage);
  }

  async importWatches(text: string): Promise<ImportResult> {
    return importWatches(this.parts.storage, await this.engine(), text);
  }

  async changes(since?: string | null): Promise<Changes> {
    return changesSince(this.parts.storage, await this.parts.state.read(), since);
  }

  cancel(): void {
    this.worker?.postMessage({ op: 'cancel' } satisfies ToWorker);
  }

  subscribe(listener: (e: BackendEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async deleteDataset(service: Service): Promise<void> {
    const o = await this.call({ op: 'delete', id: ++this.nextId, service });
    if (o.outcome === 'busy' || o.outcome === 'failed') throw new Error(o.message);
  }

  async importPrices(csv: string): Promise<number> {
    const rows = parsePricesCsv(csv);
    const user = (await this.store()).user!;
    return user.mutate((engine) => storePrices(engine, rows));
  }

  async importAmfi(text: string, fileName: string): Promise<AmfiImportResult> {
    const user = (await this.store()).user!;
    return user.mutate((engine) => importAmfiText(engine, text, fileName));
  }

  async fetchManifest(service: Service, base: string, etag: string | null): Promise<ManifestReply> {
    const res = await fetch(`${base.replace(/\/+$/, '')}${manifestPath(service)}`, {
      headers: etag ? { 'If-None-Match': etag } : {},
      cache: 'no-store',
    });
    return { status: res.status, text: res.status === 200 ? await res.text() : null };
  }

  /**
   * config.json, network-first through the service worker. Offline, the last one read here: the
   * service worker holds it only once a page it controls has asked, and without it the sources fell
   * back to the page's origin, whose 404s then stood until a reload, online again. `{}` offline on a
   * first visit.
   */
  async appConfig(): Promise<Partial<AppConfig>> {
    try {
      const res = await fetch('./config.json', { cache: 'no-cache' });
      if (res.ok) {
        const served = (await res.json()) as Partial<AppConfig>;
        // A source may be a path on the app's own host (`/publisher`, a reverse proxy's rule): made
        // absolute against config.json's address, so one file serves whatever name the host is reached by.
        const absolute = (v: string) => new URL(v, res.url).href.replace(/\/+$/, '');
        if (served.sources) for (const k of Object.keys(served.sources) as (keyof AppConfig['sources'])[]) served.sources[k] = absolute(served.sources[k]);
        localStorage.setItem(SERVED_CONFIG, JSON.stringify(served));
        return served;
      }
    } catch {
      // Offline: below.
    }
    return JSON.parse(localStorage.getItem(SERVED_CONFIG) ?? '{}') as Partial<AppConfig>;
  }

  private call(m: Extract<ToWorker, { id: number }>): Promise<SyncOutcome | { outcome: 'deleted' }> {
    return new Promise((resolve) => {
      this.pending.set(m.id, resolve);
      this.syncWorker().postMessage(plainCopy(m));
    });
  }

  /**
   * Started for each sync or delete and ended once none is pending: a worker's WebAssembly memories
   * (parquet-wasm's, DuckDB's) never shrink, and an idle one kept ~120 MB of the tab after the full
   * MF sync (docs/performance.md, "Tab memory"). The download budget it spent comes back with its
   * result and goes to the next one.
   */
  private syncWorker(): Worker {
    if (this.worker) return this.worker;
    // The tab's id is the worker's name: its store-changed broadcasts are known as this tab's own.
    const w = new Worker(new URL('./sync.worker.ts', import.meta.url), { type: 'module', name: this.tab });
    w.onmessage = (ev: MessageEvent<FromWorker>) => void this.fromWorker(ev.data);
    w.onerror = (ev) => {
      for (const resolve of this.pending.values()) resolve({ outcome: 'failed', message: `the sync worker failed: ${ev.message}` });
      this.pending.clear();
    };
    this.worker = w;
    return w;
  }

  private async fromWorker(m: FromWorker): Promise<void> {
    switch (m.type) {
      case 'event':
        return this.emit(m.event);
      case 'refresh': {
        // This tab's sync switched: its changes are read from the old generation before the store
        // re-attaches and from the new one after (src/core/changes/recorder.ts).
        const recorder = this.recorder;
        const state = await this.parts.state.read();
        const switching = recorder?.switching(state) ?? [];
        const engine = switching.length ? (await this.store()).engine : null;
        for (const service of switching) await recorder!.beforeSwitch(service, engine!, m.history?.[service]);
        // Answered even if re-attaching failed: the worker's clean-up then leaves the files it cannot remove.
        const ok = await this.refresh().then(() => true, (e: unknown) => (console.error('re-attaching the store failed', e), false));
        if (ok) for (const service of switching) await recorder!.afterSwitch(service, state.datasets[service]!, engine!, m.history?.[service]);
        this.worker!.postMessage({ op: 'refreshed', seq: m.seq } satisfies ToWorker);
        return;
      }
      case 'paused':
        return this.onPaused?.(m.step);
      case 'result':
        this.rateLog = m.rateLog;
        this.pending.get(m.id)?.(m.outcome);
        this.pending.delete(m.id);
        if (this.pending.size === 0) {
          this.worker?.terminate();
          this.worker = undefined;
        }
    }
  }

  /** Re-attaches what the state names now; a tab still waiting for the store reads it when it opens. */
  private refresh(): Promise<void> {
    if (!this.holding) return Promise.resolve();
    const next = this.refreshing.then(async () => (await this.store()).refresh());
    this.refreshing = next.catch(() => undefined);
    return next;
  }

  private emit(e: BackendEvent): void {
    for (const l of this.listeners) l(e);
  }
}
