import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, afterAll } from 'vitest';
import { NodeEngine } from '../../../src/core/engine/node.js';
import { compare } from '../../../src/core/services/compare/compare.js';
import { openPriceSource } from '../../../src/core/services/compare/prices.js';
import { storePrices, type PriceRow } from '../../../src/core/services/compare/import.js';
import { plainMetrics } from '../../../bench/compare-plain.js';

/**
 * Real NAVs and index closes (no quantstats reference here): the DuckDB implementation and the
 * independent plain-TypeScript one must agree, on calendars that differ (fund NAV days vs index days)
 * and on a liquid fund compared with itself (no drawdown on either side).
 */
const DIR = path.resolve(import.meta.dirname, '../../../../shared/data/real-prices');
const FILES = ['NIFTY50', 'SENSEX', 'HDFC_EQUITY_G', 'HDFC_LIQUID_G', 'HDFC_TOP200_G', 'FRANKLIN_BLUECHIP_G', 'KOTAK_QIP2_G', 'SPX'];

function load(name: string): PriceRow[] {
  return fs
    .readFileSync(path.join(DIR, `${name}.csv`), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','))
    .filter(([, c]) => Number(c) > 0)
    .map(([date, c]) => ({ date, symbol: name, close: Number(c) }));
}

const engine = await NodeEngine.open();
afterAll(() => engine.close());
const all = new Map(FILES.map((f) => [f, load(f)]));

const agree = (got: unknown, want: unknown) =>
  typeof want === 'number' && typeof got === 'number' ? got === want || Math.abs(got - want) <= 1e-9 * Math.abs(want) : got === want;

describe('DuckDB and plain TypeScript agree on real prices', async () => {
  await engine.exec(`ATTACH ':memory:' AS "user"`);
  for (const rows of all.values()) await storePrices(engine, rows);
  const cases: Array<[string[], string, string, string, number]> = [
    [['HDFC_EQUITY_G', 'HDFC_TOP200_G', 'FRANKLIN_BLUECHIP_G', 'KOTAK_QIP2_G', 'HDFC_LIQUID_G', 'SENSEX'], 'NIFTY50', '2008-01-01', '2015-12-31', 0.065],
    [['HDFC_LIQUID_G'], 'HDFC_LIQUID_G', '2014-01-01', '2014-12-31', 0],
    [['NIFTY50', 'HDFC_EQUITY_G'], 'SPX', '2016-01-01', '2016-12-31', 0.02],
  ];
  for (const [symbols, benchmark, start_date, end_date, rf] of cases) {
    it(`${symbols.join(', ')} vs ${benchmark}, ${start_date}..${end_date}, rf ${rf}`, async () => {
      const source = await openPriceSource(engine);
      const params = { symbols, benchmark, start_date, end_date, risk_free_rate: rf };
      const cut = (name: string) => {
        const own = all.get(name)!.filter((r) => r.date >= start_date && r.date <= end_date);
        return { dates: own.map((r) => r.date), closes: own.map((r) => r.close) };
      };
      for (const precision of ['full', 'display'] as const) {
        const res = await compare(engine, { ...params, precision }, source);
        for (const entry of res.symbols) {
          expect(entry.success, `${entry.symbol}: ${entry.error}`).toBe(true);
          const plain = plainMetrics(cut(entry.symbol), cut(benchmark), rf, precision === 'display');
          expect(Object.keys(entry.all_metrics), entry.symbol).toEqual(Object.keys(plain));
          const differ = Object.entries(plain)
            .filter(([k, v]) => !agree(entry.all_metrics[k as keyof typeof entry.all_metrics], v))
            .map(([k, v]) => `${k}: sql ${String(entry.all_metrics[k as keyof typeof entry.all_metrics])} plain ${String(v)}`);
          expect(differ, `${entry.symbol} ${precision}`).toEqual([]);
        }
      }
    });
  }
});
