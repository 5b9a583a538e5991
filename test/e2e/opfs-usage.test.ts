/**
 * The origin's storage figure after syncs in Chromium, across a browser restart. Chromium records no
 * usage for bytes written through a sync access handle (downloads, DuckDB's databases) but subtracts a
 * removed file's whole size, so a sync that removes files used to leave the origin's recorded usage
 * negative: after a restart the estimate said ~4 GiB for ~5 MB of files (docs/storage.md). Here: a
 * first sync and a one-day refresh in the sync worker, and two price imports in the page (each saves
 * a user database and removes the one before, through a worker of its own), all removing files; then
 * the browser closed and reopened on the same profile, and the estimate and the app's count read back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishTiny } from '../helpers/tiny-data.js';
import { SOURCES, startHarness, type HarnessStack } from './harness/stack.js';
import { hasChromium, launch } from './browser.js';

describe.skipIf(!hasChromium)("the origin's storage figure in Chromium (harness page, publisher on 127.0.0.1)", () => {
  let h: HarnessStack;
  let profile: string;

  beforeAll(async () => {
    h = await startHarness('opfs-usage', ['mf']);
    profile = mkdtempSync(path.join(tmpdir(), 'almanac-e2e-usage-profile-'));
  }, 600_000);

  afterAll(async () => {
    await h?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('files removed by syncs leave the recorded usage whole after a restart; the app counts the files in OPFS', async () => {
    const first = await launch({ profile });
    try {
      const page = await h.open(first);
      for (const n of [1, 2]) {
        if (n > 1) await publishTiny(h.dataDir, ['mf'], { publishes: Array.from({ length: n - 1 }, () => ({ step: 'day' as const })) });
        const o = await page.evaluate((sources) => harness.sync({ only: ['mf'], sources }), SOURCES);
        expect(o.outcome === 'done' && o.summary.errors).toEqual([]);
      }
      // ~60k rows, so each user database the page removes is a few hundred kB.
      const csv = (symbol: string) =>
        ['date,symbol,close', ...Array.from({ length: 60_000 }, (_, i) => `${new Date(Date.UTC(1900, 0, 1 + i)).toISOString().slice(0, 10)},${symbol},${100 + (i % 997) / 7}`)].join('\n');
      expect(await page.evaluate((text) => harness.importPrices(text), csv('ONE'))).toBe(60_000);
      expect(await page.evaluate((text) => harness.importPrices(text), csv('TWO'))).toBe(60_000);
      expect((await page.evaluate(() => harness.opfs())).filter((f) => /^user-\d+\.duckdb$/.test(f))).toEqual(['user-2.duckdb']);
    } finally {
      await first.close();
    }
    const again = await launch({ profile });
    try {
      const page = await h.open(again);
      const { estimate, counted } = await page.evaluate(() => harness.usage());
      const files = counted!.files!;
      expect(files).toBeGreaterThan(100_000);
      // Chromium's own figure for OPFS: never above the files' sizes (it leaves out what sync access
      // handles wrote), and never the wrapped negative it was (~4.29e9 for a few MB of files).
      expect(estimate.usageDetails!.fileSystem).toBeLessThanOrEqual(files + 64 * 1024);
      // The app's count: the estimate's other parts (caches, IndexedDB) plus the files' sizes.
      expect(counted!.usage).toBe(estimate.usage! - estimate.usageDetails!.fileSystem + files);
      expect(counted!.quota).toBe(estimate.quota);
    } finally {
      await again.close();
    }
  }, 600_000);
});
