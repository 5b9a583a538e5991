import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICES } from '../../src/core/sync/datasets.js';
import { publishTiny } from '../helpers/tiny-data.js';
import { hasChromium, screenshot } from './browser.js';
import { firstSync, startStack, type AppStack } from './stack.js';

/**
 * The person who opens Almanac every morning: at open the app asks each synced source's manifest
 * (conditionally) and shows a new publish on the Data item, or syncs it by itself when the user chose
 * so, without a visit to the Data view. Built app, stand-in publisher over HTTP, Chromium, OPFS.
 */
describe.skipIf(!hasChromium)('at open: new publishes shown, or synced (built app, Chromium)', () => {
  let dataDir: string;
  let stack: AppStack;
  /** Manifest requests the page and its workers made. */
  const manifests: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'almanac-e2e-at-open-'));
    await publishTiny(dataDir, SERVICES);
    stack = await startStack(dataDir);
    stack.s.page.context().on('request', (r) => void (r.url().includes('/downloads/manifest') && manifests.push(r.url())));
    await firstSync(stack.s.page, stack.app.url);
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** Opens the app on the Funds view, as a morning's first look, and waits for its engine. */
  async function openOnFunds() {
    const { page } = stack.s;
    await page.goto(`${stack.app.url}#/funds`);
    await page.reload();
    await page.getByText('DuckDB ready').waitFor({ timeout: 60_000 });
  }

  it('by default a new publish shows on the Data item at open, naming the source', async () => {
    const { page } = stack.s;
    await openOnFunds();
    // Nothing new yet: every manifest answered, no badge.
    await expect.poll(() => manifests.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    expect(await page.getByTestId('data-badge').count()).toBe(0);
    await publishTiny(dataDir, ['flags'], { generation: 2 });
    await openOnFunds();
    const badge = page.getByTestId('data-badge');
    await badge.filter({ hasText: 'update' }).waitFor({ timeout: 30_000 });
    expect(await badge.getAttribute('title')).toBe('A new publish of flags');
    await screenshot(page, 'at-open-update', { fullPage: false });
  }, 180_000);

  it('"Sync new data": the next open syncs what is behind by itself, and What\'s new lights up', async () => {
    const { page } = stack.s;
    await page.goto(`${stack.app.url}#/data`);
    await page.getByTestId('at-open').selectOption('sync');
    // Every text the Data item's badge shows, from the page's start: a tiny sync may come and go
    // between two looks of a locator.
    await page.addInitScript(() => {
      const seen: string[] = [];
      Object.assign(window, { badgeTexts: seen });
      new MutationObserver(() => {
        const t = document.querySelector('[data-testid="data-badge"]')?.textContent;
        if (t && seen[seen.length - 1] !== t) seen.push(t);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await openOnFunds();
    // The badge turns to "syncing", then goes once flags is current.
    await expect.poll(() => page.evaluate(() => (window as unknown as { badgeTexts: string[] }).badgeTexts), { timeout: 60_000 }).toContain('syncing');
    await expect.poll(() => page.getByTestId('data-badge').count(), { timeout: 120_000 }).toBe(0);
    await page.getByTestId('news-badge').waitFor({ timeout: 30_000 });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Data' }).click();
    await expect.poll(() => page.getByTestId('state-flags').textContent(), { timeout: 30_000 }).toBe('current');
    // The panel shows the run that happened before the view opened: flags only.
    const texts = await page.locator('section[aria-label="Sync progress"] li').allTextContents();
    expect(texts.some((t) => t.includes('flags /') && t.includes('downloaded'))).toBe(true);
    expect(texts.filter((t) => !t.includes('flags /'))).toEqual([]);
    expect((await page.getByRole('alert').allTextContents()).join('\n')).toBe('');
  }, 240_000);

  it('opened on the Data view, each source is asked once: the check at open takes the view\'s answer', async () => {
    const { page } = stack.s;
    await page.goto(`${stack.app.url}#/data`);
    await page.getByRole('button', { name: 'Refresh', exact: true }).waitFor();
    const before = manifests.length;
    await page.reload();
    await page.getByText('DuckDB ready').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Refresh', exact: true }).waitFor();
    await page.waitForTimeout(3_000);
    expect(manifests.slice(before).map((u) => new URL(u).pathname).sort()).toEqual(
      ['/publisher/flags/v1/downloads/manifest', '/publisher/mf/v1/downloads/manifest', '/publisher/v1/downloads/manifest'],
    );
  }, 120_000);

  it('"Do nothing": no manifest is asked at open', async () => {
    const { page } = stack.s;
    await page.goto(`${stack.app.url}#/data`);
    await page.getByTestId('at-open').selectOption('off');
    await page.getByRole('button', { name: 'Refresh', exact: true }).waitFor();
    await publishTiny(dataDir, ['flags'], { generation: 3 });
    const before = manifests.length;
    await openOnFunds();
    await page.waitForTimeout(3_000);
    expect(manifests.length).toBe(before);
    expect(await page.getByTestId('data-badge').count()).toBe(0);
    // Back to the default for whatever runs next in this profile.
    await page.goto(`${stack.app.url}#/data`);
    await page.getByTestId('at-open').selectOption('check');
  }, 120_000);
});
