import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sync } from '../../src/core/sync/sync.js';
import { nodeHost, openStore } from '../../src/core/database/node.js';
import type { Store } from '../../src/core/database/store.js';
import { compare } from '../../src/core/services/compare/compare.js';
import { openPriceSource } from '../../src/core/services/compare/prices.js';
import { CREATE_USER_PRICES, parsePricesCsv, storePrices } from '../../src/core/services/compare/import.js';
import { METRIC_NAMES, parseCompareParams, type MetricName } from '../../src/core/contract/compare.js';
import { formatMetric } from '../../src/ui/lib/metric-format.js';
import { hasChromium, screenshot } from './browser.js';
import { firstSync, startStack, type AppStack } from './stack.js';
import { SERVICES } from '../../src/core/sync/datasets.js';
import { publishTiny } from '../helpers/tiny-data.js';
import { NO_LIMITS } from '../core/sync/fixture.js';

/** Weekday closes of a made-up portfolio over [from, to]: a deterministic random walk. */
function portfolioCsv(symbol: string, from: string, to: string): string {
  const lines = ['date,symbol,close'];
  let close = 100;
  let seed = 7;
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    const day = new Date(t);
    if (day.getUTCDay() === 0 || day.getUTCDay() === 6) continue;
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    close = Math.round(close * (1 + (seed / 2 ** 31 - 0.49) * 0.03) * 100) / 100;
    lines.push(`${day.toISOString().slice(0, 10)},${symbol},${close}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Compare in the built app, in Chromium, on synced tiny data plus an imported CSV: market symbols, a
 * fund scheme picked by name and the imported symbol against a market benchmark. Every cell of the
 * table must hold what the core computes in Node for the same request on the same data.
 */
describe.skipIf(!hasChromium)('compare e2e (built app, Chromium, DuckDB-WASM worker)', () => {
  let dataDir: string;
  let work: string;
  let stack: AppStack;
  let store: Store;
  let csvFile: string;
  let window: { start: string; end: string };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'almanac-e2e-data-'));
    await publishTiny(dataDir, SERVICES);
    work = mkdtempSync(path.join(tmpdir(), 'almanac-e2e-compare-'));
    stack = await startStack(dataDir);
    // The Node side: the same data, synced by the same engine into a directory store.
    const host = nodeHost(path.join(work, 'store'));
    const summary = await sync({ storage: host.storage, host, source: stack.publisher.url, only: ['mf', 'indicators'], rules: NO_LIMITS });
    expect(summary.errors).toEqual([]);
    store = await openStore(path.join(work, 'store'));
    const [last] = await store.engine.all<{ end: string }>("SELECT strftime(max(date), '%Y-%m-%d') AS end FROM indicators.stock_prices WHERE symbol = '^GSPC'");
    window = { start: `${Number(last.end.slice(0, 4)) - 3}${last.end.slice(4)}`, end: last.end };
    csvFile = path.join(work, 'my-portfolio.csv');
    writeFileSync(csvFile, portfolioCsv('MYPORT', window.start, window.end));
    await store.engine.exec(`ATTACH IF NOT EXISTS ':memory:' AS "user"`);
    await store.engine.exec(CREATE_USER_PRICES);
    await storePrices(store.engine, parsePricesCsv(portfolioCsv('MYPORT', window.start, window.end)));
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await store?.close();
    for (const d of [dataDir, work]) if (d) rmSync(d, { recursive: true, force: true });
  });

  it('syncs, imports a CSV, compares market, fund and imported symbols; the table is the core’s result', async () => {
    const { page } = stack.s;
    await firstSync(page, stack.app.url);

    await page.goto(`${stack.app.url}#/compare`);
    await page.getByText(/Available: \d+ market symbols/).waitFor({ timeout: 30_000 });
    await screenshot(page, 'compare-empty');
    await page.getByText('Import your own prices').click();
    await page.locator('input[type=file]').setInputFiles(csvFile);
    await page.getByRole('status').filter({ hasText: /Imported [\d,]+ prices from my-portfolio.csv/ }).waitFor({ timeout: 30_000 });

    const picker = page.getByRole('combobox', { name: /Securities/ });
    for (const symbol of ['^NSEI', '^GDAXI', 'MYPORT']) {
      await picker.fill(symbol);
      await page.getByRole('option').filter({ hasText: symbol }).first().waitFor();
      await picker.press('Enter');
    }
    // A fund by part of its name: the first scheme the search suggests.
    await picker.fill('HDFC');
    const fund = page.getByRole('option').filter({ hasText: 'fund' }).first();
    await fund.waitFor({ timeout: 30_000 });
    await fund.click({ force: true });
    // SPY (the spec's default) is not in the sample data: the view offers the index SPY tracks.
    expect(await page.getByLabel('Benchmark', { exact: true }).inputValue()).toBe('^GSPC');
    await page.getByLabel('From', { exact: true }).fill(window.start);
    await page.getByLabel('To', { exact: true }).fill(window.end);
    await page.getByLabel('Risk-free rate', { exact: true }).fill('0.04');
    await screenshot(page, 'compare-picking');
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await page.locator('table.metrics td[data-metric]').first().waitFor({ timeout: 120_000 });
    await page.getByRole('button', { name: 'Compare', exact: true }).waitFor();

    // The request as the view made it (the route keeps it: deep-linkable).
    const query = new URL(page.url().replace('#/', '')).searchParams;
    const symbols = query.get('symbols')!.split(',');
    expect(symbols).toHaveLength(4);
    expect(symbols.slice(0, 3)).toEqual(['^NSEI', '^GDAXI', 'MYPORT']);
    expect(symbols[3]).toMatch(/^\d+$/);

    const cells = await page.locator('table.metrics td[data-metric]').evaluateAll((tds) =>
      tds.map((td) => ({ symbol: td.getAttribute('data-symbol')!, metric: td.getAttribute('data-metric')!, value: td.getAttribute('data-value')!, text: td.textContent! })),
    );
    const params = parseCompareParams({ symbols: symbols.join(','), benchmark: '^GSPC', start_date: window.start, end_date: window.end, risk_free_rate: '0.04', precision: 'full' });
    const want = await compare(store.engine, params, await openPriceSource(store.engine));
    expect(want.symbols.map((e) => [e.symbol, e.success, e.error])).toEqual(symbols.map((sym) => [sym, true, null]));
    expect(cells).toHaveLength(symbols.length * METRIC_NAMES.length);
    for (const entry of want.symbols) {
      const got = cells.filter((c) => c.symbol === entry.symbol);
      expect(got.map((c) => c.metric)).toEqual([...METRIC_NAMES]);
      for (const c of got) {
        const v = entry.all_metrics[c.metric as MetricName];
        expect(c.value, `${entry.symbol} ${c.metric}`).toBe(JSON.stringify(v ?? null));
        expect(c.text, `${entry.symbol} ${c.metric}`).toBe(formatMetric(c.metric as MetricName, v));
      }
    }
    const headers = await page.locator('table.metrics thead th').allTextContents();
    expect(headers.some((h) => h.includes(`${want.symbols[0].trading_days.toLocaleString('en-US')} days`))).toBe(true);
    expect(await page.locator('.charts canvas').count()).toBeGreaterThanOrEqual(2);
    expect(stack.s.errors).toEqual([]);
    await screenshot(page, 'compare');
    await page.getByLabel('Theme').selectOption('dark');
    await screenshot(page, 'compare-dark');
    await page.getByLabel('Theme').selectOption('system');
  }, 600_000);
});
