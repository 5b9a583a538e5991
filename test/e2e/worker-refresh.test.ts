/**
 * Issue 20 in the browser, through the harness page (test/e2e/harness): the MF history refreshed by
 * day through the sync worker into OPFS, the page reloaded between syncs and closed at steps of the
 * refresh; each publish ends equal to Node's fresh sync of it (row count and row hash of every table,
 * mf.nav the view over base and deltas), and one scheme's NAV answered as Node answers it. The default run stops the page at the delta; ALMANAC_LONG=1
 * also at the plan and before the switch.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { files } from '../../src/core/sync/metadata.js';
import { historyFiles } from '../../src/core/sync/refresh/history.js';
import type { SyncOutcome } from '../../src/ui/lib/backend-api.js';
import { publishTiny } from '../helpers/tiny-data.js';
import { checksums } from '../reliability/store-check.js';
import { openStore } from '../../src/core/database/node.js';
import { runCalls } from './harness/calls.js';
import { LONG } from '../reliability/figures.js';
import { SOURCES, startHarness, type HarnessStack } from './harness/stack.js';
import { hasChromium, launch } from './browser.js';

describe.skipIf(!hasChromium)('MF history refresh in Chromium (harness page, publisher on 127.0.0.1)', () => {
  let h: HarnessStack;

  beforeAll(async () => {
    h = await startHarness('worker-refresh', ['mf']);
  }, 600_000);

  afterAll(() => h?.close());

  it('the MF history refreshed by day: OPFS, the sync worker, reloads, the page closed at refresh steps; equal to a fresh Node sync', async () => {
    const s = await launch();
    const days = (n: number) => ({ publishes: Array.from({ length: n }, () => ({ step: 'day' as const })) });
    const navOf = (o: SyncOutcome) => (o.outcome === 'done' ? o.summary.files.find((f) => f.name === 'mf_nav_master.parquet') : undefined);
    let page: Page | null = null;
    try {
      await publishTiny(h.dataDir, ['mf'], days(1));
      page = await h.open(s);
      const first = await page.evaluate((sources) => harness.sync({ only: ['mf'], sources }), SOURCES);
      expect(first.outcome === 'done' && first.summary.errors).toEqual([]);
      let before = await page.evaluate(() => harness.checksums('mf'));
      for (const [n, step] of [[2, null], [3, 'refresh:delta'], ...(LONG ? ([[4, 'refresh:plan'], [5, 'switch:before']] as const) : [])] as const) {
        console.log(`refresh in Chromium: publish ${n}, ${step ?? 'no stop'} (${new Date().toISOString()})`);
        await publishTiny(h.dataDir, ['mf'], days(n));
        const refDir = path.join(h.root, `node-refresh-${n}`);
        await h.nodeSync(refDir, ['mf']);
        const expected = await checksums(refDir, 'mf');
        if (step) {
          // Closed while the refresh stands at `step`: reopened, the previous generation answers.
          await page.close();
          page = await h.open(s);
          const stopped = await page.evaluate(
            ([sources, at]) => Promise.race([harness.sync({ only: ['mf'], sources }, at).then((o) => `finished: ${o.outcome}`), harness.paused()]),
            [SOURCES, { step, nth: 1 }] as const,
          );
          expect(stopped).toBe(step);
          await page.close();
          page = await h.open(s);
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
        // One scheme's history reads the base table and the tail of newer days in memory (services/mf/nav-tail.ts):
        // the worker's answer equals Node's over the fresh sync, new days included.
        const browserCalls = await page.evaluate(() => harness.calls());
        const store = await openStore(refDir);
        let node: Record<string, unknown>, newest: string;
        try {
          [{ newest }] = await store.engine.all<{ newest: string }>('SELECT max(nav_date)::VARCHAR AS newest FROM mf.latest');
          node = await runCalls(store.engine);
        } finally {
          await store.close();
        }
        expect((node['mf nav'] as { latest_available_date: string }).latest_available_date).toBe(newest);
        expect(browserCalls['mf nav']).toEqual(node['mf nav']);
      }
    } finally {
      await page?.close().catch(() => undefined);
      await s.close();
    }
  }, 1_800_000);
});
