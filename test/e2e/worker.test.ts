/**
 * The browser store in real Chromium, through the harness page (test/e2e/harness: the app's own
 * BrowserBackend, sync worker, OPFS, IndexedDB and Web Locks, without the views). #5: the same core
 * service calls in a Chromium worker and in Node, over the same synced tiny data, answer identically.
 * The MF history's refresh in Chromium is worker-refresh.test.ts; the Chromium half of the kill
 * campaign is kill-chromium-*.test.ts (one file per ingest path, so both workers share them).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/core/database/node.js';
import { runCalls } from './harness/calls.js';
import { SOURCES, startHarness, type HarnessStack } from './harness/stack.js';
import { hasChromium, launch } from './browser.js';

describe.skipIf(!hasChromium)('browser store in Chromium (harness page, publisher on 127.0.0.1)', () => {
  let h: HarnessStack;

  beforeAll(async () => {
    h = await startHarness('worker', ['indicators', 'mf', 'flags']);
  }, 600_000);

  afterAll(() => h?.close());

  it('the same core service calls answer identically in a Chromium worker and in Node', async () => {
    const s = await launch();
    try {
      const page = await h.open(s);
      const outcome = await page.evaluate((sources) => harness.sync({ only: ['indicators', 'mf', 'flags'], sources }), SOURCES);
      expect(outcome.outcome).toBe('done');
      expect(outcome.outcome === 'done' && outcome.summary.errors).toEqual([]);
      const browser = await page.evaluate(() => harness.calls());

      const refDir = path.join(h.root, 'parity-node');
      await h.nodeSync(refDir, ['indicators', 'mf', 'flags']);
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
      const page = await h.open(s);
      expect(await page.evaluate(() => harness.rebuiltAttach('hazard-autocheckpoint.duckdb'))).toEqual([{ small: 1000, big: 1_200_000 }]);
    } finally {
      await s.close();
    }
  }, 120_000);
});
