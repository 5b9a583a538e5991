import http from 'node:http';
import https from 'node:https';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { SCRIPT_SRC } from '../ui/page-script.js';

/** What the app reads from ./config.json: its default sources and the local server, if any. */
export interface AppConfigFile {
  sources: { indicators: string; mf: string; flags: string };
  server?: string;
}

export interface AppServer {
  url: string;
  close(): Promise<void>;
}

export const PROXY = '/publisher';

/** Streams one request to `target` and its response back unchanged (ranges, validators, 429s). */
function forward(req: http.IncomingMessage, res: http.ServerResponse, target: URL): void {
  const headers = { ...req.headers, host: target.host };
  delete headers.origin;
  delete headers.referer;
  const up = http.request(target, { method: req.method, headers }, (r) => {
    res.writeHead(r.statusCode ?? 502, r.headers);
    r.pipe(res);
  });
  up.on('error', (e) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'bad_gateway', status: 502, message: `embedded publisher unreachable: ${e.message}` }));
  });
  // The browser gave up (a cancelled download): stop reading from the publisher too.
  res.once('close', () => up.destroy());
  req.pipe(up);
}

/** Content types of the built app's files (the desktop shell's app:// protocol serves the same). */
export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/**
 * Serves the built app (dist/) and a generated config.json, on loopback unless told otherwise. The
 * CSP header names the configured sources exactly; there are deliberately no COOP/COEP headers
 * (cross-origin isolation makes DuckDB-WASM pick the bundle that broke OPFS file handles).
 */
export interface ServeAppOptions {
  dist: string;
  /** config.json; a source may be a path on this server (`/publisher`), which the app resolves against its own address. */
  config: AppConfigFile;
  port?: number;
  /** The address to bind: 127.0.0.1 unless the caller chose to be reachable from elsewhere (`npm start -- --host`). */
  host?: string;
  /** PEM certificate and key: HTTPS, which a phone's browser needs for the service worker and OPFS. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /**
   * Forwards `/publisher/*` to the embedded publisher, so the app reaches it same-origin: the
   * publisher sends no CORS headers (the hosted services are not browser APIs either).
   */
  publisher?: string;
}

/**
 * The app page's CSP: connect-src is this origin plus the origins of the configured sources and local
 * server, so the app can reach exactly what config.json names (a source that is a path is this
 * origin). index.html's own CSP meta, fixed at build time (vite.connect-src.ts), applies too.
 */
export function contentSecurityPolicy(config: AppConfigFile): string {
  const origins = [
    ...new Set(
      [...Object.values(config.sources), config.server]
        .filter((u): u is string => Boolean(u) && /^https?:/.test(u!))
        .map((u) => new URL(u).origin),
    ),
  ];
  return [
    "default-src 'self'",
    SCRIPT_SRC,
    "worker-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    `connect-src 'self' ${origins.join(' ')}`.trim(),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'none'",
  ].join('; ');
}

export async function serveApp(opts: ServeAppOptions): Promise<AppServer> {
  const root = path.resolve(opts.dist);
  const csp = contentSecurityPolicy(opts.config);
  const configBody = JSON.stringify(opts.config);

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (opts.publisher && (url.pathname === PROXY || url.pathname.startsWith(`${PROXY}/`))) {
      forward(req, res, new URL(url.pathname.slice(PROXY.length) + url.search, opts.publisher));
      return;
    }
    if (url.pathname === '/config.json') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' }).end(req.method === 'HEAD' ? undefined : configBody);
      return;
    }
    let rel: string;
    try {
      rel = decodeURIComponent(url.pathname);
    } catch {
      res.writeHead(400).end('bad path');
      return;
    }
    let file = path.resolve(root, `.${rel}`);
    if (file !== root && !file.startsWith(root + path.sep)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    let info = await stat(file).catch(() => null);
    if (info?.isDirectory()) {
      file = path.join(file, 'index.html');
      info = await stat(file).catch(() => null);
    }
    if (!info) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const ext = path.extname(file);
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[ext] ?? 'application/octet-stream',
      'content-length': info.size,
      // Hashed assets never change; the shell and the service worker must be revalidated.
      'cache-control': rel.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      ...(ext === '.html' ? { 'content-security-policy': csp } : {}),
      'x-content-type-options': 'nosniff',
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  };
  const server = opts.tls ? https.createServer({ cert: opts.tls.cert, key: opts.tls.key }, handle) : http.createServer(handle);

  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `${opts.tls ? 'https' : 'http'}://${shown}:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
