import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICES } from '../../src/core/sync/datasets.js';
import { publishTiny } from '../helpers/tiny-data.js';
import { hasChromium, screenshot } from './browser.js';
import { firstSync, startStack, syncButton, type AppStack } from './stack.js';

/** An active scheme of the tiny data that every generation extends (HDFC Liquid Fund - Growth). */
const SCHEME = '100000';
/** A fixture company of the red-flag data (src/gen/flags-fixtures.ts). */
const COMPANY = 'REDSTONE';

/**
 * Watches and What's new in the built app, real Chromium, OPFS: watch a scheme and a company from
 * their pages, sync the next generation, see the unread badge, open What's new (deep-linkable), follow
 * a change to its page. The page's store compares old and new generation at each switch.
 */
describe.skipIf(!hasChromium)("What's new e2e (built app, publisher on 127.0.0.1, Chromium)", () => {
  let dataDir: string;
  let stack: AppStack;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'almanac-e2e-news-'));
    await publishTiny(dataDir, SERVICES);
    stack = await startStack(dataDir);
    await firstSync(stack.s.page, stack.app.url);
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('the Watch toggle on a scheme and a company page keeps its state across a reload', async () => {
    const { page } = stack.s;
    for (const link of [`#/funds/${SCHEME}`, `#/flags/${COMPANY}`]) {
      await page.goto(`${stack.app.url}${link}`);
      const watch = page.getByRole('button', { name: '☆ Watch' });
      await watch.click({ timeout: 60_000 });
      await page.getByRole('button', { name: '★ Watching' }).waitFor();
    }
    await page.reload();
    await page.getByRole('button', { name: '★ Watching' }).waitFor({ timeout: 60_000 });
    expect(await page.getByRole('button', { name: '★ Watching' }).getAttribute('aria-pressed')).toBe('true');
  }, 180_000);

  it('a sync that changed watched items shows the unread badge until What\'s new is opened', async () => {
    const { page } = stack.s;
    await publishTiny(dataDir, SERVICES, { generation: 2 });
    await page.goto(`${stack.app.url}#/data`);
    await syncButton(page).click();
    await page.getByRole('progressbar').first().waitFor({ timeout: 30_000 });
    await syncButton(page)
      .waitFor({ timeout: 240_000 })
      .catch((e: Error) => {
        throw new Error(`${e.message}\nconsole errors: ${stack.s.errors.join('\n') || 'none'}`);
      });
    const badge = page.getByTestId('news-badge');
    await badge.waitFor({ timeout: 30_000 });
    expect(Number(await badge.textContent())).toBeGreaterThanOrEqual(1);
    await screenshot(page, 'news-badge');

    await page.getByRole('link', { name: /What's new/ }).click();
    const schemes = page.getByRole('table', { name: 'Schemes' });
    await schemes.waitFor({ timeout: 30_000 });
    const row = schemes.getByRole('row').filter({ has: page.getByRole('link', { name: SCHEME }) });
    expect(await row.count()).toBe(1);
    // The code is opaque: the row names the fund too.
    expect(await row.textContent()).toContain('HDFC Liquid Fund - Growth');
    expect(Number((await page.getByTestId('total-navs').textContent())!.replace(/\D/g, ''))).toBeGreaterThan(0);
    await screenshot(page, 'news-view');
    // Seen: the badge is gone, also after leaving the view.
    await page.getByRole('link', { name: /^Data/ }).click();
    await page.getByTestId('state-mf').waitFor();
    expect(await page.getByTestId('news-badge').count()).toBe(0);
  }, 400_000);

  it('What\'s new is deep-linkable and each change links to its page', async () => {
    const { page } = stack.s;
    await page.goto(`${stack.app.url}#/news?since=2000-01-01`);
    await page.reload();
    const link = page.getByRole('table', { name: 'Schemes' }).getByRole('link', { name: SCHEME });
    await link.click({ timeout: 60_000 });
    await page.getByRole('button', { name: '★ Watching' }).waitFor({ timeout: 60_000 });
    expect(page.url()).toContain(`#/funds/${SCHEME}`);
  }, 180_000);
});
