import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NodeEngine } from '../../../src/core/engine/node.js';
import { NodeWorkerEngine } from '../../../src/core/engine/node-worker.js';

/**
 * DuckDB-WASM 1.32.0 (DuckDB 1.4.3) file behaviour in Node that the store's design rests on
 * (docs/storage.md). Each test pins the behaviour as observed; if a version bump changes one, the
 * test fails and the recipe can be revisited.
 */
describe('DuckDB-WASM database files in Node: the hazards the store works around', { timeout: 600_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-hazards-'));
  const p = (n: string) => path.join(dir, n);

  async function create(name: string, rows: number) {
    const e = await NodeEngine.open({ path: p(name), create: true });
    await e.exec(`CREATE TABLE t AS SELECT range AS i FROM range(${rows}); CHECKPOINT;`);
    await e.close();
  }
  async function countVia(name: string): Promise<number | string> {
    const e = await NodeEngine.open();
    try {
      await e.exec(`ATTACH '${p(name)}' AS x`);
      const [{ n }] = await e.all<{ n: number }>('SELECT count(*) AS n FROM x.t');
      return n;
    } catch (err) {
      return (err as Error).message.split('\n')[0];
    } finally {
      await e.close();
    }
  }

  it('a file created as main database with direct I/O reopens with its data (the recipe)', async () => {
    await create('good.duckdb', 1000);
    expect(await countVia('good.duckdb')).toBe(1000);
  });

  it('a file created by ATTACH in an engine without direct I/O reopens empty', async () => {
    const e = await NodeEngine.open();
    await e.exec(`ATTACH '${p('plain.duckdb')}' AS x; CREATE TABLE x.t AS SELECT range AS i FROM range(1000); CHECKPOINT x;`);
    await e.close();
    expect(await countVia('plain.duckdb')).toMatch(/Table with name t does not exist/);
  });

  it('a NEW file created by ATTACH in an engine with direct I/O reopens with its data, in the row groups asked for', async () => {
    const e = await NodeEngine.open({ path: p('builder.duckdb'), create: true });
    await e.exec(`ATTACH '${p('side.duckdb')}' AS x (ROW_GROUP_SIZE 16384); CREATE TABLE x.t AS SELECT range AS i FROM range(100000); CHECKPOINT x; DETACH x;`);
    await e.close();
    expect(await countVia('side.duckdb')).toBe(100_000);
    const r = await NodeEngine.open();
    try {
      await r.exec(`ATTACH '${p('side.duckdb')}' AS x`);
      const [{ groups }] = await r.all<{ groups: number }>("SELECT count(DISTINCT row_group_id) AS groups FROM pragma_storage_info('x.t')");
      expect(groups).toBe(Math.ceil(100_000 / 16384));
    } finally {
      await r.close();
    }
  });

  it('direct I/O on an EXISTING file wipes its tables', async () => {
    await create('wiped.duckdb', 1000);
    const e = await NodeEngine.open({ path: p('wiped.duckdb'), create: true });
    await expect(e.all('SELECT count(*) FROM t')).rejects.toThrow(/Table with name t does not exist/);
    await e.close();
  });

  it('direct I/O reaches ATTACHed files too: an existing file attached in an engine created with it shows empty and is wiped', async () => {
    await create('attached.duckdb', 1000);
    const e = await NodeEngine.open({ path: p('builder.duckdb'), create: true });
    await e.exec(`ATTACH '${p('attached.duckdb')}' AS prev`);
    expect(await e.all("SELECT table_name FROM duckdb_tables() WHERE database_name = 'prev'")).toEqual([]);
    await e.close();
    expect(await countVia('attached.duckdb')).toMatch(/Table with name t does not exist/);
  });

  it('writes to an existing file through a plain ATTACH are lost, even after CHECKPOINT (files are write-once)', async () => {
    await create('once.duckdb', 1000);
    const e = await NodeEngine.open();
    await e.exec(`ATTACH '${p('once.duckdb')}' AS x; INSERT INTO x.t SELECT range FROM range(5); CHECKPOINT x;`);
    expect(await e.all('SELECT count(*) AS n FROM x.t')).toEqual([{ n: 1005 }]);
    await e.close();
    expect(await countVia('once.duckdb')).toBe(1000);
  });

  it('ATTACH ... (READ_ONLY) fails; a plain ATTACH reads', async () => {
    const e = await NodeEngine.open();
    try {
      await expect(e.exec(`ATTACH '${p('good.duckdb')}' AS ro (READ_ONLY)`)).rejects.toThrow();
    } finally {
      await e.close();
    }
  });

  it('after DETACH the file stays locked in that engine until dropFile; then it attaches again', async () => {
    const e = await NodeEngine.open();
    try {
      await e.exec(`ATTACH '${p('good.duckdb')}' AS x; DETACH x;`);
      await expect(e.exec(`ATTACH '${p('good.duckdb')}' AS x`)).rejects.toThrow(/locked/);
      e.db.dropFile(p('good.duckdb'));
      e.db.dropFile(`${p('good.duckdb')}.wal`);
      await e.exec(`ATTACH '${p('good.duckdb')}' AS x`);
      expect(await e.all('SELECT count(*) AS n FROM x.t')).toEqual([{ n: 1000 }]);
    } finally {
      await e.close();
    }
  });

  it('two engines with open files in one process: closing one breaks the other (one file table per process)', async () => {
    // Two new instances, numbering their files alike: an engine held open takes the closed instance
    // NodeEngine keeps for the next open (whose numbering has moved on).
    const holder = await NodeEngine.open();
    const reader = await NodeEngine.open();
    await reader.exec(`ATTACH '${p('good.duckdb')}' AS x`);
    expect(await reader.all('SELECT count(*) AS n FROM x.t')).toEqual([{ n: 1000 }]);
    const writer = await NodeEngine.open({ path: p('other.duckdb'), create: true });
    await writer.exec('CREATE TABLE u AS SELECT range AS i FROM range(200000); CHECKPOINT;');
    await writer.close();
    let broken = false;
    try {
      await reader.all('SELECT count(*) AS n, sum(i) AS s FROM x.t');
    } catch {
      broken = true;
    }
    await reader.close().catch(() => {});
    await holder.close();
    expect(broken).toBe(true);
  });

  it('an engine in a worker thread has its own file table: it writes a new file while another engine reads (the recipe)', async () => {
    const reader = await NodeEngine.open();
    try {
      await reader.exec(`ATTACH '${p('good.duckdb')}' AS x`);
      const writer = await NodeWorkerEngine.open({ path: p('threaded.duckdb'), create: true });
      await writer.exec('CREATE TABLE t AS SELECT range AS i FROM range(200000); CHECKPOINT;');
      expect(await writer.all('SELECT count(*) AS n FROM t')).toEqual([{ n: 200000 }]);
      await writer.close();
      expect(await reader.all('SELECT count(*) AS n, sum(i) AS s FROM x.t')).toEqual([{ n: 1000, s: 499500 }]);
      await reader.exec(`ATTACH '${p('threaded.duckdb')}' AS y`);
      expect(await reader.all('SELECT count(*) AS n FROM y.t')).toEqual([{ n: 200000 }]);
    } finally {
      await reader.close();
    }
    expect(await countVia('threaded.duckdb')).toBe(200000);
  });
});
