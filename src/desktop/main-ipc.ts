import type { SyncEvent } from '../core/sync/progress.js';
import { PROGRESS_CHANNEL } from './channels.js';
import type { DesktopCore } from './core.js';
import { IpcInputError } from './ipc.js';
import { isInternalUrl } from './security.js';

/** How main answers the window unasked: Electron's `event.sender.send`. */
export type Send = (channel: typeof PROGRESS_CHANNEL, event: SyncEvent) => void;

/**
 * What electron/main.js registers for every channel: the sender must be the app's own page, then
 * the core answers. The Chromium test (test/desktop/app.test.ts) drives the same function over
 * Playwright's bindings instead of Electron's IPC.
 */
export function ipcAnswerer(core: DesktopCore, appUrl: string) {
  return async (senderUrl: string, channel: string, args: unknown, send: Send): Promise<unknown> => {
    if (!isInternalUrl(senderUrl, appUrl)) throw new IpcInputError('IPC from outside the app');
    return core.handle(channel as never, args, (e) => send(PROGRESS_CHANNEL, e));
  };
}
