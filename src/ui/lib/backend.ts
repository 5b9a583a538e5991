import type { Backend } from './backend-api.js';
import { BrowserBackend } from './browser-backend.js';
import { DesktopBackend, desktopBridge } from './desktop-backend.js';
import { engineState } from './engine-state.svelte.js';

let current: Backend | undefined;

/** The app's one backend: the desktop's when Electron's preload exposed its bridge, else the browser's. */
export function backend(): Backend {
  const bridge = desktopBridge();
  current ??= bridge
    ? new DesktopBackend(bridge)
    : new BrowserBackend(() => {
        engineState.note = 'Almanac is open in another tab: this one answers once that tab is closed.';
      });
  return current;
}

/** The desktop's backend when this page runs in the desktop app (its settings panel), else null. */
export function desktopBackend(): DesktopBackend | null {
  const b = backend();
  return b instanceof DesktopBackend ? b : null;
}
