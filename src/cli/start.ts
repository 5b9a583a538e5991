import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PROXY, serveApp } from './app-server.js';

/**
 * `npm start`: demo data (generated once into ./sample-data), the stand-in publisher on loopback as
 * the app's embedded default source, and the built app; prints the URLs and runs until Ctrl-C.
 */
const root = process.cwd();
const dataDir = path.join(root, 'sample-data');
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

  const { startPublisher } = await import('../publisher/server.js');
  const publisher = await startPublisher({ dataDir, port: Number(process.env.ALMANAC_PUBLISHER_PORT ?? 0) });
  const publisherUrl = publisher.url.replace(/\/+$/, '');
  const app = await serveApp({
    dist: path.join(root, 'dist'),
    port: Number(process.env.ALMANAC_APP_PORT ?? 5173),
    publisher: publisherUrl,
    config: { sources: { indicators: PROXY, mf: PROXY, flags: PROXY } },
  });

  console.log(`
Almanac is running (loopback only):
  app        ${app.url}
  publisher  ${publisherUrl}   (embedded demo source: ${dataDir}; the app reaches it at ${app.url}publisher)

Open the app, go to Data and press Sync. Ctrl-C stops everything.`);

  const stop = async () => {
    await Promise.allSettled([app.close(), publisher.close()]);
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(`npm start failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
