// Entry of the desktop bundle (dist-electron/desktop.mjs) that electron/main.js loads.
export { startDesktopCore } from './core.js';
export { CHANNELS } from './channels.js';
export { ipcAnswerer } from './main-ipc.js';
export { APP_SCHEME, APP_URL, appResponse } from './app-protocol.js';
export { isAllowedPermission, isInternalUrl, openIfAllowed } from './security.js';
