import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CONTENT_TYPES } from '../cli/app-server.js';
import { CONTENT_SECURITY_POLICY } from './security.js';

/** The window's origin: the built app served by a protocol of the app's own, never file://. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'almanac';
export const APP_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** One request of the app's protocol, in the shape scanners read a CSP from (Electron's `responseHeaders`). */
export interface AppRequest {
  /** The built app's directory. */
  dist: string;
  url: string;
  /** The CSP each response carries; electron/main.js writes it out (equal to CONTENT_SECURITY_POLICY, by test). */
  responseHeaders?: { 'Content-Security-Policy': readonly [string] };
}

/**
 * Answers one request of the `app://` protocol from the built app (dist/): only files inside it,
 * each with the CSP header, so the policy holds for every document and worker. Electron's checklist
 * prefers a custom protocol to file://, which would let a page read any file by URL and where
 * response headers cannot be set.
 */
export async function appResponse({ dist, url, responseHeaders }: AppRequest): Promise<Response> {
  const notFound = () => new Response('not found', { status: 404, headers: { 'content-type': 'text/plain' } });
  let u: URL;
  let rel: string;
  try {
    u = new URL(url);
    rel = decodeURIComponent(u.pathname);
  } catch {
    return new Response('bad request', { status: 400 });
  }
  if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST) return notFound();
  const root = path.resolve(dist);
  const file = path.resolve(root, `.${rel === '/' ? '/index.html' : rel}`);
  if (!file.startsWith(root + path.sep)) return notFound();
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return notFound();
  }
  return new Response(new Uint8Array(body), {
    status: 200,
    headers: {
      'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
      'content-security-policy': responseHeaders?.['Content-Security-Policy'][0] ?? CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
    },
  });
}
