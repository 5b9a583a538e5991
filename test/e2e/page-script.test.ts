import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROXY, contentSecurityPolicy, serveApp, type AppServer } from '../../src/cli/app-server.js';
import { CONTENT_SECURITY_POLICY } from '../../src/desktop/security.js';
import { APP_ENTRY, APP_LOADER, SCRIPT_SRC } from '../../src/ui/page-script.js';
import { hasChromium, launch, type Session } from './browser.js';

/**
 * The built page runs one script, the constant loader, and every CSP of the page allows scripts by its
 * hash alone (then 'strict-dynamic'): the hash is recomputed here from dist/index.html, so the build
 * and the policies cannot drift apart. In Chromium, the app starts under that policy with nothing
 * refused (its imports, DuckDB's worker and wasm, the service worker), and a script the loader did not
 * bring in is refused.
 */
const dist = path.resolve('dist');
const html = () => readFileSync(path.join(dist, 'index.html'), 'utf8');
const CONFIG = { sources: { indicators: PROXY, mf: PROXY, flags: PROXY } };

describe('the page script and its hash', () => {
  it('dist/index.html runs exactly the loader, whose sha256 is the one SCRIPT_SRC allows', () => {
    const scripts = [...html().matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)];
    expect(scripts.map(([, attrs, body]) => [attrs.trim(), body])).toEqual([['type="module"', APP_LOADER]]);
    const hash = createHash('sha256').update(scripts[0][2]).digest('base64');
    expect(SCRIPT_SRC).toBe(`script-src 'sha256-${hash}' 'strict-dynamic' 'wasm-unsafe-eval'`);
    // The entry it loads is there under its stable name, outside assets/ (which is served as immutable).
    expect(existsSync(path.join(dist, APP_ENTRY))).toBe(true);
    expect(APP_ENTRY.startsWith('assets/')).toBe(false);
  });

  it('every policy of the page allows scripts by SCRIPT_SRC: the built meta, the app server, the desktop window', () => {
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html())?.[1];
    for (const policy of [meta, contentSecurityPolicy(CONFIG), CONTENT_SECURITY_POLICY]) {
      expect(policy?.split(/;\s*/).filter((d) => /^script-src/.test(d))).toEqual([SCRIPT_SRC]);
    }
  });
});

describe.skipIf(!hasChromium)('the page under its CSP (built app, Chromium)', () => {
  let app: AppServer;
  let s: Session;

  beforeAll(async () => {
    app = await serveApp({ dist, config: CONFIG });
    s = await launch();
  }, 120_000);

  afterAll(async () => {
    await s?.close();
    await app?.close();
  });

  it('refuses what an injection into the page would run: an inline script, a script tag for a file of the origin', async () => {
    const { page } = s;
    // The page as served, with the two tags added; its CSP header is kept. (Scripts a test adds through
    // page.evaluate are exempt from the page's CSP in Chromium, so the page itself must carry them.)
    await page.route(
      (url) => url.search === '?injected',
      async (route) => {
        const served = await route.fetch();
        const body = (await served.text()).replace('</head>', `<script>window.ran = 'inline'</script><script type="module" src="./${APP_ENTRY}"></script></head>`);
        await route.fulfill({ response: served, body });
      },
    );
    await page.goto(`${app.url}?injected`);
    // Each is refused twice: by the header's policy and by the page's meta.
    await expect.poll(() => s.violations.length).toBe(4);
    const [external, inline] = [`script-src-elem ${app.url}${APP_ENTRY}`, 'script-src-elem inline'];
    expect(s.violations.sort()).toEqual([external, external, inline, inline]);
    expect(await page.evaluate(() => (window as unknown as { ran?: string }).ran)).toBeUndefined();
    await page.unroute(() => true);
    // What was refused here is accounted for; the next case starts from none.
    s.violations.splice(0);
    s.errors.splice(0);
  }, 60_000);

  it('starts, runs DuckDB-WASM and installs its service worker with nothing refused', async () => {
    const { page } = s;
    const response = await page.goto(`${app.url}#/sql`);
    expect(response?.headers()['content-security-policy']).toBe(contentSecurityPolicy(CONFIG));
    await page.getByText('DuckDB ready').waitFor({ timeout: 60_000 });
    // A query DuckDB answers in its worker, with no data synced: the wasm compiled, the worker's code loaded.
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText('SELECT 6 * 7 AS answer');
    await page.keyboard.press('Control+Enter');
    await page.getByRole('status').filter({ hasText: '1 rows' }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('gridcell').first().textContent()).toBe('42');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await page.getByText('DuckDB ready').waitFor({ timeout: 60_000 });
    expect(await page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    expect(s.violations).toEqual([]);
    expect(s.errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
  }, 180_000);
});
