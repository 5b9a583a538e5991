import { describe, it, expect, afterAll } from 'vitest';
import { NodeEngine } from '../../../src/core/engine/node.js';
import { PriceImportError, parsePricesCsv, storePrices } from '../../../src/core/services/compare/import.js';

describe('price import (date,symbol,close)', () => {
  it('parses the reference format and stores it in user.prices, replacing a re-imported day', async () => {
    const rows = parsePricesCsv('date,symbol,close\n2021-01-04,EQ,18.9441\r\n2021-01-05,EQ,19\n\n');
    expect(rows).toEqual([
      { date: '2021-01-04', symbol: 'EQ', close: 18.9441 },
      { date: '2021-01-05', symbol: 'EQ', close: 19 },
    ]);
    const engine = await NodeEngine.open();
    try {
      await engine.exec(`ATTACH ':memory:' AS "user"`);
      expect(await storePrices(engine, rows)).toBe(2);
      await storePrices(engine, [{ date: '2021-01-05', symbol: 'EQ', close: 20 }]);
      expect(await engine.all('SELECT date, symbol, close FROM "user".prices ORDER BY date')).toEqual([
        { date: '2021-01-04', symbol: 'EQ', close: 18.9441 },
        { date: '2021-01-05', symbol: 'EQ', close: 20 },
      ]);
    } finally {
      await engine.close();
    }
  });

  it('keeps zero and negative closes: they are market prices (WTI closed at -36.98 on 2020-04-20)', () => {
    expect(parsePricesCsv('date,symbol,close\n2020-04-17,WTI,18.31\n2020-04-20,WTI,-36.98\n2020-04-21,WTI,0\n2020-04-22,WTI,-0.5e1\n')).toEqual([
      { date: '2020-04-17', symbol: 'WTI', close: 18.31 },
      { date: '2020-04-20', symbol: 'WTI', close: -36.98 },
      { date: '2020-04-21', symbol: 'WTI', close: 0 },
      { date: '2020-04-22', symbol: 'WTI', close: -5 },
    ]);
  });

  it.each([
    ['symbol,date,close,x\n', 1, /header must be exactly date,symbol,close/],
    ['date,symbol,close\n2021-02-30,EQ,1\n', 2, /date '2021-02-30' is not a date/],
    ['date,symbol,close\n2021-01-04,EQ,1\n2021-01-05,EQ,abc\n', 3, /close 'abc' is not a number/],
    ['date,symbol,close\n2021-01-04,EQ,NaN\n', 2, /close 'NaN' is not a number/],
    ['date,symbol,close\n2021-01-04,EQ,-Infinity\n', 2, /close '-Infinity' is not a number/],
    ['date,symbol,close\n2021-01-04,EQ,1e999\n', 2, /close '1e999' is not a number/],
    ['date,symbol,close\n2021-01-04,EQ,1\n2021-01-05,EQ,2\n2021-01-04,EQ,3\n', 4, /duplicate of line 2/],
    ['date,symbol,close\n2021-01-04,E;Q,1\n', 2, /symbol 'E;Q'/],
    ['date,symbol,close\n2021-01-04,EQ\n', 2, /expected 3 fields/],
    ['date,symbol,close\n', 2, /no price rows/],
  ])('names the bad line: %j', (text, line, msg) => {
    let err: unknown;
    try {
      parsePricesCsv(text);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PriceImportError);
    expect((err as PriceImportError).line).toBe(line);
    expect((err as Error).message).toMatch(msg);
    expect((err as Error).message).toMatch(new RegExp(`^line ${line}: `));
  });
});
