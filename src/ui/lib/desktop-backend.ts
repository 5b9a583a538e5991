import { tableFromIPC, type Table } from 'apache-arrow';
import type { Engine, Param, Row } from '../../core/engine/engine.js';
import { tableToColumns } from '../../core/engine/rows.js';
import type { Service } from '../../core/sync/datasets.js';
import type { ManifestReply } from '../../core/sync/manifest.js';
import type { SyncOutcome } from '../../core/sync/outcome.js';
import type { StoreState } from '../../core/sync/metadata.js';
import type { Channel, DesktopBridge, DesktopInfo } from '../../desktop/channels.js';
import type { DesktopSettings } from '../../desktop/settings.js';
import type { AmfiImportResult, Backend, BackendEvent, SyncRequest } from './backend-api.js';
import type { AppConfig } from './app-config.js';
import type { ImportResult, Watch, WatchKind, WatchStatus } from '../../core/changes/watches.js';
import type { Changes } from '../../core/changes/shape.js';
import { plainCopy } from './plain-copy.js';

/** The bridge electron/preload.js exposes, when this page runs in the desktop app. */
export function desktopBridge(): DesktopBridge | null {
  return (globalThis as { almanacDesktop?: DesktopBridge }).almanacDesktop ?? null;
}

/**
 * Electron rejects an invoke with "Error invoking remote method 'ch': Error: message"; the user
 * should read only the message the core gave.
 */
export function ipcMessage(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.replace(/^Error invoking remote method '[^']*': /, '').replace(/^(\w*Error): /, '');
}

type Invoke = <T>(channel: Channel, args?: unknown) => Promise<T>;

/**
 * The desktop's backend: every call goes over the preload's bridge to the core in Electron's main
 * process (src/desktop/core.ts), which holds the one store the window and the local server share.
 */
export class DesktopBackend implements Backend {
  private readonly listeners = new Set<(e: BackendEvent) => void>();
  private current: Engine | undefined;
  private readonly invoke: Invoke;

  constructor(bridge: DesktopBridge) {
    this.invoke = async <T>(channel: Channel, args?: unknown) => {
      try {
        return (await bridge.invoke(channel, plainCopy(args))) as T;
      } catch (e) {
        throw new Error(ipcMessage(e));
      }
    };
    bridge.onSyncProgress((e) => {
      for (const l of this.listeners) l(e);
    });
  }

  /** A new engine after each change: the main process reopened the store, and the window's temp views went with it. */
  async engine(): Promise<Engine> {
    this.current ??= ipcEngine(this.invoke);
    return this.current;
  }

  async keptAnswers(): Promise<boolean> {
    return false;
  }

  /** No cache: the main process's store is up before the window is, and answers at once. */
  async answer<T>(_key: string, compute: (engine: Engine) => Promise<T>): Promise<T> {
    return compute(await this.engine());
  }

  status(): Promise<StoreState> {
    return this.invoke('sync:status');
  }

  async sync(req: SyncRequest): Promise<SyncOutcome> {
    try {
      const outcome = await this.invoke<SyncOutcome>('sync:run', { only: req.only, sources: req.sources, history: req.history });
      // The main process recorded what the sync changed (src/core/changes) before it answered.
      if (outcome.outcome === 'done') for (const l of this.listeners) l({ type: 'changes' });
      return outcome;
    } catch (e) {
      return { outcome: 'failed', message: e instanceof Error ? e.message : String(e) };
    } finally {
      this.current = undefined;
    }
  }

  cancel(): void {
    void this.invoke('sync:cancel');
  }

  subscribe(listener: (e: BackendEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async deleteDataset(service: Service): Promise<void> {
    try {
      await this.invoke('store:delete', { service });
    } finally {
      this.current = undefined;
    }
  }

  async importPrices(csv: string): Promise<number> {
    try {
      return (await this.invoke<{ rows: number }>('store:import-prices', { csv })).rows;
    } finally {
      this.current = undefined;
    }
  }

  async importAmfi(text: string, fileName: string): Promise<AmfiImportResult> {
    try {
      return await this.invoke<AmfiImportResult>('store:import-amfi', { text, fileName });
    } finally {
      this.current = undefined;
    }
  }

  fetchManifest(service: Service, base: string, etag: string | null): Promise<ManifestReply> {
    return this.invoke('source:manifest', { service, base, etag });
  }

  async appConfig(): Promise<Partial<AppConfig>> {
    const { settings } = await this.settings();
    const s = settings.source;
    return s ? { sources: { indicators: s, mf: s, flags: s } } : {};
  }

  watchList(): Promise<Watch[]> {
    return this.invoke('watch:list');
  }

  watchStatus(): Promise<WatchStatus[]> {
    return this.invoke('watch:status');
  }

  async setWatch(kind: WatchKind, id: string, on: boolean): Promise<void> {
    await this.invoke('watch:set', { kind, id, on });
  }

  exportWatches(): Promise<string> {
    return this.invoke('watch:export');
  }

  importWatches(text: string): Promise<ImportResult> {
    return this.invoke('watch:import', { text });
  }

  changes(since?: string | null): Promise<Changes> {
    return this.invoke('changes:get', { since: since ?? null });
  }

  /** The desktop's own settings, the local server's state and where the data lives (the settings panel). */
  settings(): Promise<DesktopInfo> {
    return this.invoke('settings:get');
  }

  saveSettings(next: DesktopSettings): Promise<DesktopInfo> {
    return this.invoke('settings:set', next);
  }
}

/**
 * An Engine whose SQL runs in the main process, on the window's own connection to the store. Arrow
 * crosses as IPC stream bytes. What cannot cross (a JavaScript function, a file of this page) is
 * refused with the reason.
 */
function ipcEngine(invoke: Invoke): Engine {
  const query = (sql: string, params?: Param[]) => ({ sql, params });
  return {
    all: <T = Row>(sql: string, params?: Param[]) => invoke<T[]>('engine:all', query(sql, params)),
    arrow: async (sql: string, params?: Param[]): Promise<Table> => tableFromIPC(await invoke<Uint8Array>('engine:arrow', query(sql, params))),
    columns: async (sql: string, params?: Param[]) => tableToColumns(tableFromIPC(await invoke<Uint8Array>('engine:arrow', query(sql, params)))),
    exec: async (sql: string) => {
      await invoke('engine:exec', { sql });
    },
    insertArrowIPC: () => Promise.reject(new Error('the desktop app stores data through its main process (sync, import), not from the window')),
    registerFile: () => Promise.reject(new Error('the desktop app reads files through its main process, not from the window')),
    close: async () => {},
  };
}
