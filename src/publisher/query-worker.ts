/**
 * The thread that answers the publisher's query endpoints (src/publisher/queries.ts). It syncs the
 * published files into a fresh store with Almanac's own sync, from a limits-off, fault-free twin of
 * the publisher over the same directory, opens the store in DuckDB-WASM and answers each request with
 * the local server's own routes (buildServer, through Fastify's inject): the same services, the same
 * answers as a mirror that synced the same publish.
 *
 * A thread of its own because DuckDB-WASM allows one instance with open files per thread
 * (docs/storage.md, hazard 6), and the process that hosts the publisher (a test) may have its own.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { FastifyInstance } from 'fastify';
import { SERVICES } from '../core/contract/files.js';
import { nodeHost, openStore } from '../core/database/node.js';
import type { Store } from '../core/database/store.js';
import { sync } from '../core/sync/sync.js';
import { buildServer } from '../server/app.js';
import { startPublisher } from './server.js';
import type { QueryWorkerData, WorkerMessage, WorkerReply } from './query-protocol.js';

async function open(d: QueryWorkerData): Promise<{ app: FastifyInstance; store: Store }> {
  const published = SERVICES.filter((s) => existsSync(path.join(d.dataDir, s, 'manifest.json')));
  const twin = await startPublisher({ dataDir: d.dataDir, limits: 'off' });
  try {
    const host = nodeHost(d.storeDir);
    const summary = await sync({
      storage: host.storage,
      host,
      source: twin.url,
      only: published,
      // The twin has no limits: no client-side pacing either.
      rules: Object.fromEntries(SERVICES.map((s) => [s, []])),
    });
    if (summary.errors.length) throw new Error(`syncing the published files failed: ${summary.errors.join('; ')}`);
  } finally {
    await twin.close();
  }
  const store = await openStore(d.storeDir);
  try {
    return { app: await buildServer({ engine: store.engine, baseUrl: d.baseUrl }), store };
  } catch (e) {
    await store.close();
    throw e;
  }
}

const port = parentPort!;
const opened = open(workerData as QueryWorkerData);
opened.then(
  () => port.postMessage({ ready: true } satisfies WorkerReply),
  (e: unknown) => port.postMessage({ failed: e instanceof Error ? e.message : String(e) } satisfies WorkerReply),
);

port.on('message', async (m: WorkerMessage) => {
  if ('close' in m) {
    await opened.then(
      async ({ app, store }) => {
        await app.close();
        await store.close();
      },
      () => undefined,
    );
    port.close();
    return;
  }
  try {
    const { app } = await opened;
    const r = await app.inject({ method: m.method, url: m.url, headers: m.headers });
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(r.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
    const body = new Uint8Array(r.rawPayload);
    port.postMessage({ id: m.id, status: r.statusCode, headers, body } satisfies WorkerReply, [body.buffer]);
  } catch (e) {
    port.postMessage({ id: m.id, error: e instanceof Error ? e.message : String(e) } satisfies WorkerReply);
  }
});
