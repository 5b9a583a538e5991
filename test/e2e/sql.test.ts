import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveApp, type AppServer } from '../../src/cli/app-server.js';
import { hasChromium, launch, screenshot, type Session } from './browser.js';

describe.skipIf(!hasChromium)('SQL workbench (built app, real Chromium, DuckDB-WASM in a worker)', () => {
  let app: AppServer;
  let s: Session;

  beforeAll(async () => {
    app = await serveApp({ dist: path.resolve('dist'), config: { sources: { indicators: 'http://127.0.0.1:9', mf: 'http://127.0.0.1:9', flags: 'http://127.0.0.1:9' } } });
    s = await launch();
  });
  afterAll(async () => {
    await s?.close();
    await app?.close();
  });

  it('runs a query with Ctrl-Enter, shows a million rows in the grid and exports them as CSV', async () => {
    const { page } = s;
    await page.goto(`${app.url}#/sql`);
    await page.getByText('DuckDB ready').waitFor({ timeout: 60_000 });
    const editor = page.locator('.cm-content');
    await editor.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText('SELECT i AS n, i * 2 AS doubled, DATE \'2020-01-01\' + (i % 1000)::INTEGER AS day FROM range(1000000) t(i)');
    await page.keyboard.press('Control+Enter');
    await page.getByRole('status').filter({ hasText: '1,000,000 rows' }).waitFor({ timeout: 60_000 });
    expect(await page.getByRole('gridcell').first().textContent()).toBe('0');
    // The grid renders only what is visible: jumping to the end shows the last row.
    const viewport = page.getByLabel('Result rows');
    await viewport.focus();
    await page.keyboard.press('End');
    await page.getByRole('gridcell', { name: '999,999', exact: true }).first().waitFor();
    expect(await page.getByRole('row').count()).toBeLessThan(60);
    await screenshot(page, 'sql');

    const download = page.waitForEvent('download', { timeout: 120_000 });
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await (await download).path();
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines[0]).toBe('n,doubled,day');
    expect(lines[1]).toBe('0,0,2020-01-01');
    expect(lines).toHaveLength(1_000_001);
    expect(lines[1_000_000]).toBe('999999,1999998,2022-09-26');

    // Parquet through parquet-wasm: the file carries the format's magic at both ends.
    const pq = page.waitForEvent('download', { timeout: 120_000 });
    await page.getByRole('button', { name: 'Parquet' }).click();
    const bytes = readFileSync(await (await pq).path());
    expect(bytes.subarray(0, 4).toString()).toBe('PAR1');
    expect(bytes.subarray(bytes.length - 4).toString()).toBe('PAR1');
    expect(s.errors).toEqual([]);
  }, 180_000);
});
