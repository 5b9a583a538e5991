import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, afterAll } from 'vitest';
import { NodeEngine } from '../../../src/core/engine/node.js';
import { compare } from '../../../src/core/services/compare/compare.js';
import { openPriceSource } from '../../../src/core/services/compare/prices.js';
import { parsePricesCsv, type PriceRow } from '../../../src/core/services/compare/import.js';
import { pyFormatComma2 } from '../../../src/core/services/compare/format.js';
import type { CompareParams } from '../../../src/core/contract/compare.js';
import { plainMetrics } from '../../../bench/compare-plain.js';
import { REFERENCE_DIR, referenceCase } from './reference.js';

/**
 * WTI closed at -36.98 on 2020-04-20 (real-01.csv: the real closes of WTI, VIX and SPX). Here the
 * prices come through the market-data source (an `indicators.stock_prices` table), and windows other
 * than real-01's put that day at the start, at the end and in the middle of the series, WTI as the
 * benchmark too. quantstats computes straight through a return below -100%: its wealth is the
 * cumulative product of 1 + r, which is close/base and turns negative with the close; nothing takes a
 * logarithm. WTI_0 and WTI_00 are WTI with that close (and the next) set to 0: a return into a 0 is
 * -100%, one out of it is x/0, which quantstats' cleanup makes 0. Each window must agree with
 * - the plain TypeScript implementation of quantstats' formulas (bench/compare-plain.ts), and
 * - the semantics written out below (semanticsDiffer) from the closes alone.
 */
const real01 = referenceCase('real-01');
const wti = parsePricesCsv(fs.readFileSync(path.join(REFERENCE_DIR, real01.prices_csv), 'utf8'));
const zeroed = (symbol: string, days: string[]) =>
  wti.filter((r) => r.symbol === 'WTI').map((r) => ({ ...r, symbol, close: days.includes(r.date) ? 0 : r.close }));
const rows = [...wti, ...zeroed('WTI_0', ['2020-04-20']), ...zeroed('WTI_00', ['2020-04-20', '2020-04-21'])];

const engine = await NodeEngine.open();
afterAll(() => engine.close());
await engine.exec(`ATTACH ':memory:' AS indicators`);
await engine.exec('CREATE TABLE indicators.stock_prices (symbol VARCHAR, date DATE, close DOUBLE)');
await storeMarket(rows);
// rows that are not numbers are the only ones left out (a weekend day, so the trading days show it)
await engine.exec("INSERT INTO indicators.stock_prices VALUES ('WTI', DATE '2020-04-25', NULL), ('WTI', DATE '2020-04-26', 'NaN'::DOUBLE)");

async function storeMarket(list: PriceRow[]): Promise<void> {
  for (let i = 0; i < list.length; i += 500) {
    const chunk = list.slice(i, i + 500);
    await engine.all(
      `INSERT INTO indicators.stock_prices VALUES ${chunk.map(() => '(?, CAST(? AS DATE), ?)').join(', ')}`,
      chunk.flatMap((r) => [r.symbol, r.date, r.close]),
    );
  }
}

async function run(p: Omit<CompareParams, 'precision'>, precision: CompareParams['precision']) {
  return compare(engine, { ...p, precision }, await openPriceSource(engine));
}

const near = (got: unknown, want: number) => typeof got === 'number' && (got === want || Math.abs(got - want) <= 1e-9 * Math.abs(want));

function cut(symbol: string, from: string, to: string): PriceRow[] {
  return rows.filter((r) => r.symbol === symbol && r.date >= from && r.date <= to);
}

describe('compare through a negative close, from market data', () => {
  it('real-01 through indicators.stock_prices equals quantstats, non-numbers dropped', { timeout: 120_000 }, async () => {
    const full = await run(real01, 'full');
    const display = await run(real01, 'display');
    for (const [i, entry] of full.symbols.entries()) {
      const want = real01.results[entry.symbol];
      expect(entry.trading_days, entry.symbol).toBe(want.trading_days);
      for (const [k, v] of Object.entries(want.all_metrics)) {
        const got = entry.all_metrics[k as keyof typeof entry.all_metrics];
        expect(typeof v === 'number' ? near(got, v) : got === v, `${entry.symbol} ${k}: ${String(got)} != ${String(v)}`).toBe(true);
      }
      expect(display.symbols[i].all_metrics).toEqual(want.all_metrics_rounded);
    }
  });

  const windows: Array<[string, string[], string, string, string, number]> = [
    ['ends on the negative close', ['WTI', 'VIX'], 'SPX', '2020-03-02', '2020-04-20', 0.02],
    ['starts on it: the base close is negative, so wealth is negative throughout', ['WTI'], 'SPX', '2020-04-20', '2020-06-30', 0],
    ['passes through it', ['WTI'], 'SPX', '2020-04-01', '2020-05-29', 0.02],
    ['the benchmark passes through it', ['SPX', 'VIX'], 'WTI', '2020-03-02', '2020-06-30', 0.02],
    ['a close of 0, then one after it', ['WTI_0', 'WTI_00'], 'SPX', '2020-03-02', '2020-06-30', 0.02],
    ['the base close is 0', ['WTI_00'], 'SPX', '2020-04-21', '2020-06-30', 0],
    // SPX and VIX have 2020-11-27, WTI has not: the benchmark is re-aligned to their dates
    ['the benchmark closes at 0 (its compounded price stays 0 after)', ['SPX', 'VIX'], 'WTI_0', '2020-03-02', '2020-12-31', 0.02],
    ['the benchmark\'s base close is 0', ['SPX', 'WTI_0'], 'WTI_00', '2020-04-21', '2020-12-31', 0],
  ];
  for (const [what, symbols, benchmark, start_date, end_date, risk_free_rate] of windows) {
    it(`${what}: ${symbols.join(', ')} vs ${benchmark}, ${start_date}..${end_date}`, { timeout: 120_000 }, async () => {
      const p = { symbols, benchmark, start_date, end_date, risk_free_rate };
      const series = (s: string) => {
        const own = cut(s, start_date, end_date);
        return { dates: own.map((r) => r.date), closes: own.map((r) => r.close) };
      };
      for (const precision of ['full', 'display'] as const) {
        const res = await run(p, precision);
        for (const entry of res.symbols) {
          expect(entry.success, `${entry.symbol}: ${entry.error}`).toBe(true);
          const plain = plainMetrics(series(entry.symbol), series(benchmark), risk_free_rate, precision === 'display');
          const differ = Object.entries(plain)
            .filter(([k, v]) => {
              const got = entry.all_metrics[k as keyof typeof entry.all_metrics];
              return typeof v === 'number' ? !near(got, v) : got !== v;
            })
            .map(([k, v]) => `${k}: sql ${String(entry.all_metrics[k as keyof typeof entry.all_metrics])} plain ${String(v)}`);
          expect(differ, `${entry.symbol} ${precision}`).toEqual([]);
          if (precision === 'full') expect(semanticsDiffer(entry.symbol, entry.all_metrics, start_date, end_date), entry.symbol).toEqual([]);
        }
      }
    });
  }
});

/**
 * What quantstats 0.0.81 gives, from a symbol's closes alone, for the figures a negative or zero
 * close changes. With c the closes, r_t = c_t / c_{t-1} - 1 (0 where that is no number: out of a 0),
 * the first kept return on Start Period, n kept returns and W_t the wealth, 1 + r compounded from the
 * base close before Start Period (c_t / c0 while no close is 0: the sign follows c; 0 for good once a
 * close is 0):
 * - Cumulative Return = '{:,.2f}'.format(W_end - 1);
 * - CAGR = |W_end| ** (252 / n) - 1 (stats.cagr takes the absolute value of 1 + total);
 * - Expected Daily = W_end ** (1 / n) - 1: NaN, shown '-', when W_end < 0 (numpy: a negative base
 *   to a fractional power);
 * - drawdown = W_t / max(1, max_{s<=t} W_s) - 1: the running peak includes the phantom baseline 1
 *   that to_drawdown_series/max_drawdown put before the first day (_get_baseline_value gives 1 for a
 *   first price of at most 10); it goes below -100% when W does. Calmar = CAGR / |min drawdown|;
 * - Worst Day = min r (-36.98 / 18.31 - 1 when 2020-04-20 is in, -1 into a close of 0).
 */
function semanticsDiffer(symbol: string, got: Record<string, unknown>, from: string, to: string): string[] {
  const own = cut(symbol, from, to);
  const first = own.findIndex((r) => r.date === got['Start Period']);
  const r = own.map((row, i) => (i === 0 ? 0 : row.close / own[i - 1].close - 1)).map((x) => (Number.isFinite(x) ? x : 0)).slice(first);
  const n = r.length;
  let wealth = 1;
  const w = r.map((x) => (wealth *= 1 + x));
  const wEnd = w[n - 1];
  let peak = 1;
  const dd = w.map((x) => {
    peak = Math.max(peak, x);
    return x / peak - 1;
  });
  const cagr = Math.abs(wEnd) ** (252 / n) - 1;
  const want: Record<string, number | string> = {
    'Cumulative Return': Number(pyFormatComma2(wEnd - 1)),
    'CAGR﹪': cagr,
    'Expected Daily': wEnd < 0 ? '-' : wEnd ** (1 / n) - 1,
    Calmar: cagr / Math.abs(Math.min(...dd)),
    'Worst Day': Math.min(...r),
  };
  return Object.entries(want)
    .filter(([k, v]) => (typeof v === 'number' ? !near(got[k], v) : got[k] !== v))
    .map(([k, v]) => `${k}: ${String(got[k])} != ${String(v)}`);
}
