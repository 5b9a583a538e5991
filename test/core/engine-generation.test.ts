import { describe, it, expect, afterAll } from 'vitest';
import { NodeEngine } from '../../src/core/engine/node.js';
import { newGeneration, perGeneration } from '../../src/core/engine/generation.js';

/** A count read through the cache, with how many times it was really read. */
function counter(engine: NodeEngine) {
  let reads = 0;
  const read = () =>
    perGeneration(engine, 'test:count', async () => {
      reads++;
      const [{ n }] = await engine.all<{ n: number }>('SELECT count(*) AS n FROM t');
      return n;
    });
  return { read, reads: () => reads };
}

describe('answers cached per data generation (real DuckDB-WASM)', async () => {
  const engine = await NodeEngine.open();
  await engine.exec('CREATE TABLE t AS SELECT * FROM range(3)');
  afterAll(() => engine.close());

  // First, while no generation was ever started for this engine (one engine per file).
  it('an engine no store registered is never cached: every call reads the data', async () => {
    await engine.exec('CREATE TABLE u AS SELECT * FROM range(2)');
    let reads = 0;
    const read = () =>
      perGeneration(engine, 'test:u', async () => {
        reads++;
        return (await engine.all<{ n: number }>('SELECT count(*) AS n FROM u'))[0].n;
      });
    expect(await read()).toBe(2);
    await engine.exec('INSERT INTO u VALUES (9)');
    expect(await read()).toBe(3);
    expect(reads).toBe(2);
  });

  it('reads once per generation, and a new generation reads the new data', async () => {
    newGeneration(engine);
    const c = counter(engine);
    expect(await c.read()).toBe(3);
    expect(await c.read()).toBe(3);
    expect(c.reads()).toBe(1);
    await engine.exec('INSERT INTO t VALUES (7)');
    newGeneration(engine);
    expect(await c.read()).toBe(4);
    expect(c.reads()).toBe(2);
  });

  it('an answer still being computed when the generation changes never lands in the new one', async () => {
    newGeneration(engine);
    const c = counter(engine);
    const inFlight = c.read();
    await engine.exec('INSERT INTO t VALUES (8)');
    newGeneration(engine);
    const fresh = await c.read();
    await inFlight;
    expect(fresh).toBe((await engine.all<{ n: number }>('SELECT count(*) AS n FROM t'))[0].n);
    expect(await c.read()).toBe(fresh);
  });

  it('a failure is not kept: the next call computes again', async () => {
    newGeneration(engine);
    let calls = 0;
    const fail = () =>
      perGeneration(engine, 'test:fail', async () => {
        calls++;
        return (await engine.all<{ n: number }>('SELECT count(*) AS n FROM no_such_table'))[0].n;
      });
    await expect(fail()).rejects.toThrow(/no_such_table/);
    await expect(fail()).rejects.toThrow(/no_such_table/);
    expect(calls).toBe(2);
  });
});
