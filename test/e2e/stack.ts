import path from 'node:path';
import type { Page } from 'playwright-core';
import { PROXY, serveApp, type AppServer, type ServeAppOptions } from '../../src/cli/app-server.js';
import { startPublisher, type Publisher } from '../../src/publisher/server.js';
import { launch, type LaunchOptions, type Session } from './browser.js';

/**
 * What most browser tests stand on: the stand-in publisher (no limits) serving `dataDir`, the built
 * app in front of it with every source behind its /publisher proxy, and a fresh Chromium profile.
 */
export interface AppStack {
  publisher: Publisher;
  app: AppServer;
  s: Session;
  close(): Promise<void>;
}

export async function startStack(dataDir: string, browser: LaunchOptions = {}, serve: Pick<ServeAppOptions, 'tls'> = {}): Promise<AppStack> {
  const publisher = await startPublisher({ dataDir, limits: 'off' });
  const app = await serveApp({
    ...serve,
    dist: path.resolve('dist'),
    publisher: publisher.url,
    config: { sources: { indicators: PROXY, mf: PROXY, flags: PROXY } },
  });
  const s = await launch(browser);
  return {
    publisher,
    app,
    s,
    close: async () => {
      await s.close();
      await app.close();
      await publisher.close();
    },
  };
}

/** The Sync button of the Data view: shown again when a sync has finished. */
export const syncButton = (page: Page) => page.getByRole('button', { name: 'Sync', exact: true });

/** A user's first sync: open the Data view once DuckDB is up, press Sync, wait until it is done. */
export async function firstSync(page: Page, appUrl: string, timeout = 240_000): Promise<void> {
  await page.goto(`${appUrl}#/data`);
  await page.getByText('DuckDB ready').waitFor({ timeout: 60_000 });
  await syncButton(page).click();
  await page.getByRole('progressbar').first().waitFor({ timeout: 30_000 });
  await syncButton(page).waitFor({ timeout });
}
