import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICES } from '../../src/core/sync/datasets.js';
import { publishTiny } from '../helpers/tiny-data.js';
import { hasChromium, screenshot } from './browser.js';
import { startStack, syncButton, type AppStack } from './stack.js';

/**
 * The built app against the stand-in publisher serving tiny data, in real Chromium: first sync into
 * OPFS, each view's main path, offline reload, and a new generation fetching only what changed.
 * Tests run in order on one profile, as a user's first session would.
 */
describe.skipIf(!hasChromium)('app e2e (built app, publisher on 127.0.0.1, Chromium, OPFS)', () => {
  let dataDir: string;
  let stack: AppStack;

  beforeAll(async () => {
    // Generation 1 of tiny data, copied from the tests' cache (test/helpers/tiny-data.ts).
    dataDir = mkdtempSync(path.join(tmpdir(), 'almanac-e2e-data-'));
    await publishTiny(dataDir, SERVICES);
    stack = await startStack(dataDir);
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('first run: Sync shows per-file progress and makes every source current', async () => {
    const { page } = stack.s;
    await page.goto(`${stack.app.url}#/data`);
    await page.getByText('DuckDB ready').waitFor({ timeout: 60_000 });
    await page.getByTestId('state-mf').filter({ hasText: 'not synced' }).waitFor();
    await screenshot(page, 'data-first-run');
    // Before any sync, a view says what to do next rather than showing DuckDB's catalog error.
    await page.goto(`${stack.app.url}#/indicators`);
    const empty = page.getByRole('alert').filter({ hasText: 'Nothing to show yet' });
    await empty.waitFor({ timeout: 30_000 });
    expect(await empty.textContent()).toContain('Open Data and press Sync');
    expect(await empty.textContent()).not.toContain('Catalog Error');
    await page.goto(`${stack.app.url}#/data`);
    await syncButton(page).click();
    await page.getByRole('progressbar').first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'data-syncing');
    await syncButton(page).waitFor({ timeout: 180_000 });
    await screenshot(page, 'data-synced');
    const alerts = (await page.getByRole('alert').allTextContents()).join('\n');
    expect(alerts).toBe('');
    for (const svc of ['indicators', 'mf', 'flags']) {
      await expect.poll(() => page.getByTestId(`state-${svc}`).textContent()).toBe('current');
    }
    // The MF history came whole (nothing to refresh from): the panel says why, and how much moved.
    const history = (await page.locator('section[aria-label="Sync progress"] li').allTextContents()).find((t) => t.includes('mf / mf_nav_master.parquet'));
    expect(history).toMatch(/downloaded whole: no earlier full download to refresh from · [\d.]+ (KB|MB) · [\d,]+ rows/);
    // The Storage card counts the synced files in OPFS (originUsage), megabytes of them here.
    await expect.poll(() => page.getByTestId('store-bytes').textContent()).toMatch(/^\d+(\.\d+)? MB$/);
  }, 240_000);

  it('indicators: pick two, notes shown above the chart, chart and table', async () => {
    const { page } = stack.s;
    await page.goto(`${stack.app.url}#/indicators/us_macro`);
    const boxes = page.getByRole('checkbox', { name: /^Pick / });
    await boxes.first().waitFor({ timeout: 30_000 });
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await page.getByRole('button', { name: 'Draw' }).click();
    const canvas = page.locator('.result .chart canvas').first();
    await canvas.waitFor({ timeout: 30_000 });
    const notes = page.locator('.notes li');
    expect(await notes.count()).toBe(2);
    for (const t of await notes.locator('p.small').first().allTextContents()) expect(t.trim().length).toBeGreaterThan(0);
    const [notesBox, chartBox] = [await notes.first().boundingBox(), await canvas.boundingBox()];
    expect(notesBox!.y).toBeLessThan(chartBox!.y);
    expect(page.url()).toContain('ids=');
    await screenshot(page, 'indicators-chart');
    await page.getByRole('tab', { name: 'Table' }).click();
    expect(await page.locator('.result table.data tbody tr').count()).toBeGreaterThan(0);

    // The link opened afresh draws the same chart with both notes; also from another category's page,
    // where the ids are not in the listing and are looked up in the other categories.
    const link = page.url();
    const names = await notes.locator('strong').allTextContents();
    expect(names).toHaveLength(2);
    for (const url of [link, link.replace('/us_macro?', '/currencies?')]) {
      await page.goto('about:blank');
      await page.goto(url);
      await page.locator('.result .chart canvas').first().waitFor({ timeout: 30_000 });
      await expect.poll(() => page.locator('.notes li').count()).toBe(2);
      expect(await page.locator('.notes li strong').allTextContents()).toEqual(names);
    }
  }, 90_000);

  it('SQL: every example query runs against the synced data', async () => {
    const { page } = stack.s;
    await page.goto(`${stack.app.url}#/sql`);
    const examples = page.locator('.examples button');
    await examples.first().waitFor();
    const n = await examples.count();
    for (let i = 0; i < n; i++) {
      await examples.nth(i).click();
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      await page.getByRole('button', { name: 'Run', exact: true }).waitFor({ timeout: 30_000 });
      await page.getByRole('status').filter({ hasText: /rows/ }).waitFor({ timeout: 30_000 });
      expect(await page.getByRole('alert').count(), await examples.nth(i).textContent() ?? '').toBe(0);
    }
    await screenshot(page, 'sql-example');
  }, 120_000);

  it('fund search → scheme page with its NAV chart', async () => {
    const { page } = stack.s;
    await page.goto(`${stack.app.url}#/funds`);
    await page.getByLabel('Search schemes').fill('HDFC');
    await page.getByRole('button', { name: 'Search' }).click();
    // The page first shows the default browse; wait for the search's own answer.
    await page.getByRole('status').filter({ hasText: /schemes/ }).waitFor({ timeout: 30_000 });
    await page.waitForURL(/q=HDFC/);
    const first = page.locator('table.data tbody a').first();
    await expect.poll(async () => (await first.textContent())?.toUpperCase(), { timeout: 30_000 }).toContain('HDFC');
    await screenshot(page, 'funds-search');
    const other = decodeURIComponent((await page.locator('table.data tbody a').nth(1).getAttribute('href'))!.split('/')[2].split('?')[0]);
    await first.click();
    await page.getByRole('heading', { name: 'NAV history' }).waitFor({ timeout: 30_000 });
    await page.locator('.chart canvas').first().waitFor();
    expect(await page.locator('table.data tbody tr').count()).toBeGreaterThan(0);
    await screenshot(page, 'fund-scheme');
    await page.getByLabel('Theme').selectOption('dark');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await screenshot(page, 'fund-scheme-dark');
    await page.getByLabel('Theme').selectOption('system');

    // The page's Compare opens Compare with this fund, computed against the Nifty 50.
    const code = decodeURIComponent(new URL(page.url()).hash.split('/')[2].split('?')[0]);
    expect(await page.locator('.page-head .badge').textContent()).toBe('active');
    await page.locator('.page-head').getByRole('link', { name: 'Compare' }).click();
    await page.waitForURL(new RegExp(`#/compare\\?symbols=${code}&benchmark=%5ENSEI$`));
    const metrics = page.getByRole('region', { name: 'Metrics' });
    await metrics.waitFor({ timeout: 60_000 });
    expect(await metrics.locator('thead').textContent()).toContain(code);
    expect(await metrics.getByText(/^against /).textContent()).toMatch(/^against \^NSEI · /);
    // A link to another comparison, followed while Compare is open, is computed.
    expect(other).not.toBe(code);
    await page.evaluate((h) => (location.hash = h), `#/compare?symbols=${other}&benchmark=%5ENSEI`);
    await expect.poll(async () => metrics.locator('thead').textContent(), { timeout: 60_000 }).toContain(other);
    expect(await metrics.locator('thead').textContent()).not.toContain(code);
    // The form shows the link's securities.
    expect(await page.getByRole('button', { name: `Remove ${other}` }).count()).toBe(1);
    expect(await page.getByRole('button', { name: `Remove ${code}` }).count()).toBe(0);
  }, 90_000);

  it('red flags: ranked scorecard → company page with its tables', async () => {
    const { page } = stack.s;
    await page.goto(`${stack.app.url}#/flags`);
    const top = page.locator('table.data tbody a').first();
    await top.waitFor({ timeout: 30_000 });
    const symbol = (await top.textContent())!.trim();
    await screenshot(page, 'flags-scorecard');
    await top.click();
    // The company page's own scorecard heading ("Scorecard as of …"), not the ranked list's "Scorecard".
    await page.getByRole('heading', { name: /Scorecard as of/ }).waitFor({ timeout: 30_000 });
    expect(await page.locator('.crumbs').textContent()).toContain(symbol);
    expect(await page.locator('section h2').count()).toBeGreaterThanOrEqual(8);
    await screenshot(page, 'flags-company');
  }, 90_000);

  it('answers offline after a reload (service worker + OPFS)', async () => {
    const { page, context } = stack.s;
    // Installed means every precached file (shell, DuckDB and parquet wasm) is in the cache.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await context.setOffline(true);
    try {
      await page.goto(`${stack.app.url}#/funds`);
      await page.getByText('DuckDB ready').waitFor({ timeout: 60_000 });
      await page.getByLabel('Search schemes').fill('HDFC');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.locator('table.data tbody a').first().waitFor({ timeout: 30_000 });
      await screenshot(page, 'offline-funds');
    } finally {
      await context.setOffline(false);
    }
  }, 120_000);

  it('a new generation of one source downloads only the files that changed', async () => {
    const { page } = stack.s;
    await publishTiny(dataDir, ['flags'], { generation: 2 });
    await page.goto(`${stack.app.url}#/data`);
    await page.getByTestId('state-flags').filter({ hasText: 'update available' }).waitFor({ timeout: 30_000 });
    await syncButton(page).click();
    await syncButton(page).waitFor({ timeout: 120_000 });
    const rows = page.locator('section[aria-label="Sync progress"] li');
    const texts = await rows.allTextContents();
    const flags = texts.filter((t) => t.includes('flags /'));
    const unchanged = flags.filter((t) => t.includes('unchanged (304)'));
    const downloaded = flags.filter((t) => t.includes('downloaded'));
    expect(flags.length).toBeGreaterThan(0);
    expect(downloaded.length).toBeGreaterThan(0);
    expect(downloaded.length + unchanged.length).toBe(flags.length);
    // The other sources' manifests answered 304: nothing of theirs was fetched again.
    expect(texts.filter((t) => !t.includes('flags /') && t.includes('downloaded'))).toEqual([]);
    // The state line is re-read from the store after the button comes back: poll, as https.test does.
    await expect.poll(() => page.getByTestId('state-flags').textContent()).toBe('current');
    await screenshot(page, 'data-new-generation');
  }, 180_000);

  it("a Monday's publish refreshes the MF history: the panel says what moved, the NAV endpoint's bytes on its own line", async () => {
    const { page } = stack.s;
    // Generation 1 is as of a Friday, so the next business day is a Monday: liquid funds' weekend NAVs
    // come through the NAV endpoint, the rest from the latest snapshot.
    await publishTiny(dataDir, ['mf'], { publishes: [{ step: 'day' }] });
    // Already on the Data view: its Refresh asks the manifests again.
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await page.getByTestId('state-mf').filter({ hasText: 'update available' }).waitFor({ timeout: 30_000 });
    await syncButton(page).click();
    await syncButton(page).waitFor({ timeout: 120_000 });
    const texts = await page.locator('section[aria-label="Sync progress"] li').allTextContents();
    expect(texts.find((t) => t.includes('mf / mf_nav_master.parquet'))).toMatch(/appended 3 days \([\d,]+ rows\) from the latest snapshot and the NAV endpoint, [\d.]+ (KB|MB)/);
    // Its answers' bytes, not the 0 B of an entry that had no download events.
    expect(texts.find((t) => t.includes('mf / nav endpoint'))).toMatch(/downloaded [1-9][\d.]* (B|KB)/);
    // The card's file list, from the store once the manifest answers 304: the history's rows as held
    // (the publish's count), not those of its last whole download.
    await expect.poll(() => page.getByTestId('state-mf').textContent()).toBe('current');
    const manifest = JSON.parse(readFileSync(path.join(dataDir, 'mf', 'manifest.json'), 'utf8')) as { files: Record<string, { row_count: number }> };
    const history = page.locator('article[aria-labelledby="src-mf"] tr', { hasText: 'mf_nav_master.parquet' });
    await expect.poll(() => history.locator('td').last().textContent()).toBe(manifest.files['mf_nav_master.parquet'].row_count.toLocaleString('en-US'));
    await screenshot(page, 'data-monday-refresh');
  }, 180_000);

  it("the page's CSP refused nothing along the way: the loader's imports, workers, wasm, service worker", () => {
    // src/ui/page-script.ts: scripts by the loader's hash, then 'strict-dynamic'.
    expect(stack.s.violations).toEqual([]);
    expect(stack.s.errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
  });
});
