import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM, DISABLED_FEATURES, hasChromium, launch } from './browser.js';

/** The features a context's Chromium runs with turned off, as chrome://version reports them. */
async function disabledFeatures(context: BrowserContext): Promise<string[]> {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto('chrome://version');
  const html = await page.evaluate(() => document.body.innerHTML);
  // "Command-line variations": base64 JSON of the feature switches Chromium settled on.
  const encoded = /eyJ[A-Za-z0-9+/=]+/.exec(html)?.[0];
  if (!encoded) throw new Error('chrome://version shows no command-line variations');
  const variations = JSON.parse(Buffer.from(encoded, 'base64').toString()) as Record<string, string>;
  return (variations['disable-features'] ?? '').split(',').filter(Boolean);
}

/** The browser's own pages (its toolbar and omnibox UI), beside the app's. */
async function browserPages(context: BrowserContext): Promise<string[]> {
  const cdp = await context.browser()!.newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets');
  return targetInfos.filter((t) => t.type === 'browser_ui').map((t) => t.url);
}

describe.skipIf(!hasChromium)('the test browser (Chromium through playwright-core)', () => {
  it("keeps playwright-core's own disabled features, and loads none of the browser's top-chrome pages", async () => {
    const profile = mkdtempSync(path.join(tmpdir(), 'almanac-plain-'));
    const plain = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
    let playwrights: string[];
    try {
      playwrights = await disabledFeatures(plain);
    } finally {
      await plain.close();
      rmSync(profile, { recursive: true, force: true });
    }
    // The list is what playwright-core passes; ours replaces it, so it must hold all of it.
    expect(playwrights).toContain('HttpsUpgrades');
    expect(DISABLED_FEATURES).toEqual(expect.arrayContaining(playwrights));

    const s = await launch();
    try {
      expect(await disabledFeatures(s.context)).toEqual(expect.arrayContaining(DISABLED_FEATURES));
      expect(await browserPages(s.context)).toEqual([]);
    } finally {
      await s.close();
    }
  }, 60_000);
});
