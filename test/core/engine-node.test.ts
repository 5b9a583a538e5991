import { describe, it, expect, afterAll } from 'vitest';
import { NodeEngine } from '../../src/core/engine/node.js';
import { NodeWorkerEngine } from '../../src/core/engine/node-worker.js';

describe('NodeEngine (DuckDB-WASM in Node)', async () => {
  const engine = await NodeEngine.open();
  afterAll(() => engine.close());

  it('returns DECIMAL scaled exactly, BIGINT as number and DATE as YYYY-MM-DD', async () => {
    const rows = await engine.all(
      "SELECT 10.12::DECIMAL(18,4) AS nav, -0.0001::DECIMAL(18,4) AS neg, 42::BIGINT AS n, DATE '2024-02-29' AS d",
    );
    expect(rows).toEqual([{ nav: 10.12, neg: -0.0001, n: 42, d: '2024-02-29' }]);
    expect(JSON.stringify(rows[0])).toBe('{"nav":10.12,"neg":-0.0001,"n":42,"d":"2024-02-29"}');
  });

  it('binds parameters rather than splicing them into SQL', async () => {
    const rows = await engine.all('SELECT ? AS s, ? + 1 AS i', ["x'; DROP TABLE t; --", 41]);
    expect(rows).toEqual([{ s: "x'; DROP TABLE t; --", i: 42 }]);
  });

  it('never autoloads an extension (offline)', async () => {
    await expect(engine.all("SELECT * FROM read_parquet('nope.parquet')")).rejects.toThrow(/extension/i);
  });
});

describe('NodeEngine instances share one compiled module', () => {
  it('opens several engines that work independently', async () => {
    const [a, b] = await Promise.all([NodeEngine.open(), NodeEngine.open()]);
    await a.exec('CREATE TABLE t AS SELECT 1 AS x');
    await expect(b.all('SELECT * FROM t')).rejects.toThrow(/does not exist/);
    expect(await a.all('SELECT x FROM t')).toEqual([{ x: 1 }]);
    await a.close();
    expect(await b.all('SELECT 2 AS y')).toEqual([{ y: 2 }]);
    await b.close();
  });
});

// Both Node hosts keep them (kept-statements.ts): the worker thread's engine serves `cli serve`.
describe.each([
  ['NodeEngine', () => NodeEngine.open()],
  ['NodeWorkerEngine', () => NodeWorkerEngine.open()],
])('%s keeps prepared statements', (_name, open) => {
  it('answers from the current catalog after the table behind a kept statement is replaced', async () => {
    const engine = await open();
    await engine.exec("ATTACH ':memory:' AS g1; CREATE TABLE g1.t AS SELECT 1 AS x;");
    await engine.exec("ATTACH ':memory:' AS mf; CREATE TABLE mf.t AS SELECT 10 AS x;");
    const sql = 'SELECT x + ? AS y FROM mf.t';
    expect(await engine.all(sql, [1])).toEqual([{ y: 11 }]);
    await engine.exec("DETACH mf; ATTACH ':memory:' AS mf; CREATE TABLE mf.t AS SELECT 20 AS x;");
    expect(await engine.all(sql, [1])).toEqual([{ y: 21 }]);
    await engine.exec('DETACH mf');
    await expect(engine.all(sql, [1])).rejects.toThrow();
    await engine.exec("ATTACH ':memory:' AS mf; CREATE TABLE mf.t AS SELECT 30 AS x;");
    expect(await engine.all(sql, [1])).toEqual([{ y: 31 }]);
    await engine.close();
  });
});
