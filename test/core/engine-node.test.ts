import { describe, it, expect, afterAll } from 'vitest';
import { NodeEngine } from '../../src/core/engine/node.js';
import { NodeWorkerEngine } from '../../src/core/engine/node-worker.js';
import { changesCatalog, type KeptStatements } from '../../src/core/engine/kept-statements.js';

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

  // DuckDB rebinds a statement kept across a catalog change at every later run (kept-statements.ts:
  // compare 2.2x slower for good after one temp table); the engines prepare anew once instead.
  it('prepares its kept statements anew after a catalog change, not after data changes', async () => {
    const engine = await open();
    const kept = () => (engine as unknown as { statements: KeptStatements<never> }).statements.count;
    await engine.exec('CREATE TEMP TABLE t (x INTEGER)');
    await engine.all('SELECT count(*) AS n FROM t WHERE x = ?', [1]);
    await engine.all('SELECT ? + 1 AS n', [1]);
    expect(kept()).toBe(2);
    await engine.exec('INSERT INTO t VALUES (1); DELETE FROM t WHERE x = 2');
    await engine.all('INSERT INTO t VALUES (?)', [3]);
    expect(kept()).toBe(3);
    // A temp table made by a statement with parameters (as the changes diff does), then the SQL
    // workbench's path (no parameters): each empties what is kept.
    await engine.all('CREATE TEMP TABLE u AS SELECT ?::INTEGER AS x', [5]);
    expect(kept()).toBe(0);
    await engine.all('SELECT count(*) AS n FROM t WHERE x = ?', [1]);
    expect(kept()).toBe(1);
    await engine.arrow('-- a comment first\nDROP TABLE u');
    expect(kept()).toBe(0);
    expect(await engine.all('SELECT count(*)::INTEGER AS n FROM t WHERE x >= ?', [1])).toEqual([{ n: 2 }]);
    await engine.close();
  });
});

describe('changesCatalog', () => {
  it('sees DDL, ATTACH and DETACH at the start of any statement, past comments', () => {
    for (const sql of ['CREATE TABLE t (x INT)', "  attach ':memory:' AS m", 'SELECT 1; DROP TABLE t', '-- why\n  ALTER TABLE t ADD y INT', '/* a */ DETACH m', 'CREATE OR REPLACE TEMP VIEW v AS SELECT 1']) {
      expect(changesCatalog(sql), sql).toBe(true);
    }
  });

  it('does not see them inside a query: column names, strings, comments after the start', () => {
    for (const sql of ['SELECT created_at, dropped FROM t', "SELECT 'CREATE TABLE x' AS s", 'INSERT INTO t SELECT 1 -- then DROP it', 'WITH d AS (SELECT 1) SELECT * FROM d', 'DELETE FROM t']) {
      expect(changesCatalog(sql), sql).toBe(false);
    }
  });
});
