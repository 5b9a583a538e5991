import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICES } from '../../src/core/sync/datasets.js';
import { publishTiny } from '../helpers/tiny-data.js';
import { amfiDailyFile } from '../helpers/amfi-file.js';
import { hasChromium, PHONE, screenshot, TABLET, type Device } from './browser.js';
import { startStack, syncButton, type AppStack } from './stack.js';

/** The views in the navigation, each with the heading it opens on. */
const VIEWS = [
  { tab: 'Data', heading: 'Data' },
  { tab: 'Indicators', heading: 'Indicators' },
  { tab: 'Funds', heading: 'Funds' },
  { tab: 'Red flags', heading: 'Red flags' },
  { tab: 'Compare', heading: 'Compare' },
  { tab: 'SQL', heading: 'SQL' },
  { tab: "What's new", heading: "What's new" },
];

/** How the page sits in the screen: sideways overflow, and the width the view's content takes. */
async function fit(page: Page) {
  return page.evaluate(() => {
    const main = document.querySelector('main')!;
    const style = getComputedStyle(main);
    const content = main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const widest = Math.max(...[...main.children].map((c) => c.getBoundingClientRect().width));
    return {
      width: innerWidth,
      scrollWidth: document.documentElement.scrollWidth,
      content,
      widest,
    };
  });
}

/** The Data view's choice of the MF NAV history. */
const history = (page: Page) => page.getByRole('checkbox', { name: /Include the MF NAV history/ });

/** The files of one source in the last sync's progress list (optionally only those with a status word). */
async function syncedFiles(page: Page, service: string, status = ''): Promise<string[]> {
  const rows = await page.locator('section[aria-label="Sync progress"] li').allTextContents();
  return rows.filter((t) => t.includes(`${service} /`) && t.includes(status)).map((t) => t.split(`${service} /`)[1].trim().split(/\s/)[0]);
}

type Point = { x: number; y: number };

/** One finger from `a` to `b` in steps, as a finger moves (CDP touch events, which the browser turns into gestures). */
async function touchDrag(page: Page, a: Point, b: Point): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const at = (i: number) => [{ x: a.x + ((b.x - a.x) * i) / 8, y: a.y + ((b.y - a.y) * i) / 8, id: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) });
  for (let i = 1; i <= 8; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(i) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/**
 * The built app on a phone (390x844, touch, mobile viewport) and a tablet (768x1024) in Chromium, on
 * tiny data: the theme follows the system live, every view is reached from the tab bar and fits the
 * width, a sync runs from the phone's Data view, a fund's NAV chart spans the screen and answers touch,
 * the file pickers work by tap. Screenshots of every view go to test-results/phone-* and tablet-*.
 */
describe.skipIf(!hasChromium)('phone and tablet e2e (built app, Chromium, touch)', () => {
  let dataDir: string;
  let filesDir: string;
  let stack: AppStack;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'almanac-e2e-phone-'));
    filesDir = mkdtempSync(path.join(tmpdir(), 'almanac-e2e-phone-files-'));
    await publishTiny(dataDir, SERVICES);
    stack = await startStack(dataDir, { device: PHONE });
  }, 300_000);

  /** What the publisher's NAV endpoint says of a scheme. */
  type Span = { scheme_code: number; count: number; first_available_date: string; latest_available_date: string };

  async function published(base: string, code: string | number): Promise<Span> {
    return (await (await fetch(`${base}/mf/v1/schemes/${code}/nav`)).json()) as Span;
  }

  /**
   * `n` funds still publishing, from the Funds list's rows after the first `skip` (of a search for `q`),
   * as the publisher's endpoint tells. A fixed-term plan may publish its last NAV today: search 'Liquid'
   * for funds that publish tomorrow too.
   */
  async function liveFunds(page: Page, skip: number, n: number, q = ''): Promise<Span[]> {
    await page.goto(`${stack.app.url}#/funds${q ? `?q=${q}` : ''}`);
    const links = page.locator('table.data tbody a');
    await links.nth(skip).waitFor({ timeout: 30_000 });
    // The list first shows the default browse; a search's own answer names what was asked.
    if (q) await expect.poll(async () => (await links.first().textContent())?.toUpperCase(), { timeout: 30_000 }).toContain(q.toUpperCase());
    const codes = (await links.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).hash.split('/')[2]))).slice(skip, skip + 8).map(decodeURIComponent);
    const spans = await Promise.all(codes.map((c) => published(stack.publisher.url, c)));
    const newest = spans.map((s) => s.latest_available_date).sort().at(-1)!;
    const live = spans.filter((s) => s.latest_available_date === newest).slice(0, n);
    expect(live).toHaveLength(n);
    return live;
  }

  afterAll(async () => {
    await stack?.close();
    for (const d of [dataDir, filesDir]) if (d) rmSync(d, { recursive: true, force: true });
  });

  it('the theme follows the system live until Light or Dark is picked; System follows it again', async () => {
    const { page } = stack.s;
    const shown = () => page.evaluate(() => document.documentElement.dataset.theme);
    const chrome = () => page.evaluate(() => [...document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')].map((m) => m.content));
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${stack.app.url}#/data`);
    await page.getByRole('heading', { name: 'Data', level: 1 }).waitFor({ timeout: 60_000 });
    expect(await page.getByLabel('Theme').inputValue()).toBe('system');
    expect(await shown()).toBe('light');
    // A mark on the window: gone if the page reloaded.
    await page.evaluate(() => ((window as unknown as { mark: number }).mark = 1));

    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(shown).toBe('dark');
    // Each system scheme keeps its own browser-chrome colour.
    expect(await chrome()).toEqual(['#15202b', '#0b1015']);

    await page.getByLabel('Theme').selectOption('light');
    expect(await shown()).toBe('light');
    expect(await chrome()).toEqual(['#15202b', '#15202b']);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await shown()).toBe('light');

    await page.getByLabel('Theme').selectOption('system');
    await expect.poll(shown).toBe('dark');
    expect(await chrome()).toEqual(['#15202b', '#0b1015']);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(shown).toBe('light');
    expect(await page.evaluate(() => (window as unknown as { mark?: number }).mark)).toBe(1);
    // A picked theme outlives a reload; System is no stored choice.
    await page.getByLabel('Theme').selectOption('dark');
    await page.reload();
    await page.getByRole('heading', { name: 'Data', level: 1 }).waitFor({ timeout: 60_000 });
    expect(await shown()).toBe('dark');
    expect(await page.getByLabel('Theme').inputValue()).toBe('dark');
    await page.getByLabel('Theme').selectOption('system');
    expect(await page.evaluate(() => localStorage.getItem('almanac-theme'))).toBeNull();
  }, 120_000);

  it('phone: a sync started from the Data view, reached by the tab bar, finishes; light by default (no NAV history)', async () => {
    const { page } = stack.s;
    await page.goto(`${stack.app.url}#/sql`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Data' }).tap();
    await page.getByText('DuckDB ready').waitFor({ timeout: 60_000 });
    expect(await history(page).isChecked()).toBe(false);
    const sync = syncButton(page);
    // In the thumb's reach: a full-height target inside the screen.
    const box = (await sync.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(40);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    await sync.tap();
    await page.getByRole('progressbar').first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'phone-data-syncing');
    await sync.waitFor({ timeout: 180_000 });
    expect((await page.getByRole('alert').allTextContents()).join('\n')).toBe('');
    // The states are checked again once the button is back: poll until that check has answered.
    for (const svc of ['indicators', 'mf', 'flags']) await expect.poll(() => page.getByTestId(`state-${svc}`).textContent()).toBe('current');
    const mf = await syncedFiles(page, 'mf');
    expect(mf.some((f) => f.startsWith('mf_nav_master_latest.'))).toBe(true);
    expect(mf.filter((f) => f.startsWith('mf_nav_master.'))).toEqual([]);
    // The card lists what a sync fetches, so not the history; its size stays in the choice's label.
    const files = await page.locator('article[aria-labelledby="src-mf"] table.data td.mono').allTextContents();
    expect(files.some((f) => f.startsWith('mf_nav_master_latest.'))).toBe(true);
    expect(files.filter((f) => f.startsWith('mf_nav_master.'))).toEqual([]);
    expect(await history(page).locator('..').textContent()).toMatch(/Include the MF NAV history \([\d.]+ (KB|MB)\)/);
    await screenshot(page, 'phone-data-synced');
  }, 240_000);

  it("phone, light copy: a fund's page draws its history fetched from the publisher, and draws it again offline", async () => {
    const { page } = stack.s;
    await page.goto(`${stack.app.url}#/funds`);
    const first = page.locator('table.data tbody a').first();
    await first.waitFor({ timeout: 30_000 });
    await first.tap();
    const code = decodeURIComponent(new URL(page.url()).hash.split('/')[2]);
    const light = page.getByTestId('light-copy');
    await light.waitFor({ timeout: 60_000 });
    const said = async () => (await light.textContent())!.replace(/\s+/g, ' ');
    // What the publisher's own endpoint says of this scheme, asked directly.
    const before = await published(stack.publisher.url, code);
    const span = `${before.first_available_date} → ${before.latest_available_date} · ${before.count.toLocaleString('en-US')} NAVs`;
    await expect.poll(said, { timeout: 60_000 }).toMatch(/fetched from the publisher .* and is kept on this device/);
    await page.getByText(span).waitFor();
    await page.locator('.chart canvas').first().waitFor();
    expect((await page.getByRole('alert').allTextContents()).join('\n')).toBe('');
    await screenshot(page, 'phone-fund-light', { fullPage: false });

    // Offline, a reload (the service worker serves the app) draws the kept copy, without asking anyone.
    const asked: string[] = [];
    page.on('request', (r) => void (r.url().includes('/mf/v1/schemes/') && asked.push(r.url())));
    await page.context().setOffline(true);
    try {
      await page.reload();
      await page.getByText(span).waitFor({ timeout: 60_000 });
      await page.locator('.chart canvas').first().waitFor();
      expect(await said()).toMatch(/kept on this device/);
      expect(asked).toEqual([]);
    } finally {
      await page.context().setOffline(false);
    }

    // Online again, without a reload (the page was started offline, so its sources came from the last
    // config.json read), the next publish, synced light: the page fetches the history again and gets
    // the new one (the answer carries Last-Modified; a browser cache reusing it by heuristics kept the old days).
    await publishTiny(dataDir, ['mf'], { publishes: [{ step: 'day' }] });
    await page.goto(`${stack.app.url}#/data`);
    await page.getByTestId('state-mf').filter({ hasText: 'update available' }).waitFor({ timeout: 30_000 });
    await syncButton(page).tap();
    // Current once the sync has ended and the view has checked again.
    await expect.poll(() => page.getByTestId('state-mf').textContent(), { timeout: 180_000 }).toBe('current');
    const next = await published(stack.publisher.url, code);
    expect(next.latest_available_date > before.latest_available_date).toBe(true);
    await page.goto(`${stack.app.url}#/funds/${code}`);
    await page.getByText(`${next.first_available_date} → ${next.latest_available_date} · ${next.count.toLocaleString('en-US')} NAVs`).waitFor({ timeout: 60_000 });
    await page.goto(`${stack.app.url}#/data`);
  }, 300_000);

  it('phone, light copy: Compare fetches the funds\' histories from the publisher, computes offline after, and SQL lists them', async () => {
    const { page } = stack.s;
    // Two live funds other than the one the page test fetched.
    const live = await liveFunds(page, 1, 2);
    const codes = live.map((s) => String(s.scheme_code));
    const start = live.map((s) => s.first_available_date).sort().at(-1)!;
    const end = live[0].latest_available_date;
    const asked: string[] = [];
    page.on('request', (r) => void (r.url().includes('/mf/v1/schemes/') && asked.push(r.url())));
    await page.goto(`${stack.app.url}#/compare?symbols=${codes.join(',')}&start_date=${start}&end_date=${end}`);
    const metrics = page.getByRole('region', { name: 'Metrics' });
    await metrics.waitFor({ timeout: 90_000 });
    expect((await page.getByRole('alert').allTextContents()).join('\n')).toBe('');
    await expect.poll(() => page.getByTestId('fetched-note').textContent()).toMatch(/^\s*Fetched [12] fund histor(y|ies) from the publisher/);
    expect(asked.length).toBeGreaterThanOrEqual(1);
    // Both funds computed: a column each besides the metric's own.
    expect(await metrics.locator('thead th').count()).toBe(3);
    await screenshot(page, 'phone-compare-light', { fullPage: false });

    // Offline: the kept histories compute the same comparison, asking nobody.
    const firstRow = async () => (await metrics.locator('tbody tr:not(.group)').first().textContent())!;
    const before = await firstRow();
    asked.length = 0;
    await page.context().setOffline(true);
    try {
      await page.reload();
      await metrics.waitFor({ timeout: 90_000 });
      expect(await firstRow()).toBe(before);
      expect(asked).toEqual([]);
    } finally {
      await page.context().setOffline(false);
    }

    // The SQL workbench reads the same histories as mf_fetched.nav.
    await page.goto(`${stack.app.url}#/sql`);
    await page.getByText('mf_fetched.nav').first().waitFor({ timeout: 30_000 });
    const editor = page.getByRole('textbox', { name: 'SQL editor' });
    await editor.tap();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(`SELECT count(*) = ${live[0].count + live[1].count} AS same FROM mf_fetched.nav WHERE scheme_code IN (${codes.join(', ')})`);
    await page.getByRole('button', { name: 'Run' }).tap();
    await page.getByRole('status').filter({ hasText: /rows?/ }).waitFor({ timeout: 30_000 });
    expect(await page.getByLabel('Result rows').textContent()).toMatch(/true/);
    // Every example runs here too: on a light copy the history examples read the fetched histories.
    const examples = page.locator('.examples button');
    for (let i = 0; i < (await examples.count()); i++) {
      await examples.nth(i).tap();
      await page.getByRole('button', { name: 'Run', exact: true }).tap();
      await page.getByRole('status').filter({ hasText: /rows?/ }).waitFor({ timeout: 30_000 });
      expect(await page.getByRole('alert').count(), (await examples.nth(i).textContent()) ?? '').toBe(0);
    }
    await page.goto(`${stack.app.url}#/data`);
  }, 300_000);

  it("phone, light copy: a watched fund's history is brought up to date by the sync itself, so it draws current offline", async () => {
    const { page } = stack.s;
    const [fund] = await liveFunds(page, 0, 1, 'Liquid');
    const code = String(fund.scheme_code);
    const spanOf = (p: Span) => `${p.first_available_date} → ${p.latest_available_date} · ${p.count.toLocaleString('en-US')} NAVs`;
    await page.goto(`${stack.app.url}#/funds/${code}`);
    await page.getByText(spanOf(fund)).waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: '☆ Watch' }).tap();
    await page.getByRole('button', { name: '★ Watching' }).waitFor();

    // The day after the one the fund page's test published.
    await publishTiny(dataDir, ['mf'], { publishes: [{ step: 'day' }, { step: 'day' }] });
    const next = await published(stack.publisher.url, code);
    expect(next.latest_available_date > fund.latest_available_date).toBe(true);
    await page.goto(`${stack.app.url}#/data`);
    await page.getByTestId('state-mf').filter({ hasText: 'update available' }).waitFor({ timeout: 30_000 });
    // Asked by the sync's end, not by the fund's page (which is not open).
    const fetched = page.waitForResponse((r) => r.url().endsWith(`/mf/v1/schemes/${code}/nav`) && r.status() === 200, { timeout: 180_000 });
    await syncButton(page).tap();
    await fetched;
    await expect.poll(() => page.getByTestId('state-mf').textContent(), { timeout: 180_000 }).toBe('current');

    await page.context().setOffline(true);
    try {
      await page.goto(`${stack.app.url}#/funds/${code}`);
      await page.getByText(spanOf(next)).waitFor({ timeout: 60_000 });
    } finally {
      await page.context().setOffline(false);
    }
    await page.getByRole('button', { name: '★ Watching' }).tap();
    await page.getByRole('button', { name: '☆ Watch' }).waitFor();
    await page.goto(`${stack.app.url}#/data`);
  }, 300_000);

  it('phone with 2 GB reported: the history is asked for, warned about before its first sync, then synced', async () => {
    const { page } = stack.s;
    await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'deviceMemory', { get: () => 2 }));
    await page.reload();
    await page.getByText('DuckDB ready').waitFor({ timeout: 60_000 });
    await history(page).tap();
    expect(await history(page).isChecked()).toBe(true);
    const warned: string[] = [];
    // Declined: nothing starts.
    page.once('dialog', (d) => void (warned.push(d.message()), d.dismiss()));
    await syncButton(page).tap();
    await expect.poll(() => warned.length).toBe(1);
    expect(warned[0]).toMatch(/this device reports 2 GB of memory/);
    expect(warned[0]).toMatch(/about 1 GB/);
    expect(await page.getByRole('button', { name: 'Syncing…' }).count()).toBe(0);
    // Agreed: the history downloads, nothing else changed.
    page.once('dialog', (d) => void (warned.push(d.message()), d.accept()));
    await syncButton(page).tap();
    await page.getByRole('button', { name: 'Syncing…' }).waitFor({ timeout: 30_000 });
    await syncButton(page).waitFor({ timeout: 180_000 });
    expect(warned).toHaveLength(2);
    expect((await page.getByRole('alert').allTextContents()).join('\n')).toBe('');
    expect((await syncedFiles(page, 'mf', 'downloaded')).filter((f) => f.startsWith('mf_nav_master.'))).toHaveLength(1);
    await expect.poll(() => page.getByTestId('state-mf').textContent()).toBe('current');
  }, 240_000);

  for (const [name, device] of [
    ['phone', PHONE],
    ['tablet', TABLET],
  ] as [string, Device][]) {
    it(`${name} (${device.width}x${device.height}): every view is reached from the tab bar and fits the width`, async () => {
      const { page } = stack.s;
      await page.setViewportSize({ width: device.width, height: device.height });
      await page.goto(`${stack.app.url}#/data`);
      const nav = page.getByRole('navigation', { name: 'Main' });
      for (const v of VIEWS) {
        await nav.getByRole('link', { name: v.tab }).tap();
        await page.getByRole('heading', { name: v.heading, level: 1 }).waitFor({ timeout: 30_000 });
        // The tab bar sits at the bottom of the screen, the tab just tapped marked as the current page.
        const bar = (await nav.getByRole('list').boundingBox())!;
        expect(Math.round(bar.y + bar.height)).toBe(device.height);
        expect(await nav.getByRole('link', { name: v.tab }).getAttribute('aria-current')).toBe('page');
        await page.waitForLoadState('networkidle');
        const f = await fit(page);
        expect(f.scrollWidth, `${v.tab} scrolls sideways`).toBeLessThanOrEqual(f.width);
        expect(f.content / f.width, `${v.tab} content width`).toBeGreaterThanOrEqual(0.9);
        expect(f.widest / f.width, `${v.tab} widest block`).toBeGreaterThanOrEqual(0.9);
        // What the screen shows (fixed bars in place), then the whole page.
        await screenshot(page, `${name}-${v.tab.toLowerCase().replace(' ', '-')}`, { fullPage: false });
        await screenshot(page, `${name}-${v.tab.toLowerCase().replace(' ', '-')}-full`);
      }
    }, 180_000);

    it(`${name}: a fund's NAV chart spans the screen; tap shows values, a sideways drag zooms, a vertical swipe scrolls`, async () => {
      const { page } = stack.s;
      await page.setViewportSize({ width: device.width, height: device.height });
      await page.goto(`${stack.app.url}#/funds`);
      const first = page.locator('table.data tbody a').first();
      await first.waitFor({ timeout: 30_000 });
      await first.tap();
      await page.getByRole('heading', { name: 'NAV history' }).waitFor({ timeout: 30_000 });
      const canvas = page.locator('.chart canvas').first();
      await canvas.waitFor();
      const f = await fit(page);
      expect(f.scrollWidth).toBeLessThanOrEqual(f.width);
      const chart = (await canvas.boundingBox())!;
      expect(chart.width / device.width, 'chart width').toBeGreaterThanOrEqual(0.85);
      await screenshot(page, `${name}-fund-scheme`, { fullPage: false });

      // A tap shows the date and NAV under the finger in the legend.
      const date = page.locator('.chart .u-legend .u-series').first().locator('.u-value');
      // uPlot writes the date with a time of day ("2025-05-13 12:00am"): the day is what counts.
      const legend = async () => (await date.textContent())?.match(/\d{4}-\d{2}-\d{2}/)?.[0] ?? null;
      await canvas.scrollIntoViewIfNeeded();
      const tapAt = async (x: number) => {
        const o = (await page.locator('.chart .u-over').first().boundingBox())!;
        await page.touchscreen.tap(o.x + x * o.width, o.y + o.height / 2);
      };
      await tapAt(0.5);
      const before = await legend();
      expect(before).not.toBeNull();
      // Drag across the first fifth: the chart then shows those dates, so its middle is an earlier day.
      const o = (await page.locator('.chart .u-over').first().boundingBox())!;
      await touchDrag(page, { x: o.x + o.width * 0.05, y: o.y + o.height / 2 }, { x: o.x + o.width * 0.25, y: o.y + o.height / 2 });
      await tapAt(0.5);
      await expect.poll(legend).not.toBe(before);
      const zoomed = await legend();
      expect(zoomed! < before!).toBe(true);
      // A double tap shows the whole range again.
      await tapAt(0.5);
      await tapAt(0.5);
      await tapAt(0.5);
      await expect.poll(legend).toBe(before);

      // A vertical swipe that starts on the chart scrolls the page.
      const top = await page.evaluate(() => scrollY);
      const c = (await page.locator('.chart .u-over').first().boundingBox())!;
      const mid = { x: c.x + c.width / 2, y: c.y + c.height * 0.8 };
      await touchDrag(page, mid, { x: mid.x, y: mid.y - 200 });
      await expect.poll(() => page.evaluate(() => scrollY)).toBeGreaterThan(top);
    }, 120_000);
  }

  it('phone: in the SQL editor the tab bar steps aside, the editor stays on screen, the result grid scrolls sideways', async () => {
    const { page } = stack.s;
    await page.setViewportSize({ width: PHONE.width, height: PHONE.height });
    await page.goto(`${stack.app.url}#/sql`);
    const editor = page.getByRole('textbox', { name: 'SQL editor' });
    await editor.waitFor({ timeout: 30_000 });
    const tabs = page.getByRole('navigation', { name: 'Main' }).getByRole('list');
    expect(await tabs.isVisible()).toBe(true);
    await editor.tap();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('SELECT * FROM mf.latest');
    await expect.poll(() => tabs.isVisible()).toBe(false);
    const box = (await editor.boundingBox())!;
    // On screen to the pixel: scrolling the caret into view can leave the top a fraction of a pixel
    // above the viewport (-0.48 px seen on a loaded run), which hides nothing.
    expect(box.y).toBeGreaterThan(-1);
    expect(box.y + Math.min(box.height, 100)).toBeLessThanOrEqual(PHONE.height);
    await screenshot(page, 'phone-sql-editing', { fullPage: false });
    await page.getByRole('button', { name: 'Run' }).tap();
    await page.getByRole('status').filter({ hasText: /rows/ }).waitFor({ timeout: 30_000 });
    await expect.poll(() => tabs.isVisible()).toBe(true);
    // The grid is wider than the screen and scrolls inside itself; the page does not.
    const grid = page.getByLabel('Result rows');
    const [scroll, client] = await grid.evaluate((el) => [el.scrollWidth, el.clientWidth]);
    expect(scroll).toBeGreaterThan(client);
    expect((await fit(page)).scrollWidth).toBeLessThanOrEqual(PHONE.width);
    await touchDrag(page, { x: 300, y: (await grid.boundingBox())!.y + 60 }, { x: 80, y: (await grid.boundingBox())!.y + 60 });
    await expect.poll(() => grid.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    await screenshot(page, 'phone-sql-result', { fullPage: false });
  }, 120_000);

  it('phone: the AMFI and price file pickers open by tap', async () => {
    const { page } = stack.s;
    await page.setViewportSize({ width: PHONE.width, height: PHONE.height });
    await page.goto(`${stack.app.url}#/data`);
    const amfi = path.join(filesDir, 'NAVAll-2026-11-16.txt');
    writeFileSync(amfi, amfiDailyFile('2026-11-16', [{ code: 990001, name: 'Phone Test Fund - Growth', isin: 'INF000P01001', nav: '12.3400' }]));
    const picker = page.getByLabel('Import AMFI NAV files');
    await picker.scrollIntoViewIfNeeded();
    const [amfiChooser] = await Promise.all([page.waitForEvent('filechooser'), picker.tap()]);
    await amfiChooser.setFiles(amfi);
    await page.getByTestId('amfi-result').filter({ hasText: '1 NAV rows' }).waitFor({ timeout: 60_000 });

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Compare' }).tap();
    await page.getByText('Import your own prices').tap();
    const prices = path.join(filesDir, 'mine.csv');
    writeFileSync(prices, 'date,symbol,close\n2026-11-02,MINE,100\n2026-11-03,MINE,101\n');
    const input = page.locator('input[type=file]');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), input.tap()]);
    await chooser.setFiles(prices);
    await page.getByRole('status').filter({ hasText: 'Imported 2 prices from mine.csv' }).waitFor({ timeout: 60_000 });
    await screenshot(page, 'phone-compare-import');
  }, 120_000);
});
