/**
 * The Data view's sync in real Chromium (built app, stand-in publisher on 127.0.0.1): the sync runs in
 * its worker; cancelling mid-download keeps the previous data and the next sync resumes; a 429 shows
 * its countdown; two tabs cannot sync one store at once. Each test has its own browser profile.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PROXY, serveApp, type AppServer } from '../../src/cli/app-server.js';
import { startPublisher, type Publisher } from '../../src/publisher/server.js';
import { publishTiny } from '../helpers/tiny-data.js';
import { hasChromium, launch, screenshot, type Session } from './browser.js';

const SOURCES = { sources: { indicators: PROXY, mf: PROXY, flags: PROXY } };
/** ~2 KB/s: a tiny flags file takes seconds, long enough to act while it downloads. */
const SLOW = 'throttle=16kbps';

async function openData(page: Page, url: string): Promise<void> {
  await page.goto(`${url}#/data`);
  await page.getByTestId('state-flags').filter({ hasText: /not synced|current|update/ }).waitFor({ timeout: 60_000 });
  for (const name of ['Indicators', 'Mutual-fund NAVs']) await page.getByRole('checkbox', { name, exact: true }).uncheck();
}

const syncButton = (page: Page) => page.getByRole('button', { name: 'Sync', exact: true });
const rows = (page: Page) => page.locator('section[aria-label="Sync progress"] li');

describe.skipIf(!hasChromium)('Data view sync in Chromium (sync worker, OPFS, IndexedDB, Web Locks)', () => {
  let root: string;
  let publisher: Publisher;
  let app: AppServer;
  let s: Session | undefined;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'almanac-e2e-sync-'));
    await publishTiny(path.join(root, 'pub'), ['indicators', 'mf', 'flags']);
    publisher = await startPublisher({ dataDir: path.join(root, 'pub'), limits: 'off' });
    app = await serveApp({ dist: path.resolve('dist'), publisher: publisher.url, config: SOURCES });
  }, 300_000);

  afterEach(async () => {
    publisher.setFaults('');
    await s?.close();
    s = undefined;
  });

  afterAll(async () => {
    await app?.close();
    await publisher?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('cancel mid-download keeps the previous data; the next sync resumes the partial file', async () => {
    s = await launch();
    const { page } = s;
    await openData(page, app.url);
    await syncButton(page).click();
    await syncButton(page).waitFor({ timeout: 120_000 });
    await page.getByTestId('state-flags').filter({ hasText: 'current' }).waitFor({ timeout: 30_000 });
    await page.getByText('Local: generation 1').waitFor();

    await publishTiny(path.join(root, 'pub'), ['flags'], { generation: 2 });
    publisher.setFaults(SLOW);
    await page.reload();
    await openData(page, app.url);
    await page.getByTestId('state-flags').filter({ hasText: 'update available' }).waitFor({ timeout: 30_000 });
    await syncButton(page).click();
    // Some bytes of a changed file are in: "1.00 KB of 8.68 KB · …".
    await rows(page).filter({ hasText: /\d KB of / }).first().waitFor({ timeout: 60_000 });
    await screenshot(page, 'data-sync-running');
    await page.getByRole('button', { name: 'Cancel sync' }).click();
    await page.getByTestId('sync-notice').filter({ hasText: 'Sync cancelled' }).waitFor({ timeout: 60_000 });
    await screenshot(page, 'data-sync-cancelled');
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.getByText('Local: generation 1').waitFor();

    publisher.setFaults('');
    await syncButton(page).click();
    await syncButton(page).waitFor({ timeout: 120_000 });
    await page.getByText('Local: generation 2').waitFor({ timeout: 30_000 });
    const texts = await rows(page).allTextContents();
    expect(texts.filter((t) => t.includes('resumed: fetched the last')).length).toBe(1);
    expect(texts.filter((t) => t.includes('failed'))).toEqual([]);
    await screenshot(page, 'data-sync-resumed');
  }, 600_000);

  it('a 429 from the publisher shows its Retry-After countdown, then the sync finishes', async () => {
    // Its own publisher with 20-second windows, so the wait is short but real. Not shorter: a sync first
    // opens its worker and, in the tab holding the store, begins recording what it changes (watches),
    // which took over 8 s on a loaded machine, by when an 8-second window had passed unrefused.
    const limited = await startPublisher({ dataDir: path.join(root, 'pub'), limits: { minute: 20_000 } });
    const app429 = await serveApp({ dist: path.resolve('dist'), publisher: limited.url, config: SOURCES });
    try {
      s = await launch();
      const { page } = s;
      await openData(page, app429.url);
      // Spend the window's flags query budget from outside the app, as another client would.
      let status = 0;
      for (let i = 0; i < 40 && status !== 429; i++) {
        const res = await fetch(`${limited.url}/flags/v1/downloads/manifest`);
        await res.arrayBuffer();
        status = res.status;
      }
      expect(status).toBe(429);
      await syncButton(page).click();
      const wait = page.getByTestId('wait-flags');
      await wait.filter({ hasText: /rate limit \(HTTP 429\): waiting as the publisher asked: \d+ s/ }).waitFor({ timeout: 30_000 });
      await screenshot(page, 'data-429-countdown');
      await syncButton(page).waitFor({ timeout: 120_000 });
      await page.getByText('Local: generation').waitFor({ timeout: 30_000 });
      expect(await page.getByRole('alert').count()).toBe(0);
    } finally {
      await app429.close();
      await limited.close();
    }
  }, 600_000);

  it('two tabs: the second tab waits for the store and is refused a second sync; it sees the first tab’s data', async () => {
    s = await launch();
    const a = s.page;
    await openData(a, app.url);
    await a.getByText('DuckDB ready').waitFor({ timeout: 60_000 });
    const b = await s.context.newPage();
    await openData(b, app.url);
    await b.getByText('Almanac is open in another tab').waitFor({ timeout: 30_000 });

    publisher.setFaults(SLOW);
    await syncButton(a).click();
    await rows(a).filter({ hasText: /\d KB of / }).first().waitFor({ timeout: 60_000 });
    await syncButton(b).click();
    await b.getByTestId('sync-notice').filter({ hasText: /Not started: another sync of this store is running \(in another tab or window\)/ }).waitFor({ timeout: 30_000 });
    await screenshot(b, 'data-second-tab-refused');

    publisher.setFaults('');
    await syncButton(a).waitFor({ timeout: 120_000 });
    expect(await a.getByRole('alert').count()).toBe(0);
    // The first tab's switch reached the second one without a reload.
    await b.getByText(/Local: generation \d/).waitFor({ timeout: 30_000 });

    await a.close();
    await b.getByText('DuckDB ready').waitFor({ timeout: 60_000 });
    await syncButton(b).click();
    await syncButton(b).waitFor({ timeout: 120_000 });
    const texts = await rows(b).allTextContents();
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.every((t) => t.includes('unchanged (304)'))).toBe(true);
    expect(await b.getByRole('alert').count()).toBe(0);
  }, 600_000);
});
