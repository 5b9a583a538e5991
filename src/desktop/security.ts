/**
 * Electron security policy as plain data and pure functions, so it is tested in Node and electron/main.js
 * only applies it (writing the window's options and the CSP out literally, for scanners; a test keeps
 * them equal to these). Each point maps to Electron's security checklist (docs/desktop.md).
 */
import { SCRIPT_SRC } from '../ui/page-script.js';

/** webPreferences for every window: no Node in the renderer, isolated and sandboxed. */
export const WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  webviewTag: false,
  spellcheck: false,
  /** Middle-click would open a link in a new window: off, as electronegativity's AUXCLICK check asks. */
  disableBlinkFeatures: 'Auxclick',
} as const;

/**
 * The renderer loads only the packaged app, its scripts through the page's one loader (by hash, then
 * 'strict-dynamic': src/ui/page-script.ts); data goes through the main process, never fetch().
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  SCRIPT_SRC,
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

/** Hosts a user may be sent to in the system browser (docs and data publishers' pages). */
export const EXTERNAL_ALLOWLIST = ['github.com', 'www.amfiindia.com', 'fred.stlouisfed.org', 'www.sebi.gov.in', 'www.nseindia.com', 'www.bseindia.com'];

/**
 * What a window may have: writing the clipboard (the settings panel's Copy buttons), and showing
 * notifications (a sync changed watched items, docs/changes.md) only when the app's own page asks.
 * Camera, microphone, geolocation, reading the clipboard and the rest are denied.
 */
export const ALLOWED_PERMISSIONS: readonly string[] = ['clipboard-sanitized-write'];
export const OWN_ORIGIN_PERMISSIONS: readonly string[] = ['notifications'];

/** `requestingUrl`: the page (or its origin) asking, as Electron's handlers pass it; `appUrl`: the app's own. */
export function isAllowedPermission(permission: string, requestingUrl = '', appUrl = ''): boolean {
  if (ALLOWED_PERMISSIONS.includes(permission)) return true;
  return OWN_ORIGIN_PERMISSIONS.includes(permission) && appUrl !== '' && isInternalUrl(requestingUrl, appUrl);
}

/** In-app navigation and IPC are allowed only from the app's own origin (app://almanac; the test's http one). */
export function isInternalUrl(url: string, appUrl: string): boolean {
  try {
    const u = new URL(url);
    const app = new URL(appUrl);
    // Compared by host too: a custom scheme's URL has the opaque origin 'null' in WHATWG URL terms.
    return u.protocol === app.protocol && u.host === app.host && u.host !== '';
  } catch {
    return false;
  }
}

/** External links open in the system browser only over https to an allowlisted host. */
export function isAllowedExternalUrl(url: string, allowlist: readonly string[] = EXTERNAL_ALLOWLIST): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && u.username === '' && u.password === '' && allowlist.includes(u.hostname);
  } catch {
    return false;
  }
}

/**
 * Opens `url` in the system browser through `open` (Electron's `shell.openExternal`) when it passes
 * isAllowedExternalUrl; anything else is dropped. Resolves whether it was opened.
 */
export async function openIfAllowed(url: string, open: (url: string) => Promise<void>): Promise<boolean> {
  if (!isAllowedExternalUrl(url)) return false;
  await open(url);
  return true;
}
