/**
 * #12, the Chromium half of the kill campaign, through the harness page (test/e2e/harness): the page is
 * closed while the sync stands at a named point, for each ingest path; reopened, the store answers
 * exactly what it answered before (or, once the switch happened, exactly the new generation), and the
 * next sync completes with nothing left behind. One test file per ingest path (kill-chromium-*.test.ts),
 * so the two vitest workers share the campaign. The default run spreads the points over the paths;
 * ALMANAC_LONG=1 runs every point on every path.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { nodeHost } from '../../src/core/database/node.js';
import { fileState, files, setChoice } from '../../src/core/sync/metadata.js';
import type { FormatChoice, Service } from '../../src/core/sync/datasets.js';
import type { SyncStep } from '../../src/core/sync/hooks.js';
import { publishTiny } from '../helpers/tiny-data.js';
import { checksums } from '../reliability/store-check.js';
import { LONG, writeFigures } from '../reliability/figures.js';
import { SOURCES, startHarness, type HarnessStack } from './harness/stack.js';
import { hasChromium, launch } from './browser.js';

/** One ingest path per way a file reaches the browser's database: parquet-wasm, a whole .duckdb, read_csv. */
const PATHS = [
  { label: 'parquet', service: 'flags', choice: 'parquet', files: 7 },
  { label: 'duckdb', service: 'indicators', choice: 'duckdb', files: 1 },
  { label: 'csv', service: 'indicators', choice: 'csv.zip', files: 3 },
] as const satisfies readonly { label: string; service: Service; choice: FormatChoice; files: number }[];
export type PathLabel = (typeof PATHS)[number]['label'];

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

/** The path's points: every point (long), or each point once over the campaign, the paths taking turns (default). */
function pointsOf(i: number): Point[] {
  return POINTS.filter((pt, j) => (LONG ? !pt.perTable || PATHS[i].files > 1 : j % PATHS.length === i));
}

export function killCampaign(label: PathLabel): void {
  const i = PATHS.findIndex((x) => x.label === label);
  const p = PATHS[i];
  const points = pointsOf(i);

  describe.skipIf(!hasChromium)(`kill campaign, ${p.label} path: the page closed at each point of a sync, reopened, answers as before; the next sync completes`, () => {
    let h: HarnessStack;
    const tally = { runs: 0, killed: 0, not_reached: 0, failures: 0 };
    const rows = new Map<string, Record<string, string>>(points.map((pt) => [pt.label, {}]));

    beforeAll(async () => {
      h = await startHarness(`kill-${p.label}`, [p.service]);
    }, 600_000);

    afterAll(async () => {
      await h?.close();
      writeFigures({
        campaign: `kill-chromium-${p.label}`,
        title: `Kill campaign, Chromium half, ${p.label} path (page closed mid-sync)`,
        checks: [
          `test/e2e/kill-chromium-${p.label}.test.ts: ${points.length} points of a sync (the sync stands still at a named step, then the page is closed, which ends its workers) on the ${p.label} ingest path (${p.service} ${p.choice}); ${LONG ? 'every point of the campaign' : `default run: the campaign's ${POINTS.length} points are spread over its ${PATHS.length} paths (${PATHS.map((x) => x.label).join(', ')}), each point on one; ALMANAC_LONG=1 runs every point on every path`}. Tiny data, one generation further per run, in real Chromium with OPFS, IndexedDB and Web Locks.`,
          'After each close: the reopened store answers every table with the same row count and row hash as before the sync, or, when the close came after the switch, exactly what Node answers for the new generation.',
          'Then the next sync finishes without errors, answers exactly what Node answers for that generation, and leaves no file of the dataset behind but its database and sources.',
          '"not reached": the sync finished before the point (a plan with fewer files or chunks); counted, not a failure.',
        ],
        counts: tally,
        rows: [...rows].filter(([, r]) => Object.keys(r).length).map(([label, counts]) => ({ label, counts })),
      });
    });

    it(`${p.label} (${p.service}, ${p.choice}): ${points.length} points`, async () => {
      const s = await launch();
      const refDir = path.join(h.root, `node-${p.label}`);
      let page: Page | null = null;
      try {
        // Generation 1 in both stores, with the path's format chosen in each.
        let generation = 1;
        await publishTiny(h.dataDir, [p.service], { generation });
        await setChoice(fileState(nodeHost(refDir).storage), p.service, p.choice);
        // Both syncs read the chosen format only.
        const suffix = p.choice === 'duckdb' ? '.duckdb.gz' : `.${p.choice}`;
        const other = (o: { files: { name: string }[] }) => o.files.map((f) => f.name).filter((n) => !n.endsWith(suffix));
        expect(other(await h.nodeSync(refDir, [p.service]))).toEqual([]);
        let before = await checksums(refDir, p.service);
        page = await h.open(s);
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
            await publishTiny(h.dataDir, [p.service], { generation: ++generation });
            // The Node reference syncs the new generation meanwhile (it is needed only to compare).
            const reference = h.nodeSync(refDir, [p.service]).then(() => checksums(refDir, p.service));
            reference.catch(() => undefined);

            // A fresh page: its sync worker has made no download yet, as after a restart.
            page = await h.open(s);
            if (point.paced) h.publisher.setFaults(PACE);
            const stopped = await page
              .evaluate(
                ([sources, svc, at]) => {
                  const run = harness.sync({ only: [svc], sources }, at);
                  return Promise.race([run.then((o) => `finished: ${o.outcome}`), harness.paused()]);
                },
                [SOURCES, p.service, { step: point.step, nth: point.nth }] as const,
              )
              .finally(() => h.publisher.setFaults(''));
            const killed = stopped === point.step;
            if (!killed) expect(stopped).toBe('finished: done');
            await page.close();
            page = await h.open(s);

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
  });
}
