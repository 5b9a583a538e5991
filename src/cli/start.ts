import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PROXY, serveApp } from './app-server.js';
import { startPublisher } from '../publisher/server.js';
import { syncRecorded } from '../core/changes/recorder.js';
import { fileLock } from '../core/sync/node-lock.js';
import { nodeHost, openStore } from '../core/store/node.js';
import { listen } from '../server/listen.js';

/**
 * `npm start`: demo data (generated once into ./sample-data), the stand-in publisher on loopback as
 * the app's embedded default source, the built app, and the local REST + MCP server over a store in
 * ./.data/store synced from that publisher; prints the URLs and runs until Ctrl-C.
 */
const root = process.cwd();
const dataDir = path.join(root, 'sample-data');
// Its own folder: .data also holds the benchmarks' data (.data/bench-<scale>).
const storeDir = path.join(root, '.data', 'store');
const appPort = Number(process.env.ALMANAC_APP_PORT ?? 5173);
const serverPort = Number(process.env.ALMANAC_SERVER_PORT ?? 8765);
const SERVICES = ['indicators', 'mf', 'flags'];

function step(cmd: string, args: string[]): void {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status})`);
}

async function main(): Promise<void> {
  if (!SERVICES.every((s) => existsSync(path.join(dataDir, s, 'manifest.json')))) {
    console.log('Generating demo sample data into ./sample-data (once)…');
    step('npm', ['run', '--silent', 'gen', '--', '--scale', 'demo', '--out', dataDir]);
  }
  step('node', ['scripts/setup.mjs', '--build']);

  const publisher = await startPublisher({ dataDir, port: Number(process.env.ALMANAC_PUBLISHER_PORT ?? 0) });
  const publisherUrl = publisher.url.replace(/\/+$/, '');

  console.log(`Syncing the local API's store (${storeDir}) from the embedded publisher…`);
  const host = nodeHost(storeDir);
  const { summary } = await syncRecorded({ storage: host.storage, host, source: publisherUrl, lock: fileLock(host.storage.dir) }, host);
  for (const e of summary.errors) console.warn(`  sync: ${e}`);
  const store = await openStore(storeDir);
  const appOrigin = `http://127.0.0.1:${appPort}`;
  const server = await listen({ engine: store.engine, dataDir: storeDir }, { port: serverPort, allowedOrigins: [appOrigin] });

  const app = await serveApp({
    dist: path.join(root, 'dist'),
    port: appPort,
    publisher: publisherUrl,
    config: { sources: { indicators: PROXY, mf: PROXY, flags: PROXY }, server: server.url },
  });

  console.log(`
Almanac is running (loopback only):
  app        ${app.url}
  publisher  ${publisherUrl}   (embedded demo source: ${dataDir}; the app reaches it at ${app.url}publisher)
  local API  ${server.url}/   (REST, same contract as the hosted services; MCP at ${server.mcpUrl})

Open the app, go to Data and press Sync. Ctrl-C stops everything.`);

  const stop = async () => {
    await Promise.allSettled([app.close(), server.close(), publisher.close()]);
    await store.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(`npm start failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
