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

  it.each([
    ['symbol,date,close,x\n', 1, /header must be exactly date,symbol,close/],
    ['date,symbol,close\n2021-02-30,EQ,1\n', 2, /date '2021-02-30' is not a date/],
    ['date,symbol,close\n2021-01-04,EQ,1\n2021-01-05,EQ,abc\n', 3, /close 'abc' is not a number/],
    ['date,symbol,close\n2021-01-04,EQ,0\n', 2, /must be positive/],
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
