/**
 * The browser store in real Chromium, through the harness page (test/e2e/harness: the app's own
 * BrowserBackend, sync worker, OPFS, IndexedDB and Web Locks, without the views):
 * - #5: the same core service calls in a Chromium worker and in Node, over the same synced tiny
 *   data, answer identically;
 * - #12, the Chromium half of the kill campaign: the page is closed while the sync stands at a named
 *   point; reopened, the store answers exactly what it answered before (or, once the switch
 *   happened, exactly the new generation), and the next sync completes with nothing left behind.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PROXY, serveApp, type AppServer } from '../../src/cli/app-server.js';
import { startPublisher, type Publisher } from '../../src/publisher/server.js';
import { sync } from '../../src/core/sync/sync.js';
import { nodeHost, openStore } from '../../src/core/store/node.js';
import { files, type StoreState } from '../../src/core/sync/state.js';
import type { SyncStep } from '../../src/core/sync/hooks.js';
import type { SyncOutcome } from '../../src/ui/lib/backend.js';
import { checksums } from '../reliability/store-check.js';
import { writeFigures } from '../reliability/figures.js';
import { runCalls } from './harness/calls.js';
import { hasChromium, launch, type Session } from './browser.js';

const genHash = createHash('sha256');
for (const f of readdirSync('src/gen').sort()) genHash.update(readFileSync(path.join('src/gen', f)));
const CACHE = path.join(tmpdir(), `almanac-e2e-tiny-g1-${genHash.digest('hex').slice(0, 12)}`);
const SOURCES = { indicators: PROXY, mf: PROXY, flags: PROXY };
const SERVICE = 'flags';

function gen(out: string, extra: string[] = []): void {
  const r = spawnSync('npx', ['tsx', 'src/gen/cli.ts', '--scale', 'tiny', '--out', out, ...extra], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`generator failed (exit ${r.status})`);
}

interface Harness {
  sync(req: { only: string[]; sources: typeof SOURCES }, pauseAt?: { step: SyncStep; nth: number }): Promise<SyncOutcome>;
  paused(): Promise<string>;
  status(): Promise<StoreState>;
  calls(): Promise<Record<string, unknown>>;
  checksums(service: string): Promise<{ generation: number; tables: Record<string, { n: number; h: string }> }>;
  closeStore(): void;
  opfs(): Promise<string[]>;
  rebuiltAttach(name: string): Promise<{ small: number; big: number }[] | { error: string }>;
}
declare const harness: Harness;

const POINTS: { label: string; step: SyncStep; nth: number }[] = [
  { label: 'after the manifest', step: 'manifest', nth: 1 },
  { label: 'mid-download (first body chunk written)', step: 'download:chunk', nth: 1 },
  { label: 'first download complete', step: 'download:complete', nth: 1 },
  { label: 'mid-ingest (third table)', step: 'ingest:table', nth: 3 },
  { label: 'after the checkpoint', step: 'ingest:checkpoint', nth: 1 },
  { label: 'right before the switch', step: 'switch:before', nth: 1 },
  { label: 'right after the switch', step: 'switch:after', nth: 1 },
  { label: 'during clean-up', step: 'cleanup', nth: 1 },
];

describe.skipIf(!hasChromium)('browser store in Chromium (harness page, publisher on 127.0.0.1)', () => {
  let root: string;
  let dataDir: string;
  let refDir: string;
  let publisher: Publisher;
  let app: AppServer;
  let s: Session;
  let page: Page;

  async function open(): Promise<Page> {
    const p = await s.context.newPage();
    p.on('pageerror', (e) => s.errors.push(e.message));
    await p.goto(`${app.url}index.html`);
    await p.waitForFunction(() => document.body.dataset.ready === 'yes');
    return p;
  }

  /** The Node reference: the same publisher synced by the Node front door. */
  async function nodeSync(only: ('indicators' | 'mf' | 'flags')[]) {
    const host = nodeHost(refDir);
    const r = await sync({ storage: host.storage, host, source: publisher.url, only });
    expect(r.errors).toEqual([]);
  }

  beforeAll(async () => {
    if (!existsSync(path.join(CACHE, 'flags', 'manifest.json'))) gen(CACHE);
    root = mkdtempSync(path.join(tmpdir(), 'almanac-e2e-worker-'));
    dataDir = path.join(root, 'pub');
    refDir = path.join(root, 'node-store');
    cpSync(CACHE, dataDir, { recursive: true });
    const dist = path.join(root, 'harness');
    const b = spawnSync('npx', ['vite', 'build', '--config', 'test/e2e/harness/vite.config.ts', '--outDir', dist, '--logLevel', 'warn'], { stdio: 'inherit' });
    if (b.status !== 0) throw new Error('harness build failed');
    publisher = await startPublisher({ dataDir, limits: 'off' });
    app = await serveApp({ dist, publisher: publisher.url, config: { sources: SOURCES } });
    s = await launch();
    await s.page.close();
    page = await open();
  }, 600_000);

  afterAll(async () => {
    await s?.close();
    await app?.close();
    await publisher?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('the same core service calls answer identically in a Chromium worker and in Node', async () => {
    const outcome = await page.evaluate((sources) => harness.sync({ only: ['indicators', 'mf', 'flags'], sources }), SOURCES);
    expect(outcome.outcome).toBe('done');
    expect(outcome.outcome === 'done' && outcome.summary.errors).toEqual([]);
    const browser = await page.evaluate(() => harness.calls());
    await page.evaluate(() => harness.closeStore());

    await nodeSync(['indicators', 'mf', 'flags']);
    const store = await openStore(refDir);
    const node = await runCalls(store.engine).finally(() => store.close());
    const threw = Object.entries(node).filter(([, v]) => (v as { threw?: string }).threw);
    expect(threw).toEqual([]);
    expect(Object.keys(browser).sort()).toEqual(Object.keys(node).sort());
    // Each call found real data (no empty answer compared with an empty answer).
    for (const [name, v] of Object.entries(node)) expect(JSON.stringify(v).length, name).toBeGreaterThan(200);
    for (const name of Object.keys(node)) expect(browser[name], name).toEqual(node[name]);
  }, 600_000);

  // Found at full scale (npm run bench): the MF history's large commits make DuckDB checkpoint by
  // itself mid-build, and the log it then leaves behind in OPFS was replayed at the next ATTACH.
  it('a database that checkpointed by itself mid-build attaches after the build (its stale log is gone)', async () => {
    expect(await page.evaluate(() => harness.rebuiltAttach('hazard-autocheckpoint.duckdb'))).toEqual([{ small: 1000, big: 1_200_000 }]);
  }, 120_000);

  it('kill campaign: the page closed at each point of a sync, reopened, answers as before; the next sync completes', async () => {
    const tally = { runs: 0, killed: 0, not_reached: 0, failures: 0 };
    const rows: { label: string; counts: Record<string, number> }[] = [];
    let generation = 1;
    try {
      for (const point of POINTS) {
        const row = { runs: 1, killed: 0, failures: 0 };
        rows.push({ label: point.label, counts: row });
        tally.runs++;
        try {
          const before = await page.evaluate((svc) => harness.checksums(svc), SERVICE);
          await page.evaluate(() => harness.closeStore());
          gen(dataDir, ['--generation', String(++generation), '--only', SERVICE]);
          await nodeSync([SERVICE]);
          const expected = await checksums(refDir, SERVICE);
          expect(expected.tables).not.toEqual(before.tables);

          const stopped = await page.evaluate(
            ([sources, p]) => {
              const run = harness.sync({ only: ['flags'], sources }, p);
              return Promise.race([run.then((o) => `finished: ${o.outcome}`), harness.paused()]);
            },
            [SOURCES, { step: point.step, nth: point.nth }] as const,
          );
          if (stopped === point.step) {
            tally.killed++;
            row.killed++;
          } else tally.not_reached++;
          await page.close();
          page = await open();

          const mid = await page.evaluate((svc) => harness.checksums(svc), SERVICE);
          const switched = mid.generation !== before.generation;
          expect(mid).toEqual(switched ? expected : before);
          if (stopped === point.step && !['switch:after', 'cleanup'].includes(point.step)) expect(switched).toBe(false);
          await page.evaluate(() => harness.closeStore());

          const next = await page.evaluate((sources) => harness.sync({ only: ['flags'], sources }), SOURCES);
          expect(next.outcome).toBe('done');
          expect(next.outcome === 'done' && next.summary.errors).toEqual([]);
          expect(next.outcome === 'done' && next.summary.files.filter((f) => f.status === 'failed')).toEqual([]);
          expect(await page.evaluate((svc) => harness.checksums(svc), SERVICE)).toEqual(expected);

          const d = (await page.evaluate(() => harness.status())).datasets.flags!;
          const keep = new Set([d.database, `${d.database}.wal`, ...Object.values(d.sources).map((x) => x.store)]);
          const left = (await page.evaluate(() => harness.opfs())).filter((n) => files.belongsTo(SERVICE, n) && !keep.has(n));
          expect(left).toEqual([]);
        } catch (e) {
          tally.failures++;
          row.failures++;
          throw e;
        }
      }
    } finally {
      writeFigures({
        campaign: 'kill-chromium',
        title: 'Kill campaign, Chromium half (page closed mid-sync)',
        checks: [
          `test/e2e/worker.test.ts: ${POINTS.length} points of a sync (the sync stands still at a named step, then the page is closed, which ends its workers), ${SERVICE} dataset (parquet, 7 tables), tiny data, one generation further per run, in real Chromium with OPFS, IndexedDB and Web Locks.`,
          'After each close: the reopened store answers every table with the same row count and row hash as before the sync, or, when the close came after the switch, exactly what Node answers for the new generation.',
          'Then the next sync finishes without errors, answers exactly what Node answers for that generation, and leaves no file of the dataset behind but its database and sources.',
        ],
        counts: tally,
        rows,
      });
    }
    expect(tally.failures).toBe(0);
  }, 1_800_000);
});
