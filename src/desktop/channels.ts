/**
 * The narrow API between the window and the desktop core, as both sides name it. Pure: the renderer
 * imports it (types, the channel list); electron/preload.js repeats the list, because a sandboxed
 * preload can require nothing but Electron (test/desktop/security-settings.test.ts keeps them equal).
 */
import type { SyncEvent } from '../core/sync/progress.js';
import type { DesktopSettings } from './settings.js';

export const CHANNELS = [
  'engine:all',
  'engine:arrow',
  'engine:exec',
  'settings:get',
  'settings:set',
  'server:status',
  'source:manifest',
  'store:delete',
  'store:import-amfi',
  'store:import-prices',
  'sync:cancel',
  'sync:run',
  'sync:status',
  'watch:export',
  'watch:import',
  'watch:list',
  'watch:set',
  'watch:status',
  'changes:get',
] as const;
export type Channel = (typeof CHANNELS)[number];

/** Main → window: the running sync's progress (the only message main sends unasked). */
export const PROGRESS_CHANNEL = 'sync:progress';

export function isChannel(c: unknown): c is Channel {
  return typeof c === 'string' && (CHANNELS as readonly string[]).includes(c);
}

/** What the preload exposes as `window.almanacDesktop`. */
export interface DesktopBridge {
  invoke(channel: Channel, args?: unknown): Promise<unknown>;
  /** Returns the unsubscribe function. */
  onSyncProgress(listener: (e: SyncEvent) => void): () => void;
}

/** The local REST + MCP server as the settings panel shows it. */
export interface ServerStatus {
  running: boolean;
  url: string | null;
  mcp_url: string | null;
  /** Why it is not running although turned on (e.g. the port is taken). */
  error: string | null;
}

/** `settings:get` and `settings:set` answer with everything the settings panel shows. */
export interface DesktopInfo {
  settings: DesktopSettings;
  server: ServerStatus;
  /** Where the synced data lives (userData/data). */
  data_dir: string;
}
