import http from 'node:http';
import net from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startPublisher, type Publisher } from '../../src/publisher/server.js';
import { publishTiny } from '../helpers/tiny-data.js';
import { NO_LIMITS } from '../core/sync/fixture.js';
import { startDesktopCore, type DesktopCore } from '../../src/desktop/core.js';
import { ipcAnswerer, type Send } from '../../src/desktop/main-ipc.js';
import { APP_HOST, APP_SCHEME, appResponse } from '../../src/desktop/app-protocol.js';
import { hasChromium, launch, screenshot, type Session } from '../e2e/browser.js';

/**
 * The desktop app as a user meets it, in real Chromium: the built app (dist/), served by the desktop's
 * own protocol handler (so the same files and the same CSP header), with `window.almanacDesktop` made
 * by electron/preload.js itself, running in the page. Only Electron's transport is substituted: the
 * preload's `ipcRenderer` forwards over a Playwright binding to a REAL desktop core in this process,
 * started as main.js starts it and answering through main's own `ipcAnswerer` (sender check
 * included); progress comes back the way `event.sender.send` would bring it.
 */

const dist = path.resolve('dist');

/** Electron's ipcRenderer and contextBridge, in the page, around the preload's own source. */
function bridgeScript(preload: string): string {
  return `(() => {
    const listeners = new Map();
    const electron = {
      contextBridge: { exposeInMainWorld: (key, api) => Object.defineProperty(window, key, { value: Object.freeze(api) }) },
      ipcRenderer: {
        // Electron sends arguments by structured clone: what cannot be cloned (a reactive proxy) fails the same way here.
        invoke: async (channel, args) => {
          const r = await window.__electronInvoke(channel, structuredClone(args));
          if ('error' in r) throw new Error(r.error);
          return r.value;
        },
        on: (channel, fn) => { if (!listeners.has(channel)) listeners.set(channel, new Set()); listeners.get(channel).add(fn); },
        removeListener: (channel, fn) => listeners.get(channel)?.delete(fn),
      },
    };
    Object.defineProperty(window, '__electronSend', { value: (channel, payload) => listeners.get(channel)?.forEach((fn) => fn({}, payload)) });
    const require = (name) => {
      if (name !== 'electron') throw new Error('a sandboxed preload can require only electron');
      return electron;
    };
    ${preload}
  })();`;
}

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

/** Serves dist/ through appResponse, as main's app:// handler does, on loopback http. */
async function serveDesktopApp(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const r = await appResponse({ dist, url: `${APP_SCHEME}://${APP_HOST}${req.url ?? '/'}` });
    res.writeHead(r.status, Object.fromEntries(r.headers));
    res.end(Buffer.from(await r.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return { url: `http://127.0.0.1:${port}/index.html`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe.skipIf(!hasChromium || !existsSync(path.join(dist, 'index.html')))('desktop app in Chromium over a real desktop core', () => {
  let root = '';
  let publisher: Publisher;
  let core: DesktopCore;
  let app: { url: string; close(): Promise<void> };
  let s: Session;
  let page: Page;
  const invoked: string[] = [];

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'almanac-desktop-app-'));
    const pub = path.join(root, 'pub');
    await publishTiny(pub, ['indicators', 'mf', 'flags']);
    publisher = await startPublisher({ dataDir: pub, limits: 'off' });

    // A user who pointed the app at the publisher before (settings.json in userData); the server is off.
    const userData = path.join(root, 'userData');
    await mkdir(userData, { recursive: true });
    await writeFile(path.join(userData, 'settings.json'), JSON.stringify({ server: { enabled: false, port: 8765 }, source: publisher.url }));
    core = await startDesktopCore({ userDataDir: userData, rules: NO_LIMITS });
    app = await serveDesktopApp();
    const answer = ipcAnswerer(core, app.url);

    s = await launch();
    page = s.page;
    // Electron's app:// scheme has no service workers; nor does this stand-in.
    await page.route('**/sw.js', (r) => r.abort());
    let delivered: Promise<unknown> = Promise.resolve();
    const send: Send = (channel, payload) => {
      delivered = delivered.then(() => page.evaluate(([c, p]) => (window as unknown as { __electronSend(c: string, p: unknown): void }).__electronSend(c, p), [channel, payload] as const)).catch(() => {});
    };
    await page.exposeBinding('__electronInvoke', async (source, channel: string, args: unknown) => {
      invoked.push(channel);
      try {
        const value = await answer(source.frame.url(), channel, args, send);
        // Electron delivers the sender's messages before the invoke's reply: so does this.
        await delivered;
        return { value };
      } catch (e) {
        return { error: `Error invoking remote method '${channel}': ${String(e)}` };
      }
    });
    await page.addInitScript(bridgeScript(readFileSync('electron/preload.js', 'utf8')));
  }, 300_000);

  afterAll(async () => {
    await s?.close();
    await app?.close();
    await core?.close();
    await publisher?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('syncs through the desktop core and shows where the data lives', async () => {
    await page.goto(`${app.url}#/data`);
    await page.getByText('DuckDB ready').waitFor({ timeout: 60_000 });
    for (const svc of ['indicators', 'mf', 'flags']) {
      await page.getByTestId(`state-${svc}`).filter({ hasText: 'not synced' }).waitFor({ timeout: 30_000 });
    }
    // The source check went through main: the window itself may not reach the publisher (CSP).
    expect(invoked).toContain('source:manifest');
    const direct = await page.evaluate((u) => fetch(`${u}/flags/v1/manifest.json`).then(() => 'fetched', (e: Error) => e.message), publisher.url);
    expect(direct).not.toBe('fetched');
    // The desktop panel replaces the browser's storage card.
    await page.getByRole('heading', { name: 'Local API server' }).waitFor();
    expect(await page.getByRole('region', { name: 'Storage' }).count()).toBe(0);
    expect(await page.getByTestId('data-dir').textContent()).toBe(path.join(root, 'userData', 'data'));
    await screenshot(page, 'desktop-data-first-run');

    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    await page.getByRole('button', { name: 'Syncing…' }).waitFor();
    await page.getByRole('button', { name: 'Sync', exact: true }).waitFor({ timeout: 240_000 });
    expect((await page.getByRole('alert').allTextContents()).join('\n')).toBe('');
    for (const svc of ['indicators', 'mf', 'flags']) expect(await page.getByTestId(`state-${svc}`).textContent()).toBe('current');
    // Progress came from main's events: the panel lists files with what was loaded.
    expect(await page.locator('section[aria-label="Sync progress"] li').count()).toBeGreaterThan(3);
    expect(await page.locator('section[aria-label="Sync progress"]').textContent()).toMatch(/rows loaded/);
    await screenshot(page, 'desktop-data-synced');
  }, 300_000);

  it('shows the synced data and answers SQL through the IPC engine', async () => {
    await page.goto(`${app.url}#/flags`);
    const top = page.locator('table.data tbody a').first();
    await top.waitFor({ timeout: 30_000 });
    const symbol = (await top.textContent())!.trim();
    await top.click();
    await page.getByRole('heading', { name: /Scorecard/ }).waitFor({ timeout: 30_000 });
    expect(await page.locator('.crumbs').textContent()).toContain(symbol);
    await screenshot(page, 'desktop-flags-company');

    const sql = 'SELECT symbol, count(*) AS n FROM flags.credit_ratings GROUP BY symbol ORDER BY n DESC, symbol LIMIT 5';
    const expected = (await core.handle('engine:all', { sql })) as { symbol: string; n: number }[];
    await page.goto(`${app.url}#/sql`);
    const editor = page.locator('.cm-content');
    await editor.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText(sql);
    await page.keyboard.press('Control+Enter');
    await page.getByRole('status').filter({ hasText: `${expected.length} rows` }).waitFor({ timeout: 30_000 });
    const cells = await page.getByRole('gridcell').allTextContents();
    expect(cells.slice(0, 2)).toEqual([expected[0].symbol, String(expected[0].n)]);
    expect(invoked).toContain('engine:arrow');
    // The window's SQL cannot reach the filesystem of the main process.
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText(`COPY (SELECT 1) TO '${path.join(root, 'from-the-window.csv')}'`);
    await page.keyboard.press('Control+Enter');
    await page.getByRole('alert').filter({ hasText: 'disabled by configuration' }).waitFor({ timeout: 30_000 });
    expect(existsSync(path.join(root, 'from-the-window.csv'))).toBe(false);
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText(sql);
    await page.keyboard.press('Control+Enter');
    await page.getByRole('status').filter({ hasText: `${expected.length} rows` }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'desktop-sql');
  }, 120_000);

  it('imports prices and compares over IPC, with the same numbers as the local server', async () => {
    await page.goto(`${app.url}#/compare`);
    const csv = ['date,symbol,close', ...Array.from({ length: 30 }, (_, i) => {
      const d = new Date(Date.UTC(2026, 0, 5 + i)).toISOString().slice(0, 10);
      return [`${d},ACME,${(100 * (1 + 0.01 * Math.sin(i))).toFixed(2)}`, `${d},BENCH,${(50 + i * 0.2).toFixed(2)}`];
    }).flat()].join('\n');
    await page.getByText('Import your own prices').click();
    await page.locator('input[type=file]').setInputFiles({ name: 'prices.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('status').filter({ hasText: 'Imported 60 prices from prices.csv.' }).waitFor({ timeout: 60_000 });
    expect(invoked).toContain('store:import-prices');

    const picker = page.getByRole('combobox', { name: /Securities/ });
    await picker.fill('ACME');
    await page.getByRole('option').filter({ hasText: 'ACME' }).first().waitFor({ timeout: 30_000 });
    await picker.press('Enter');
    await page.getByLabel('Benchmark', { exact: true }).selectOption('BENCH');
    await page.getByLabel('From', { exact: true }).fill('2026-01-01');
    await page.getByLabel('To', { exact: true }).fill('2026-02-28');
    await page.getByLabel('Risk-free rate', { exact: true }).fill('0');
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await page.locator('td[data-metric="Sharpe"][data-symbol="ACME"]').waitFor({ timeout: 60_000 });
    expect(await page.getByRole('alert').count()).toBe(0);
    await screenshot(page, 'desktop-compare');

    // Turned on for a moment here, to ask the server the same question (the next test uses the panel).
    const port = await freePort();
    const info = (await core.handle('settings:set', { source: publisher.url, server: { enabled: true, port } })) as { server: { url: string } };
    try {
      // The view shows full precision (quantstats' table), so the server is asked for the same.
      const q = 'symbols=ACME&benchmark=BENCH&start_date=2026-01-01&end_date=2026-02-28&risk_free_rate=0&precision=full';
      const report = (await (await fetch(`${info.server.url}/v1/compare?${q}`)).json()) as { symbols: { symbol: string; all_metrics: Record<string, unknown> }[] };
      const acme = report.symbols.find((x) => x.symbol === 'ACME')!;
      // Sharpe, and one that needs the normal CDF's SQL macros on the window's own connection.
      for (const metric of ['Sharpe', 'Prob. Sharpe Ratio']) {
        const shown = await page.locator(`td[data-metric="${metric}"][data-symbol="ACME"]`).getAttribute('data-value');
        expect(acme.all_metrics[metric], metric).toBeTypeOf('number');
        expect(shown, metric).toBe(JSON.stringify(acme.all_metrics[metric]));
      }
    } finally {
      await core.handle('settings:set', { source: publisher.url, server: { enabled: false, port: 8765 } });
    }
  }, 180_000);

  it('turns the local server on from the settings panel; its REST URL and MCP endpoint answer', async () => {
    await s.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(app.url).origin });
    await page.goto(`${app.url}#/data`);
    await page.getByRole('heading', { name: 'Local API server' }).waitFor();
    const port = await freePort();
    await page.getByLabel('Port', { exact: true }).fill(String(port));
    await page.getByLabel('Serve on 127.0.0.1').check();
    const restUrl = (await page.getByTestId('server-url').textContent({ timeout: 30_000 }))!.trim();
    expect(restUrl).toBe(`http://127.0.0.1:${port}`);
    expect((await page.getByTestId('mcp-url').textContent())!.trim()).toBe(`http://127.0.0.1:${port}/mcp`);
    const snippet = JSON.parse((await page.getByTestId('mcp-config').textContent())!) as { mcpServers: { almanac: { type: string; url: string } } };
    expect(snippet.mcpServers.almanac).toEqual({ type: 'http', url: `http://127.0.0.1:${port}/mcp` });
    await page.locator('.snippet').getByRole('button', { name: 'Copy' }).click();
    await page.getByText('MCP configuration copied.').waitFor();
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual(snippet);
    // From the top: a full-page capture of a scrolled page draws the sticky table headers mid-table.
    await page.evaluate(() => scrollTo(0, 0));
    await screenshot(page, 'desktop-settings-server-on');

    // What a script would do with the URL shown.
    const company = await fetch(`${restUrl}/flags/v1/company/REDSTONE?tables=credit_ratings`);
    expect(company.status).toBe(200);
    expect(JSON.stringify(await company.json())).toContain('REDSTONE');

    // What an agent would do with the configuration shown.
    const client = new Client({ name: 'desktop-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(snippet.mcpServers.almanac.url)));
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual(expect.arrayContaining(['flags_company', 'flags_scorecard']));
      const r = await client.callTool({ name: 'flags_scorecard', arguments: { identifier: 'REDSTONE' } });
      expect(r.isError).toBeFalsy();
      expect(JSON.parse((r.content as { text: string }[])[0].text)).toMatchObject({ symbol: 'REDSTONE' });
    } finally {
      await client.close();
    }

    // Off again: the port closes and the panel says so.
    await page.getByLabel('Serve on 127.0.0.1').uncheck();
    await page.getByText('Turn it on to get the URLs').waitFor();
    await expect(fetch(`${restUrl}/flags/v1/`)).rejects.toThrow();
    // Only the app's page could call: every IPC went through main's sender check with the page's URL.
    // (Apart from the service worker this stand-in refuses, and the CSP refusing the probe above.)
    expect(s.errors.filter((e) => !/ServiceWorker|sw\.js/.test(e) && !e.includes(`${publisher.url}/flags/v1/manifest.json`))).toEqual([]);
    // The window's CSP refused that probe, and nothing of the app's own (its scripts come through the
    // loader's hash and 'strict-dynamic', src/ui/page-script.ts; every response carries the header).
    expect(s.violations).toEqual([`connect-src ${publisher.url}/flags/v1/manifest.json`]);
  }, 120_000);
});
