import path from 'node:path';
import { describe, it, expect, afterAll } from 'vitest';
import { NodeEngine } from '../../../src/core/engine/node.js';
import { compare } from '../../../src/core/services/compare/compare.js';
import { openPriceSource } from '../../../src/core/services/compare/prices.js';
import { storePrices } from '../../../src/core/services/compare/import.js';
import { CompareError, METRIC_NAMES, parseCompareParams, type CompareParams } from '../../../src/core/contract/compare.js';
import { REFERENCE_DIR, loadUserPrices, referenceCases, EXTRA_CASES } from './reference.js';

const engine = await NodeEngine.open();
afterAll(() => engine.close());

function close(got: unknown, want: unknown): boolean {
  if (typeof want === 'number' && typeof got === 'number') return got === want || Math.abs(got - want) <= 1e-9 * Math.abs(want);
  return got === want;
}

async function run(c: { symbols: string[]; benchmark: string; start_date: string; end_date: string; risk_free_rate: number }, precision: CompareParams['precision']) {
  return compare(engine, { ...c, precision }, await openPriceSource(engine));
}

describe('compare reproduces quantstats 0.0.81 on every reference case', () => {
  for (const c of referenceCases(EXTRA_CASES)) {
    it(`${c.id}: ${c.symbols.join(', ')} vs ${c.benchmark}, rf ${c.risk_free_rate}`, async () => {
      await loadUserPrices(engine, path.join(REFERENCE_DIR, c.prices_csv));
      const full = await run(c, 'full');
      const display = await run(c, 'display');
      expect(full).toMatchObject({ success: true, benchmark: c.benchmark, start_date: c.start_date, end_date: c.end_date, risk_free_rate: c.risk_free_rate });
      expect(full.symbols.map((s) => s.symbol)).toEqual(c.symbols);
      for (const [i, entry] of full.symbols.entries()) {
        const want = c.results[entry.symbol];
        expect(entry, entry.symbol).toMatchObject({ success: true, error: null, trading_days: want.trading_days });
        expect(Object.keys(entry.all_metrics)).toEqual(Object.keys(want.all_metrics));
        expect(Object.keys(entry.all_metrics)).toEqual([...METRIC_NAMES]);
        const wrong = Object.entries(want.all_metrics)
          .filter(([k, v]) => !close(entry.all_metrics[k as keyof typeof entry.all_metrics], v))
          .map(([k, v]) => `${k}: ${String(entry.all_metrics[k as keyof typeof entry.all_metrics])} != ${String(v)}`);
        expect(wrong, `${entry.symbol} full precision`).toEqual([]);
        // the display rounding is exact: same JSON as quantstats' own output
        expect(display.symbols[i].all_metrics, `${entry.symbol} rounded`).toEqual(want.all_metrics_rounded);
      }
    });
  }
});

describe('compare reports per-symbol failures inside their entry', () => {
  it('unknown symbol, empty window, a single price and a frozen price fail alone; the others succeed', async () => {
    await loadUserPrices(engine, path.join(REFERENCE_DIR, 'dev-04.csv'));
    const days = ['2019-01-02', '2019-01-03', '2019-01-04', '2019-01-07', '2019-01-08'];
    await storePrices(engine, [
      ...days.map((date) => ({ date, symbol: 'FROZEN', close: 10 })),
      { date: '2019-01-02', symbol: 'ONCE', close: 5 },
      { date: '2015-01-02', symbol: 'OLD', close: 5 },
      { date: '2015-01-05', symbol: 'OLD', close: 6 },
    ]);
    const res = await run(
      { symbols: ['NOPE', 'MF_DEBT', 'OLD', 'ONCE', 'FROZEN'], benchmark: 'BENCH_IN', start_date: '2019-01-01', end_date: '2019-06-30', risk_free_rate: 0 },
      'display',
    );
    expect(res.success).toBe(true);
    const by = Object.fromEntries(res.symbols.map((s) => [s.symbol, s]));
    expect(by.MF_DEBT).toMatchObject({ success: true, error: null, trading_days: 121 });
    expect(by.NOPE).toMatchObject({ success: false, trading_days: 0, all_metrics: {} });
    expect(by.NOPE.error).toMatch(/Unknown symbol 'NOPE'/);
    expect(by.OLD).toMatchObject({ success: false, trading_days: 0 });
    expect(by.OLD.error).toMatch(/No prices for 'OLD' between 2019-01-01 and 2019-06-30/);
    expect(by.ONCE).toMatchObject({ success: false, trading_days: 1 });
    expect(by.ONCE.error).toMatch(/Only one price/);
    expect(by.FROZEN).toMatchObject({ success: false, trading_days: 5 });
    expect(by.FROZEN.error).toMatch(/all x values are identical/);
  });

  it('a benchmark that is not held locally is a 404 listing the available benchmarks', async () => {
    await loadUserPrices(engine, path.join(REFERENCE_DIR, 'dev-04.csv'));
    const err = await run({ symbols: ['MF_DEBT'], benchmark: 'SPY', start_date: '2019-01-01', end_date: '2019-06-30', risk_free_rate: 0 }, 'display').catch((e) => e);
    expect(err).toBeInstanceOf(CompareError);
    expect(err.status).toBe(404);
    expect(err.body()).toMatchObject({ success: false, error: 'benchmark_not_found', available_benchmarks: ['BENCH_IN', 'MF_DEBT'] });
    expect(err.message).toMatch(/'SPY' is not held locally/);
  });
});

describe('compare parameters', () => {
  const base = { start_date: '2020-01-01', end_date: '2020-12-31' };
  it('defaults: benchmark SPY, risk-free rate 0, display precision', () => {
    expect(parseCompareParams({ ...base, symbols: ' A, B ' })).toEqual({
      symbols: ['A', 'B'], ...base, benchmark: 'SPY', risk_free_rate: 0, precision: 'display',
    });
  });
  it('more than 6 symbols is a 400 telling to batch', () => {
    const err = (() => { try { parseCompareParams({ ...base, symbols: 'A,B,C,D,E,F,G' }); } catch (e) { return e; } })() as CompareError;
    expect(err).toBeInstanceOf(CompareError);
    expect(err.status).toBe(400);
    expect(err.message).toBe('At most 6 symbols per request; got 7.');
    expect(err.hint).toMatch(/batches of 6/);
  });
  it.each([
    [{ ...base, symbols: '' }, /symbols is required/],
    [{ ...base, symbols: 'A', start_date: '2020-02-30' }, /start_date must be a date/],
    [{ ...base, symbols: 'A', start_date: '2021-01-01' }, /start_date is after end_date/],
    [{ ...base, symbols: 'A', risk_free_rate: '4.5%' }, /risk_free_rate must be a decimal/],
    [{ ...base, symbols: "A';--" }, /characters/],
    [{ ...base, symbols: 'A', precision: 'exact' }, /precision/],
  ])('rejects %o', (raw, msg) => {
    expect(() => parseCompareParams(raw)).toThrow(msg);
  });
});
