/**
 * The answers the app keeps per data generation (src/ui/lib/answer-cache.ts), in the built app in
 * Chromium against the stand-in publisher. A second tab waits for the store while the first holds it,
 * so whatever it shows before the first tab closes comes from the kept answers, never from its engine:
 * in the same generation it draws the scheme page from them; after a sync of a new generation it must
 * not show the old answer, and shows the new one once the store is its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DuckDBInstance } from '@duckdb/node-api';
import { publishTiny } from '../helpers/tiny-data.js';
import { hasChromium } from './browser.js';
import { KEPT_ANSWERS } from './kept-answers.js';
import { startStack, syncButton, type AppStack } from './stack.js';

/** The NAV history's range and count on the scheme page: `first → latest · N NAVs`. */
const range = (page: Page) => page.locator('.card .bar .muted.small').filter({ hasText: /NAVs$/ });

/** Syncs the MF data only, from the Data view. */
async function syncMf(page: Page, url: string): Promise<void> {
  await page.goto(`${url}#/data`);
  await page.getByText('DuckDB ready').waitFor({ timeout: 60_000 });
  for (const name of ['Indicators', 'Corporate red flags']) await page.getByRole('checkbox', { name, exact: true }).uncheck();
  await syncButton(page).click();
  await page.getByTestId('state-mf').filter({ hasText: 'current' }).waitFor({ timeout: 120_000 });
  await syncButton(page).waitFor({ timeout: 120_000 });
}

describe.skipIf(!hasChromium)('e2e: answers kept per data generation', () => {
  let dataDir: string;
  let stack: AppStack;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'almanac-e2e-answers-'));
    await publishTiny(dataDir, ['mf']);
    stack = await startStack(dataDir);
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('a waiting tab draws the scheme page from the kept answer of this generation, and never from an older one', async () => {
    const { s, app } = stack;
    const a = s.page;
    await syncMf(a, app.url);

    // An active scheme: the next generation, a week on, adds NAVs to it.
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    const latest = path.join(dataDir, 'mf', 'mf_nav_master_latest.parquet').replaceAll("'", "''");
    const [row] = (await conn.runAndReadAll(`SELECT scheme_code FROM read_parquet('${latest}') WHERE is_active AND nav > 0 ORDER BY scheme_code LIMIT 1`)).getRowObjectsJS();
    conn.closeSync();
    db.closeSync();
    const link = `${app.url}#/funds/${row.scheme_code}`;

    await a.goto(link);
    const first = (await range(a).textContent({ timeout: 60_000 }))!;
    // The first tab kept its answer.
    await expect.poll(() => a.evaluate(KEPT_ANSWERS), { timeout: 30_000 }).toBeGreaterThan(0);

    // Same generation: the waiting tab shows the kept answer while the first tab holds the store.
    const b = await s.context.newPage();
    await b.goto(link);
    await b.getByText('Almanac is open in another tab').waitFor({ timeout: 30_000 });
    expect(await range(b).textContent({ timeout: 30_000 })).toBe(first);
    await b.close();

    // A new generation, synced by the first tab, which does not open the scheme page again: what is
    // kept is the older generation's answer only.
    await publishTiny(dataDir, ['mf'], { generation: 2 });
    await syncMf(a, app.url);
    const c = await s.context.newPage();
    await c.goto(link);
    await c.getByText('Almanac is open in another tab').waitFor({ timeout: 30_000 });
    await a.close();
    // Served from the older generation, the page would show `first` and never ask the engine again.
    await c.getByText('DuckDB ready').waitFor({ timeout: 60_000 });
    const second = (await range(c).textContent({ timeout: 60_000 }))!;
    expect(second).not.toBe(first);
    expect(second).toMatch(/NAVs$/);
    held = c;
  }, 300_000);

  let held: Page | undefined;

  it("a lone tab on a kept link draws the kept answer, then starts its engine", async () => {
    const c = held!;
    await expect.poll(() => c.evaluate(KEPT_ANSWERS), { timeout: 30_000 }).toBeGreaterThan(0);
    const link = c.url();
    const shown = (await range(c).textContent())!;
    await c.close();
    // What the page showed when DuckDB's worker was created (src/ui/lib/engine.svelte.ts startEngine).
    await stack.s.context.addInitScript(() => {
      const W = window.Worker;
      window.Worker = class extends W {
        constructor(url: string | URL, opts?: WorkerOptions) {
          super(url, opts);
          if (/duckdb/.test(String(url))) {
            (window as unknown as { shownAtEngineStart?: string }).shownAtEngineStart = [...document.querySelectorAll('.card .bar .muted.small')]
              .map((e) => e.textContent ?? '')
              .find((t) => t.endsWith('NAVs')) ?? '';
          }
        }
      };
    });
    const d = await stack.s.context.newPage();
    await d.goto(link);
    await d.getByText('DuckDB ready').waitFor({ timeout: 60_000 });
    expect(await d.evaluate(() => (window as unknown as { shownAtEngineStart?: string }).shownAtEngineStart)).toBe(shown);
    expect(await range(d).textContent()).toBe(shown);
  }, 120_000);
});
