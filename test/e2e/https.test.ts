import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICES } from '../../src/core/sync/datasets.js';
import { publishTiny } from '../helpers/tiny-data.js';
import { hasChromium, PHONE, screenshot } from './browser.js';
import { firstSync, startStack, type AppStack } from './stack.js';

const HOST = 'almanac.test';

/**
 * The app as a phone reaches it: over HTTPS at a name that is not localhost, with a certificate made
 * here for that name. Chromium resolves the name to 127.0.0.1 (host-resolver rules) and trusts the
 * certificate's key by its SPKI hash, so nothing leaves loopback and no certificate error is waved
 * through (a service worker would refuse to register behind one). Installable manifest, service
 * worker, a first sync through the same-origin /publisher proxy, then offline.
 */
describe.skipIf(!hasChromium)('HTTPS at a non-localhost origin (Chromium, phone)', () => {
  let dataDir: string;
  let certDir: string;
  let stack: AppStack;
  let origin: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'almanac-e2e-https-'));
    certDir = mkdtempSync(path.join(tmpdir(), 'almanac-e2e-cert-'));
    const [certFile, keyFile] = [path.join(certDir, 'cert.pem'), path.join(certDir, 'key.pem')];
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', `/CN=${HOST}`, '-addext', `subjectAltName=DNS:${HOST}`,
    ], { stdio: 'pipe' });
    const cert = readFileSync(certFile);
    const spki = new X509Certificate(cert).publicKey.export({ type: 'spki', format: 'der' });
    const spkiHash = createHash('sha256').update(spki).digest('base64');
    await publishTiny(dataDir, SERVICES);
    stack = await startStack(
      dataDir,
      { device: PHONE, args: [`--host-resolver-rules=MAP ${HOST} 127.0.0.1`, `--ignore-certificate-errors-spki-list=${spkiHash}`] },
      { tls: { cert, key: readFileSync(keyFile) } },
    );
    // The server still binds loopback: the name reaches it only through the browser's mapping.
    expect(stack.app.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/$/);
    origin = `https://${HOST}:${new URL(stack.app.url).port}`;
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    for (const d of [dataDir, certDir]) if (d) rmSync(d, { recursive: true, force: true });
  });

  it('is a secure context whose manifest makes it installable, with a service worker in control', async () => {
    const { page } = stack.s;
    await page.goto(`${origin}/#/data`);
    await page.getByText('DuckDB ready').waitFor({ timeout: 60_000 });
    expect(await page.evaluate(() => [isSecureContext, location.hostname])).toEqual([true, HOST]);
    // The sources config.json names as a path are this origin's, whatever name it is reached by.
    await expect.poll(() => page.locator('#url-mf').inputValue().catch(() => ''), { timeout: 10_000 }).toBe(`${origin}/publisher`);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    expect(await page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    const cdp = await page.context().newCDPSession(page);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
    expect(manifest.url).toBe(`${origin}/manifest.webmanifest`);
    expect(manifest.errors).toEqual([]);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
    expect(installabilityErrors.map((e) => e.errorId)).toEqual([]);
    await cdp.detach();
  }, 120_000);

  it('syncs through the same-origin /publisher proxy, then answers offline', async () => {
    const { page, context } = stack.s;
    await firstSync(page, `${origin}/`);
    await screenshot(page, 'https-phone-synced', { fullPage: false });
    expect((await page.getByRole('alert').allTextContents()).join('\n')).toBe('');
    // The states are checked again once the button is back: poll until that check has answered.
    for (const svc of ['indicators', 'mf', 'flags']) await expect.poll(() => page.getByTestId(`state-${svc}`).textContent()).toBe('current');
    await context.setOffline(true);
    try {
      await page.goto(`${origin}/#/funds`);
      await page.getByText('DuckDB ready').waitFor({ timeout: 60_000 });
      await page.locator('table.data tbody a').first().waitFor({ timeout: 30_000 });
      await screenshot(page, 'https-phone-offline-funds');
    } finally {
      await context.setOffline(false);
    }
    expect(stack.s.errors.filter((e) => !/net::ERR_INTERNET_DISCONNECTED/.test(e))).toEqual([]);
    // The page's CSP (src/ui/page-script.ts) refused nothing the app does, online or offline.
    expect(stack.s.violations).toEqual([]);
  }, 300_000);
});
