/**
 * The browser store in real Chromium, through the harness page (test/e2e/harness: the app's own
 * BrowserBackend, sync worker, OPFS, IndexedDB and Web Locks, without the views):
 * - #5: the same core service calls in a Chromium worker and in Node, over the same synced tiny
 *   data, answer identically;
 * - #12, the Chromium half of the kill campaign: the page is closed while the sync stands at a named
 *   point, for each ingest path; reopened, the store answers exactly what it answered before (or, once
 *   the switch happened, exactly the new generation), and the next sync completes with nothing left
 *   behind. The default run spreads the points over the paths; ALMANAC_LONG=1 runs every point on
 *   every path.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PROXY, serveApp, type AppServer } from '../../src/cli/app-server.js';
import { startPublisher, type Publisher } from '../../src/publisher/server.js';
import { sync } from '../../src/core/sync/sync.js';
import { nodeHost, openStore } from '../../src/core/store/node.js';
import { fileState, files, setChoice, type StoreState } from '../../src/core/sync/state.js';
import { historyFiles } from '../../src/core/sync/refresh/history.js';
import type { FormatChoice, Service } from '../../src/core/sync/datasets.js';
import type { SyncStep } from '../../src/core/sync/hooks.js';
import type { SyncOutcome } from '../../src/ui/lib/backend-api.js';
import { NO_LIMITS } from '../core/sync/fixture.js';
import { publishTiny } from '../helpers/tiny-data.js';
import { checksums } from '../reliability/store-check.js';
import { LONG, writeFigures } from '../reliability/figures.js';
import { runCalls } from './harness/calls.js';
import { hasChromium, launch, type Session } from './browser.js';

const SOURCES = { indicators: PROXY, mf: PROXY, flags: PROXY };
type Sums = Awaited<ReturnType<typeof checksums>>;

interface Harness {
  sync(req: { only: Service[]; sources: typeof SOURCES }, pauseAt?: { step: SyncStep; nth: number }): Promise<SyncOutcome>;
  paused(): Promise<string>;
  choose(service: Service, choice: FormatChoice): Promise<void>;
  status(): Promise<StoreState>;
  calls(): Promise<Record<string, unknown>>;
  checksums(service: Service): Promise<Sums>;
  closeStore(): void;
  opfs(): Promise<string[]>;
  rebuiltAttach(name: string): Promise<{ small: number; big: number }[] | { error: string }>;
}
declare const harness: Harness;

/** One ingest path per way a file reaches the browser's database: parquet-wasm, a whole .duckdb, read_csv. */
const PATHS: { label: string; service: Service; choice: FormatChoice; files: number }[] = [
  { label: 'parquet', service: 'flags', choice: 'parquet', files: 7 },
  { label: 'duckdb', service: 'indicators', choice: 'duckdb', files: 1 },
  { label: 'csv', service: 'indicators', choice: 'csv.zip', files: 3 },
];

interface Point {
  label: string;
  step: SyncStep;
  nth: number;
  /** Only on paths whose plan holds several files (one per table). */
  perTable?: boolean;
  /** The publisher paces bodies (PACE) during the sync, so a file of the plan arrives in several chunks. */
  paced?: boolean;
}

/** 0.5 MB/s in tenth-of-a-second slices: the 170 KB whole-database file arrives in 4 chunks, not 1. */
const PACE = 'throttle=4mbps';

const POINTS: Point[] = [
  { label: 'after the manifest', step: 'manifest', nth: 1 },
  { label: 'response headers in, before the size check', step: 'download:response', nth: 1 },
  { label: 'mid-body (first chunk written, bodies paced)', step: 'download:chunk', nth: 1, paced: true },
  { label: 'mid-body (second chunk written, bodies paced)', step: 'download:chunk', nth: 2, paced: true },
  { label: 'first download complete, after the size check', step: 'download:complete', nth: 1 },
  { label: 'before the first table load', step: 'ingest:table', nth: 1 },
  { label: 'after the checkpoint', step: 'ingest:checkpoint', nth: 1 },
  { label: 'right before the switch', step: 'switch:before', nth: 1 },
  { label: 'right after the switch', step: 'switch:after', nth: 1 },
  { label: 'during clean-up', step: 'cleanup', nth: 1 },
  ...(LONG
    ? [
        { label: 'second response headers in', step: 'download:response' as const, nth: 2, perTable: true },
        { label: 'mid-ingest (third table)', step: 'ingest:table' as const, nth: 3, perTable: true },
      ]
    : []),
];

/** The runs: every point on every path (long), or each point once, the paths taking turns (default). */
const RUNS = PATHS.map((p, i) => ({
  path: p,
  points: POINTS.filter((pt, j) => (LONG ? !pt.perTable || p.files > 1 : j % PATHS.length === i)),
}));

describe.skipIf(!hasChromium)('browser store in Chromium (harness page, publisher on 127.0.0.1)', () => {
  let root: string;
  let dataDir: string;
  let dist: string;
  let publisher: Publisher;
  let app: AppServer;

  /** A page of the harness in `s`: its own sync worker (and so its own download-rate budget). */
  async function open(s: Session): Promise<Page> {
    const p = await s.context.newPage();
    p.on('pageerror', (e) => s.errors.push(e.message));
    await p.goto(`${app.url}index.html`);
    await p.waitForFunction(() => document.body.dataset.ready === 'yes');
    return p;
  }

  /** The Node reference: the same publisher synced by the Node front door (a limits-off publisher). */
  async function nodeSync(dir: string, only: Service[]) {
    const host = nodeHost(dir);
    const r = await sync({ storage: host.storage, host, source: publisher.url, only, rules: NO_LIMITS });
    expect(r.errors).toEqual([]);
    return r;
  }

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'almanac-e2e-worker-'));
    dataDir = path.join(root, 'pub');
    await publishTiny(dataDir, ['indicators', 'mf', 'flags']);
    dist = path.join(root, 'harness');
    const b = spawnSync('npx', ['vite', 'build', '--config', 'test/e2e/harness/vite.config.ts', '--outDir', dist, '--logLevel', 'warn'], { stdio: 'inherit' });
    if (b.status !== 0) throw new Error('harness build failed');
    publisher = await startPublisher({ dataDir, limits: 'off' });
    app = await serveApp({ dist, publisher: publisher.url, config: { sources: SOURCES } });
  }, 600_000);

  afterAll(async () => {
    await app?.close();
    await publisher?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('the same core service calls answer identically in a Chromium worker and in Node', async () => {
    const s = await launch();
    try {
      const page = await open(s);
      const outcome = await page.evaluate((sources) => harness.sync({ only: ['indicators', 'mf', 'flags'], sources }), SOURCES);
      expect(outcome.outcome).toBe('done');
      expect(outcome.outcome === 'done' && outcome.summary.errors).toEqual([]);
      const browser = await page.evaluate(() => harness.calls());

      const refDir = path.join(root, 'parity-node');
      await nodeSync(refDir, ['indicators', 'mf', 'flags']);
      const store = await openStore(refDir);
      const node = await runCalls(store.engine).finally(() => store.close());
      const threw = Object.entries(node).filter(([, v]) => (v as { threw?: string }).threw);
      expect(threw).toEqual([]);
      expect(Object.keys(browser).sort()).toEqual(Object.keys(node).sort());
      // Each call found real data (no empty answer compared with an empty answer).
      for (const [name, v] of Object.entries(node)) expect(JSON.stringify(v).length, name).toBeGreaterThan(200);
      for (const name of Object.keys(node)) expect(browser[name], name).toEqual(node[name]);
    } finally {
      await s.close();
    }
  }, 600_000);

  // Found at full scale (npm run bench): the MF history's large commits make DuckDB checkpoint by
  // itself mid-build, and the log it then leaves behind in OPFS was replayed at the next ATTACH.
  it('a database that checkpointed by itself mid-build attaches after the build (its stale log is gone)', async () => {
    const s = await launch();
    try {
      const page = await open(s);
      expect(await page.evaluate(() => harness.rebuiltAttach('hazard-autocheckpoint.duckdb'))).toEqual([{ small: 1000, big: 1_200_000 }]);
    } finally {
      await s.close();
    }
  }, 120_000);

  // Issue 20 in the browser: the MF history refreshed by day through the sync worker into OPFS, the
  // page reloaded between syncs and closed at steps of the refresh; each publish ends equal to Node's
  // fresh sync of it (row count and row hash of every table, mf.nav the view over base and deltas).
  it('the MF history refreshed by day: OPFS, the sync worker, reloads, the page closed at refresh steps; equal to a fresh Node sync', async () => {
    const s = await launch();
    const days = (n: number) => ({ publishes: Array.from({ length: n }, () => ({ step: 'day' as const })) });
    const navOf = (o: SyncOutcome) => (o.outcome === 'done' ? o.summary.files.find((f) => f.name === 'mf_nav_master.parquet') : undefined);
    let page: Page | null = null;
    try {
      await publishTiny(dataDir, ['mf'], days(1));
      page = await open(s);
      const first = await page.evaluate((sources) => harness.sync({ only: ['mf'], sources }), SOURCES);
      expect(first.outcome === 'done' && first.summary.errors).toEqual([]);
      let before = await page.evaluate(() => harness.checksums('mf'));
      for (const [n, step] of [[2, null], [3, 'refresh:delta'], ...(LONG ? ([[4, 'refresh:plan'], [5, 'switch:before']] as const) : [])] as const) {
        console.log(`refresh in Chromium: publish ${n}, ${step ?? 'no stop'} (${new Date().toISOString()})`);
        await publishTiny(dataDir, ['mf'], days(n));
        const refDir = path.join(root, `node-refresh-${n}`);
        await nodeSync(refDir, ['mf']);
        const expected = await checksums(refDir, 'mf');
        if (step) {
          // Closed while the refresh stands at `step`: reopened, the previous generation answers.
          await page.close();
          page = await open(s);
          const stopped = await page.evaluate(
            ([sources, at]) => Promise.race([harness.sync({ only: ['mf'], sources }, at).then((o) => `finished: ${o.outcome}`), harness.paused()]),
            [SOURCES, { step, nth: 1 }] as const,
          );
          expect(stopped).toBe(step);
          await page.close();
          page = await open(s);
          expect(await page.evaluate(() => harness.checksums('mf'))).toEqual(before);
          await page.evaluate(() => harness.closeStore());
        }
        const next = await page.evaluate((sources) => harness.sync({ only: ['mf'], sources }), SOURCES);
        expect(next.outcome === 'done' && next.summary.errors).toEqual([]);
        expect(navOf(next)).toMatchObject({ status: 'patched', refresh: 'append' });
        await page.reload();
        await page.waitForFunction(() => document.body.dataset.ready === 'yes');
        expect(await page.evaluate(() => harness.checksums('mf'))).toEqual({ ...expected, generation: expect.any(Number) });
        const d = (await page.evaluate(() => harness.status())).datasets.mf!;
        expect(d.history!.deltas.length).toBeGreaterThan(0);
        const keep = new Set([d.database, `${d.database}.wal`, ...Object.values(d.sources).map((x) => x.store), ...historyFiles(d.history)]);
        expect((await page.evaluate(() => harness.opfs())).filter((f) => files.belongsTo('mf', f) && !keep.has(f))).toEqual([]);
        before = await page.evaluate(() => harness.checksums('mf'));
      }
    } finally {
      await page?.close().catch(() => undefined);
      await s.close();
    }
  }, 1_800_000);

  describe('kill campaign: the page closed at each point of a sync, reopened, answers as before; the next sync completes', () => {
    const tally = { runs: 0, killed: 0, not_reached: 0, failures: 0 };
    const rows = new Map<string, Record<string, string>>(POINTS.map((p) => [p.label, {}]));

    afterAll(() => {
      writeFigures({
        campaign: 'kill-chromium',
        title: 'Kill campaign, Chromium half (page closed mid-sync)',
        checks: [
          `test/e2e/worker.test.ts: ${POINTS.length} points of a sync (the sync stands still at a named step, then the page is closed, which ends its workers) × ${PATHS.length} ingest paths (${PATHS.map((p) => `${p.label}: ${p.service} ${p.choice}`).join(', ')}); ${LONG ? 'every point on every path' : 'default run: each point once, the paths taking turns; ALMANAC_LONG=1 runs every point on every path'}. Tiny data, one generation further per run, in real Chromium with OPFS, IndexedDB and Web Locks.`,
          'After each close: the reopened store answers every table with the same row count and row hash as before the sync, or, when the close came after the switch, exactly what Node answers for the new generation.',
          'Then the next sync finishes without errors, answers exactly what Node answers for that generation, and leaves no file of the dataset behind but its database and sources.',
          '"not reached": the sync finished before the point (a plan with fewer files or chunks); counted, not a failure.',
        ],
        counts: tally,
        rows: [...rows].filter(([, r]) => Object.keys(r).length).map(([label, counts]) => ({ label, counts })),
      });
    });

    for (const { path: p, points } of RUNS) {
      it(`${p.label} (${p.service}, ${p.choice}): ${points.length} points`, async () => {
        const s = await launch();
        const refDir = path.join(root, `node-${p.label}`);
        let page: Page | null = null;
        try {
          // Generation 1 in both stores, with the path's format chosen in each.
          let generation = 1;
          await publishTiny(dataDir, [p.service], { generation });
          await setChoice(fileState(nodeHost(refDir).storage), p.service, p.choice);
          // Both syncs read the chosen format only.
          const suffix = p.choice === 'duckdb' ? '.duckdb.gz' : `.${p.choice}`;
          const other = (o: { files: { name: string }[] }) => o.files.map((f) => f.name).filter((n) => !n.endsWith(suffix));
          expect(other(await nodeSync(refDir, [p.service]))).toEqual([]);
          let before = await checksums(refDir, p.service);
          page = await open(s);
          await page.evaluate(([svc, choice]) => harness.choose(svc, choice), [p.service, p.choice] as const);
          const first = await page.evaluate(([sources, svc]) => harness.sync({ only: [svc], sources }), [SOURCES, p.service] as const);
          expect(first.outcome === 'done' && first.summary.errors).toEqual([]);
          expect(first.outcome === 'done' && other(first.summary)).toEqual([]);
          expect(await page.evaluate((svc) => harness.checksums(svc), p.service)).toEqual(before);
          await page.close();

          for (const point of points) {
            const row = rows.get(point.label)!;
            tally.runs++;
            try {
              await publishTiny(dataDir, [p.service], { generation: ++generation });
              // The Node reference syncs the new generation meanwhile (it is needed only to compare).
              const reference = nodeSync(refDir, [p.service]).then(() => checksums(refDir, p.service));
              reference.catch(() => undefined);

              // A fresh page: its sync worker has made no download yet, as after a restart.
              page = await open(s);
              if (point.paced) publisher.setFaults(PACE);
              const stopped = await page
                .evaluate(
                  ([sources, svc, at]) => {
                    const run = harness.sync({ only: [svc], sources }, at);
                    return Promise.race([run.then((o) => `finished: ${o.outcome}`), harness.paused()]);
                  },
                  [SOURCES, p.service, { step: point.step, nth: point.nth }] as const,
                )
                .finally(() => publisher.setFaults(''));
              const killed = stopped === point.step;
              if (!killed) expect(stopped).toBe('finished: done');
              await page.close();
              page = await open(s);

              const mid = await page.evaluate((svc) => harness.checksums(svc), p.service);
              const expected = await reference;
              expect(expected.tables).not.toEqual(before.tables);
              const switched = mid.generation !== before.generation;
              expect(mid).toEqual(switched ? expected : before);
              if (killed && !['switch:after', 'cleanup'].includes(point.step)) expect(switched).toBe(false);
              await page.evaluate(() => harness.closeStore());

              const next = await page.evaluate(([sources, svc]) => harness.sync({ only: [svc], sources }), [SOURCES, p.service] as const);
              expect(next.outcome).toBe('done');
              expect(next.outcome === 'done' && next.summary.errors).toEqual([]);
              expect(next.outcome === 'done' && next.summary.files.filter((f) => f.status === 'failed')).toEqual([]);
              expect(await page.evaluate((svc) => harness.checksums(svc), p.service)).toEqual(expected);

              const d = (await page.evaluate(() => harness.status())).datasets[p.service]!;
              const keep = new Set([d.database, `${d.database}.wal`, ...Object.values(d.sources).map((x) => x.store)]);
              const left = (await page.evaluate(() => harness.opfs())).filter((n) => files.belongsTo(p.service, n) && !keep.has(n));
              expect(left).toEqual([]);
              await page.close();
              page = null;
              before = expected;
              if (killed) tally.killed++;
              else tally.not_reached++;
              row[p.label] = killed ? 'killed' : 'not reached';
            } catch (e) {
              tally.failures++;
              row[p.label] = 'failed';
              throw e;
            }
          }
        } finally {
          await page?.close().catch(() => undefined);
          await s.close();
        }
      }, 1_800_000);
    }
  });
});
