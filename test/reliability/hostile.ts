import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { downloadPath, manifestPath, type Service } from '../../src/core/contract/files.js';

export interface HostileFile {
  body: Buffer;
  /** What the manifest claims; defaults to the truth. */
  size?: unknown;
  rows?: unknown;
  /** Send no Content-Length (chunked), so only the manifest bounds the body. */
  chunked?: boolean;
  /** Content-Length to announce instead of the real one (the body is cut or padded by the socket). */
  contentLength?: number;
}

/**
 * A publisher that lies as told: any manifest (names, sizes, row counts), any bytes at the routes the
 * contract maps those names to. Records every request path.
 */
export async function hostilePublisher() {
  const routes = new Map<string, HostileFile>();
  let manifest = Buffer.from('{}');
  let manifestRoute = '';
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    if (req.url === manifestRoute) return void res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': manifest.length }).end(manifest);
    const f = routes.get(req.url ?? '');
    if (!f) return void res.writeHead(404).end();
    const headers: Record<string, string | number> = { ETag: `"${f.body.length}"` };
    if (!f.chunked) headers['Content-Length'] = f.contentLength ?? f.body.length;
    res.writeHead(200, headers);
    if (f.contentLength !== undefined && f.contentLength < f.body.length) {
      res.end(f.body.subarray(0, f.contentLength));
      return;
    }
    res.end(f.body);
    if (f.contentLength !== undefined && f.contentLength > f.body.length) res.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    /** Publishes `files` for `service`; `raw` replaces the manifest text entirely. */
    publish(service: Service, files: Record<string, HostileFile>, raw?: string) {
      routes.clear();
      seen.length = 0;
      manifestRoute = manifestPath(service);
      const entries = Object.entries(files).map(([name, f]) => [name, { format: name.slice(name.indexOf('.') + 1), size_bytes: f.size ?? f.body.length, row_count: f.rows ?? null }]);
      manifest = Buffer.from(raw ?? JSON.stringify({ generated_at: '2026-11-14T06:00:00Z', files: Object.fromEntries(entries) }));
      for (const [name, f] of Object.entries(files)) {
        const route = downloadPath(service, name);
        if (route) routes.set(route, f);
      }
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
