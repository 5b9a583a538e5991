import { existsSync, mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium; CI installs it. Tests skip with a message when it is absent. */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`[e2e] skipped: ${CHROMIUM} is absent (apt-get install -y chromium)`);

export const RESULTS = path.resolve('test-results');

/**
 * Chromium features off in every session. Headless Chromium 156 is the whole browser with its window
 * hidden, and at launch it loads its omnibox popup (chrome://omnibox-popup.top-chrome, ~230 WebUI
 * files) in a renderer of its own: ~6 s of CPU (CDP trace of a warm start, 2026-11-26) on this
 * 2-core machine, in the seconds the app's page starts, so every test and every start measured in
 * the bench shared the cores with it. A user's browser did that when it opened, not when Almanac did.
 *
 * Chromium takes the last `--disable-features` it is given (chrome://version: a second one replaced
 * playwright's), so ours repeats playwright-core's own list; test/e2e/browser.test.ts checks it still
 * covers what playwright-core passes.
 */
export const DISABLED_FEATURES = [
  // playwright-core 1.65's defaults (its chromiumSwitches.ts)
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
  // the browser's own top-chrome pages, loaded at launch
  'PreloadTopChromeWebUI',
  'WebUIOmniboxPopup',
  'WebUIOmniboxFullPopup',
  'WebUIOmniboxAimPopup',
];

export interface Session {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Browser console errors, for assertions and diagnosis. */
  errors: string[];
  /**
   * What a Content-Security-Policy refused in the session's pages (their securitypolicyviolation
   * events), as `directive blocked-uri`. A worker's own refusals are not seen here: they stop it.
   */
  violations: string[];
  close(): Promise<void>;
}

/**
 * A fresh Chromium profile per session: a persistent context, so OPFS and the service worker behave
 * as for a user (an incognito context would not persist OPFS across reloads). With `profile`, that
 * directory instead, kept on close: the next launch finds the installed app and its data, as a user
 * reopening the browser would (the benchmark's warm start).
 */
export interface LaunchOptions {
  profile?: string;
  /** A phone or tablet: its viewport, touch and mobile meta-viewport handling. Default a 1440x900 desktop. */
  device?: Device;
  /** More Chromium flags (host-resolver rules, a trusted certificate key). */
  args?: string[];
}

export interface Device {
  width: number;
  height: number;
  isMobile?: boolean;
  hasTouch?: boolean;
}

export const PHONE: Device = { width: 390, height: 844, isMobile: true, hasTouch: true };
export const TABLET: Device = { width: 768, height: 1024, isMobile: true, hasTouch: true };

export async function launch(opts: LaunchOptions = {}): Promise<Session> {
  const profile = opts.profile ?? mkdtempSync(path.join(tmpdir(), 'almanac-e2e-'));
  const { width, height, isMobile = false, hasTouch = false } = opts.device ?? { width: 1440, height: 900 };
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    acceptDownloads: true,
    viewport: { width, height },
    isMobile,
    hasTouch,
    args: [
      ...(opts.args ?? []),
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--disable-features=${DISABLED_FEATURES.join(',')}`,
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  const violations: string[] = [];
  await context.exposeBinding('__cspViolation', (_source, v: string) => void violations.push(v));
  await context.addInitScript(() =>
    window.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { __cspViolation(v: string): void }).__cspViolation(`${e.effectiveDirective} ${e.blockedURI}`),
    ),
  );
  return {
    browser: context.browser()!,
    context,
    page,
    errors,
    violations,
    close: async () => {
      await context.close();
      if (!opts.profile) rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The whole page by default; `fullPage: false` for what the screen shows (a phone's view, fixed bars in place). */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<string> {
  mkdirSync(RESULTS, { recursive: true });
  const file = path.join(RESULTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  return file;
}
