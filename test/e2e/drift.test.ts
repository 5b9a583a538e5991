import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { generate } from '../core/sync/fixture.js';
import { amfiDailyFile } from '../helpers/amfi-file.js';
import { hasChromium, screenshot } from './browser.js';
import { firstSync, startStack, syncButton, type AppStack } from './stack.js';

/**
 * The built app in Chromium against the stand-in publisher: AMFI files imported from the Data view
 * show on the scheme page as NAVs newer than the synced data, marked as imported; then the publisher
 * drops a required column from the full-history file (`--drift drop`), and after a sync the Data view
 * says what changed, in which file, since when, that it was refused, and the publisher's notes.
 */
const flat = (t: string | null) => (t ?? '').replace(/\s+/g, ' ').trim();

describe.skipIf(!hasChromium)('e2e: AMFI import and a schema-drift notice in the Data view', () => {
  let dataDir: string;
  let filesDir: string;
  let stack: AppStack;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'almanac-e2e-drift-'));
    filesDir = mkdtempSync(path.join(tmpdir(), 'almanac-e2e-amfi-'));
    await generate(dataDir, ['indicators', 'mf', 'flags']);
    stack = await startStack(dataDir);
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    for (const d of [dataDir, filesDir]) if (d) rmSync(d, { recursive: true, force: true });
  });

  it('first sync, then two AMFI daily files imported from the Data view appear on the scheme page as imported NAVs', async () => {
    const { page } = stack.s;
    await firstSync(page, stack.app.url);
    // The card re-checks its source after the sync ("checking…" meanwhile).
    await expect.poll(() => page.getByTestId('state-mf').textContent(), { timeout: 60_000 }).toBe('current');
    expect(await page.getByTestId('drift-mf').count()).toBe(0);

    // An active scheme as the publisher has it, and AMFI's files for the two days after its data.
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    const latest = path.join(dataDir, 'mf', 'mf_nav_master_latest.parquet').replaceAll("'", "''");
    const [row] = (await conn.runAndReadAll(`SELECT scheme_code, scheme_name, isin, nav::DOUBLE AS nav, strftime(nav_date, '%Y-%m-%d') AS d
      FROM read_parquet('${latest}') WHERE is_active AND nav > 0 AND isin IS NOT NULL ORDER BY scheme_code LIMIT 1`)).getRowObjectsJS();
    conn.closeSync();
    db.closeSync();
    expect(String(row.d)).toBe('2026-11-13');
    const files = ['2026-11-16', '2026-11-17'].map((d, i) => {
      const file = path.join(filesDir, `NAVAll-${d}.txt`);
      const nav = (Number(row.nav) * (1 + (i + 1) / 100)).toFixed(4);
      writeFileSync(file, amfiDailyFile(d, [{ code: Number(row.scheme_code), name: String(row.scheme_name), isin: String(row.isin), nav }]));
      return file;
    });
    await page.getByLabel('Import AMFI NAV files').setInputFiles(files);
    await expect.poll(() => page.getByTestId('amfi-result').count(), { timeout: 60_000 }).toBe(2);
    expect(flat(await page.getByTestId('amfi-result').first().textContent())).toBe('NAVAll-2026-11-16.txt: 1 NAV rows, 1 schemes, 2026-11-16 (daily layout).');

    await page.goto(`${stack.app.url}#/funds/${row.scheme_code}`);
    await page.getByRole('heading', { name: 'NAV history' }).waitFor({ timeout: 30_000 });
    await page.getByTestId('imported-navs').waitFor({ timeout: 30_000 });
    expect(flat(await page.getByTestId('imported-navs').textContent())).toMatch(/2 NAVs after the publisher's last one \(2026-11-13\)/);
    const imported = page.getByRole('table', { name: 'Imported NAVs' }).locator('tbody tr');
    expect(await imported.allTextContents()).toEqual([
      expect.stringMatching(/^2026-11-16.*imported NAVAll-2026-11-16\.txt$/),
      expect.stringMatching(/^2026-11-17.*imported NAVAll-2026-11-17\.txt$/),
    ]);
    await page.locator('.chart canvas').first().waitFor();
    await screenshot(page, 'scheme-imported-navs');
  }, 300_000);

  it('the publisher drops scheme_name from the full history: after a sync the Data view shows the refused change and the versions', async () => {
    const { page } = stack.s;
    await generate(dataDir, ['mf'], { publishes: [{ drift: 'drop' }] });
    await page.goto(`${stack.app.url}#/data`);
    await page.getByText('DuckDB ready').waitFor({ timeout: 60_000 });
    // Nothing of the first test still running (the Sync button is back), then the source's new state.
    await syncButton(page).waitFor({ timeout: 180_000 });
    await page.getByTestId('state-mf').filter({ hasText: 'update available' }).waitFor({ timeout: 60_000 });
    await syncButton(page).click();
    await syncButton(page).waitFor({ timeout: 180_000 });
    const notice = page.getByTestId('drift-mf');
    await notice.first().waitFor({ timeout: 30_000 });
    expect(await notice.count()).toBe(1);
    const text = (await notice.textContent())!.replace(/\s+/g, ' ');
    expect(text).toMatch(/^ ?Refused nav\.scheme_name — mf_nav_master\.parquet: required column scheme_name is missing; the previous copy of mf\.nav keeps answering \(announced: schema version 4\)\. Since /);
    expect(text).toMatch(/\(published 2026-11-21T06:00:00Z\)/);
    expect((await page.getByTestId('schema-mf').textContent())!.replace(/\s+/g, ' ').trim()).toBe(
      'Schema version 3 locally, 4 at the publisher · changed 2026-11-20',
    );
    // The sync panel marks the file failed, with what to do about it.
    const panel = flat(await page.locator('section[aria-label="Sync progress"]').textContent());
    expect(panel).toContain('mf / mf_nav_master.parquet failed mf_nav_master.parquet: required column "scheme_name" is missing');
    expect(panel).toContain("The publisher changed this file's layout in a way Almanac will not take");
    await page.getByText("The publisher's version notes").click();
    await page.getByText(/^Version 4: full-history files: column scheme_name removed/).waitFor();
    await screenshot(page, 'data-drift-refused');

    // The refused file's table still answers from generation 1.
    await page.goto(`${stack.app.url}#/funds`);
    await page.getByLabel('Search schemes').fill('HDFC');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('table.data tbody a').first().click();
    await page.getByRole('heading', { name: 'NAV history' }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('alert').count()).toBe(0);
  }, 300_000);
});
