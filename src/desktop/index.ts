// Entry of the desktop bundle (dist-electron/desktop.mjs) that electron/main.cjs loads.
export { startDesktopCore } from './core.js';
export { CHANNELS } from './ipc.js';
export { CONTENT_SECURITY_POLICY, WEB_PREFERENCES, isAllowedExternalUrl, isInternalUrl } from './security.js';
