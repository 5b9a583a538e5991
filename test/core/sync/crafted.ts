import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tableFromArrays, tableToIPC } from 'apache-arrow';
import * as parquet from 'parquet-wasm';

/** A tiny publisher whose every byte the test decides: path → body, with ETag / If-None-Match. */
export async function craftedServer() {
  const routes = new Map<string, Buffer>();
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    const body = routes.get(req.url ?? '');
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    const etag = `"${Buffer.from(body).toString('base64url').length}-${hash(body)}"`;
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { ETag: etag }).end();
      return;
    }
    res.writeHead(200, { ETag: etag, 'Content-Length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    /** Publishes `files` as the flags service's manifest and download routes. */
    publishFlags(files: Record<string, Buffer>, manifestNames?: Record<string, number>) {
      routes.clear();
      const entries = manifestNames ?? Object.fromEntries(Object.entries(files).map(([n, b]) => [n, b.length]));
      const manifest = {
        generated_at: '2026-11-14T06:00:00Z',
        files: Object.fromEntries(Object.entries(entries).map(([n, size]) => [n, { format: n.slice(n.indexOf('.') + 1), size_bytes: size, row_count: null }])),
      };
      routes.set('/flags/v1/downloads/manifest', Buffer.from(JSON.stringify(manifest)));
      for (const [name, body] of Object.entries(files)) {
        const dot = name.indexOf('.');
        const suffix = name.slice(dot + 1);
        const format = { 'csv.zip': 'csv', 'tsv.zip': 'tsv', 'db.zip': 'sqlite', 'db.gz': 'sqlite.gz' }[suffix] ?? suffix;
        routes.set(`/flags/v1/download/${name.slice(0, dot)}?format=${encodeURIComponent(format)}`, body);
      }
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

function hash(b: Buffer): string {
  let h = 2166136261;
  for (const x of b) h = Math.imul(h ^ x, 16777619) >>> 0;
  return h.toString(16);
}

/** Parquet bytes from column arrays (parquet-wasm, the same library the ingest reads with). */
export function parquetOf(columns: Record<string, unknown[] | Int32Array | Float32Array | Float64Array | BigInt64Array>): Buffer {
  const t = tableFromArrays(columns as Parameters<typeof tableFromArrays>[0]);
  return Buffer.from(parquet.writeParquet(parquet.Table.fromIPCStream(tableToIPC(t, 'stream'))));
}
