import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { networkInterfaces } from 'node:os';
import { PROXY, serveApp } from './app-server.js';
import { startPublisher } from '../publisher/server.js';
import { syncRecorded } from '../core/changes/recorder.js';
import { fileLock } from '../core/sync/node-lock.js';
import { nodeHost, openStore } from '../core/database/node.js';
import { listen } from '../server/listen.js';
import { parseServeOptions } from './serve-options.js';

/**
 * `npm start`: demo data (generated once into ./sample-data), the stand-in publisher on loopback as
 * the app's embedded default source, the built app, and the local REST + MCP server over a store in
 * ./.data/store synced from that publisher; prints the URLs and runs until Ctrl-C.
 * `npm start -- --host ADDRESS --cert FILE --key FILE` serves the app (and its /publisher proxy) over
 * HTTPS on that address, for a phone on the same network (docs/mobile.md); the publisher and the local
 * API stay on loopback.
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
  const serve = parseServeOptions(process.argv.slice(2));
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
  const appOrigin = `${serve.tls ? 'https' : 'http'}://127.0.0.1:${appPort}`;
  const server = await listen({ engine: store.engine, dataDir: storeDir }, { port: serverPort, allowedOrigins: [appOrigin] });

  const app = await serveApp({
    dist: path.join(root, 'dist'),
    port: appPort,
    host: serve.host,
    tls: serve.tls,
    publisher: publisherUrl,
    config: { sources: { indicators: PROXY, mf: PROXY, flags: PROXY }, server: server.url },
  });

  if (!serve.loopback) {
    // A wildcard address is every interface: name the ones a phone on the network would use.
    const wildcard = serve.host === '0.0.0.0' || serve.host === '::';
    const addresses = wildcard
      ? Object.values(networkInterfaces()).flatMap((l) => l ?? []).filter((i) => !i.internal && i.family === 'IPv4').map((i) => i.address)
      : [serve.host];
    console.warn(`
WARNING: the app and its /publisher proxy are reachable from the network at ${app.url}
  Anyone who can reach ${serve.host}:${appPort} can load the app and download the publisher's data
  through it. Use it on a network you trust, and stop it (Ctrl-C) when you are done. The publisher
  and the local API stay on loopback.
  On the phone, open https://<name>:${appPort}/ with a name the certificate is valid for
  (this machine's addresses: ${addresses.join(', ') || 'none found'}).`);
  }
  console.log(`
Almanac is running (${serve.loopback ? 'loopback only' : `app on ${serve.host}, the rest on loopback`}):
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
