import path from 'node:path';
import { listen, type RunningServer } from '../server/listen.js';
import { NodeEngine } from '../core/engine/node.js';
import { nodeHost, openStore } from '../core/database/node.js';
import type { Store } from '../core/database/store.js';
import { UserData } from '../core/database/user.js';
import type { SyncOptions } from '../core/sync/sync.js';
import { syncRecorded } from '../core/changes/recorder.js';
import { addWatch, exportWatches, importWatches, readWatches, removeWatch, settleWatches } from '../core/changes/watches.js';
import { changesSince } from '../core/changes/log.js';
import { fileLock } from '../core/sync/node-lock.js';
import { BUSY_MESSAGE, withLock } from '../core/sync/lock.js';
import { outcomeOf, type SyncOutcome } from '../core/sync/outcome.js';
import { deleteDataset, fileState } from '../core/sync/metadata.js';
import type { SyncEvent } from '../core/sync/progress.js';
import { parsePricesCsv, storePrices } from '../core/services/compare/import.js';
import { parseAmfi } from '../core/amfi/parse.js';
import { importAmfiText } from '../core/amfi/import.js';
import type { Engine } from '../core/engine/engine.js';
import { isChannel, type Channel, type DesktopInfo, type ServerStatus } from './channels.js';
import { confine } from './confine.js';
import {
  IpcInputError, validateAmfiImport, validateCsv, validateManifestRequest, validateQuery, validateService, validateSince, validateSql,
  validateSyncRequest, validateWatchImport, validateWatchSet,
} from './ipc.js';
import { fetchManifestText } from './manifest.js';
import { desktopHistory, loadSettings, saveSettings, validateSettings, type DesktopSettings } from './settings.js';

export interface DesktopCore {
  /** The one entry for every IPC call; `onProgress` carries sync events back to the window. */
  handle(channel: Channel, args: unknown, onProgress?: (e: SyncEvent) => void): Promise<unknown>;
  close(): Promise<void>;
}

export interface DesktopOptions {
  /** Electron's app.getPath('userData'); the store lives in its `data` folder. */
  userDataDir: string;
  /** Download-rate rules replacing the published ones: for a test publisher started without limits. */
  rules?: SyncOptions['rules'];
}

/** The store, and the window's own connection to it (its temp views and tables stay its own). */
interface Open {
  store: Store;
  window: NodeEngine;
}

/**
 * The desktop app's core, hosted by the main process: one store that the window (over IPC) and the
 * local REST/MCP server (when the user turns it on) both read, so there is one copy of the data.
 */
export async function startDesktopCore(opts: DesktopOptions): Promise<DesktopCore> {
  const dataDir = path.join(opts.userDataDir, 'data');
  const host = nodeHost(dataDir);
  const state = fileState(host.storage);
  let settings = await loadSettings(opts.userDataDir);
  let open: Open = await openDesktopStore(dataDir);
  let server: RunningServer | null = null;
  let serverError: string | null = null;
  /** What the store stepped aside for (a sync, a delete, an import); queries wait until it is back. */
  let busy: string | null = null;
  let cancel: AbortController | null = null;

  /** Never throws: a taken port must not stop the app; the settings panel shows why. */
  async function applyServer(): Promise<void> {
    const want = settings.server.enabled && busy === null;
    if (server && (!want || new URL(server.url).port !== String(settings.server.port))) {
      await server.close();
      server = null;
    }
    serverError = null;
    if (!want || server) return;
    try {
      server = await listen({ engine: open.store.engine, dataDir }, { port: settings.server.port });
    } catch (e) {
      serverError = `could not listen on 127.0.0.1:${settings.server.port}: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  await applyServer();

  const serverStatus = (): ServerStatus => ({ running: server !== null, url: server?.url ?? null, mcp_url: server?.mcpUrl ?? null, error: serverError });
  const info = (): DesktopInfo => ({ settings, server: serverStatus(), data_dir: dataDir });

  /**
   * DuckDB-WASM in Node keeps one table of open files per process: nothing may build a database
   * while the store's engine holds files (docs/storage.md, hazard 6). So the store, and the server
   * reading it, step aside for a change and come back on what the change left.
   */
  async function stepAside<T>(what: string, change: () => Promise<T>): Promise<T> {
    if (busy) throw new IpcInputError(`the store is busy (${busy}); try again when it finishes`);
    busy = what;
    try {
      await applyServer();
      await closeDesktopStore(open);
      try {
        return await change();
      } finally {
        open = await openDesktopStore(dataDir);
      }
    } finally {
      busy = null;
      await applyServer();
    }
  }

  /** A change to the user's own tables: the store steps aside, the working copy in an engine holding no file. */
  function changeUserData<T>(change: (engine: Engine) => Promise<T>): Promise<T> {
    return stepAside('import', async () => {
      const engine = await NodeEngine.open();
      try {
        const user = await UserData.open(engine, host.storage, host);
        return await user.mutate(change);
      } finally {
        await engine.close();
      }
    });
  }

  function windowEngine(): NodeEngine {
    if (busy) throw new IpcInputError(`a ${busy} is running; queries answer again when it finishes`);
    return open.window;
  }

  const handlers: Record<Channel, (args: unknown, onProgress?: (e: SyncEvent) => void) => Promise<unknown>> = {
    'engine:all': async (args) => {
      const q = validateQuery(args);
      return windowEngine().all(q.sql, q.params);
    },
    'engine:arrow': async (args) => {
      const q = validateQuery(args);
      return host.toIPC(await windowEngine().arrow(q.sql, q.params));
    },
    'engine:exec': async (args) => {
      const sql = validateSql((args as { sql?: unknown } | null)?.sql);
      await windowEngine().exec(sql);
      return null;
    },
    'settings:get': async () => info(),
    'settings:set': async (args) => {
      const next: DesktopSettings = validateSettings(args);
      await saveSettings(opts.userDataDir, next);
      settings = next;
      await applyServer();
      return info();
    },
    'server:status': async () => serverStatus(),
    'source:manifest': async (args) => {
      const m = validateManifestRequest(args);
      return fetchManifestText(m.service, m.base, m.etag);
    },
    'sync:status': async () => state.read(),
    'sync:run': async (args, onProgress): Promise<SyncOutcome> => {
      const { only, sources, history: asked } = validateSyncRequest(args, settings.source);
      const history = desktopHistory(asked, settings);
      if (busy) return { outcome: 'busy', message: busy === 'sync' ? BUSY_MESSAGE : `the store is busy (${busy})` };
      const ac = new AbortController();
      cancel = ac;
      try {
        // The store is closed while it syncs, so a scratch engine compares each switch (src/core/changes).
        return await stepAside('sync', async () => {
          const { summary } = await syncRecorded(
            { storage: host.storage, host, source: sources[only[0]]!, sources, only, history, lock: fileLock(dataDir), signal: ac.signal, onEvent: onProgress, rules: opts.rules },
            host,
          );
          return { outcome: 'done' as const, summary };
        });
      } catch (e) {
        return outcomeOf(e);
      } finally {
        cancel = null;
      }
    },
    // The watchlist is a small JSON file beside the data: read and written without the store stepping aside.
    'watch:list': async () => (await readWatches(host.storage)).watches,
    'watch:status': async () => settleWatches(host.storage, windowEngine()),
    'watch:set': async (args) => {
      const { kind, id, on } = validateWatchSet(args);
      if (on) await addWatch(host.storage, windowEngine(), kind, id);
      else await removeWatch(host.storage, kind, id);
      return null;
    },
    'watch:export': async () => exportWatches(host.storage),
    'watch:import': async (args) => importWatches(host.storage, windowEngine(), validateWatchImport(args)),
    'changes:get': async (args) => changesSince(host.storage, await state.read(), validateSince(args)),
    'sync:cancel': async () => {
      cancel?.abort();
      return { cancelling: cancel !== null };
    },
    'store:delete': async (args) => {
      const service = validateService((args as { service?: unknown } | null)?.service);
      await stepAside('delete', () => withLock(fileLock(dataDir), () => deleteDataset(host.storage, state, service)));
      return null;
    },
    'store:import-prices': async (args) => {
      // Parsed before the store steps aside: a bad line is reported and nothing changes.
      const rows = parsePricesCsv(validateCsv(args));
      return { rows: await changeUserData((e) => storePrices(e, rows)) };
    },
    'store:import-amfi': async (args) => {
      const { text, fileName } = validateAmfiImport(args);
      // Read before the store steps aside: a file that is not an AMFI NAV file changes nothing.
      parseAmfi(text);
      return changeUserData((e) => importAmfiText(e, text, fileName));
    },
  };

  return {
    async handle(channel, args, onProgress) {
      if (!isChannel(channel)) throw new IpcInputError(`unknown channel ${String(channel)}`);
      return handlers[channel](args, onProgress);
    },
    async close() {
      cancel?.abort();
      await server?.close();
      server = null;
      await closeDesktopStore(open);
    },
  };
}

async function openDesktopStore(dataDir: string): Promise<Open> {
  const store = await openStore(dataDir);
  await confine(store.engine);
  return { store, window: (store.engine as NodeEngine).connect() };
}

async function closeDesktopStore(open: Open): Promise<void> {
  await open.window.close();
  await open.store.close();
}
