import path from 'node:path';
import { listen, type RunningServer } from '../server/listen.js';
import { nodeHost, openStore } from '../core/store/node.js';
import { sync } from '../core/sync/sync.js';
import { fileLock } from '../core/sync/node-lock.js';
import { isService, type Service } from '../core/sync/datasets.js';
import type { SyncEvent } from '../core/sync/progress.js';
import type { Store } from '../core/store/store.js';
import { IpcInputError, isChannel, validateQuery, type Channel } from './ipc.js';
import { loadSettings, saveSettings, validateSettings, type DesktopSettings } from './settings.js';

export interface DesktopCore {
  /** The one entry for every IPC call; `onProgress` carries sync events back to the window. */
  handle(channel: Channel, args: unknown, onProgress?: (e: SyncEvent) => void): Promise<unknown>;
  close(): Promise<void>;
}

export interface DesktopOptions {
  /** Electron's app.getPath('userData'); the store lives in its `data` folder. */
  userDataDir: string;
}

/**
 * The desktop app's core, hosted by the main process: one store that the window (over IPC) and the
 * local REST/MCP server (when the user turns it on) both read, so there is one copy of the data.
 */
export async function startDesktopCore(opts: DesktopOptions): Promise<DesktopCore> {
  const dataDir = path.join(opts.userDataDir, 'data');
  const host = nodeHost(dataDir);
  let store: Store = await openStore(dataDir);
  let settings = await loadSettings(opts.userDataDir);
  let server: RunningServer | null = null;
  let syncing = false;

  async function applyServer(): Promise<void> {
    const want = settings.server.enabled;
    if (server && (!want || new URL(server.url).port !== String(settings.server.port))) {
      await server.close();
      server = null;
    }
    if (want && !server) server = await listen({ engine: store.engine, dataDir }, { port: settings.server.port });
  }
  await applyServer();

  const serverStatus = () => ({ running: server !== null, url: server?.url ?? null, mcp_url: server?.mcpUrl ?? null });

  const handlers: Record<Channel, (args: unknown, onProgress?: (e: SyncEvent) => void) => Promise<unknown>> = {
    'engine:all': async (args) => {
      const q = validateQuery(args);
      if (syncing) throw new IpcInputError('a sync is running; queries answer again when it finishes');
      return store.engine.all(q.sql, q.params);
    },
    'engine:arrow': async (args) => {
      const q = validateQuery(args);
      if (syncing) throw new IpcInputError('a sync is running; queries answer again when it finishes');
      return host.toIPC(await store.engine.arrow(q.sql, q.params));
    },
    'settings:get': async () => settings,
    'settings:set': async (args) => {
      const next: DesktopSettings = validateSettings(args);
      await saveSettings(opts.userDataDir, next);
      settings = next;
      await applyServer();
      return { settings, server: serverStatus() };
    },
    'server:status': async () => serverStatus(),
    'sync:status': async () => store.status(),
    'sync:run': async (args, onProgress) => {
      const only = validateOnly(args);
      if (!settings.source) throw new IpcInputError('no source set: choose the publishers’ base URL in the Data view first');
      if (syncing) throw new IpcInputError('a sync is already running');
      syncing = true;
      // DuckDB-WASM in Node keeps one table of open files per process: the sync's builder engines
      // must not run while the store's engine holds files (docs/storage.md). So the store (and the
      // server reading it) step aside for the sync and come back on the new generation.
      await server?.close();
      server = null;
      await store.close();
      try {
        return await sync({ storage: host.storage, host, source: settings.source, only, lock: fileLock(host.storage.dir), onEvent: onProgress });
      } finally {
        store = await openStore(dataDir);
        await applyServer();
        syncing = false;
      }
    },
  };

  return {
    async handle(channel, args, onProgress) {
      if (!isChannel(channel)) throw new IpcInputError(`unknown channel ${String(channel)}`);
      return handlers[channel](args, onProgress);
    },
    async close() {
      await server?.close();
      await store.close();
    },
  };
}

function validateOnly(args: unknown): Service[] | undefined {
  if (args === undefined || args === null) return undefined;
  const only = (args as { only?: unknown }).only;
  if (only === undefined) return undefined;
  if (!Array.isArray(only) || !only.every((s) => typeof s === 'string' && isService(s))) {
    throw new IpcInputError('only must be a list of datasets: indicators, mf, flags');
  }
  return only as Service[];
}
