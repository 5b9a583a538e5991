import fs from 'node:fs';
import path from 'node:path';
import { tableFromArrays, tableToIPC } from 'apache-arrow';
import * as parquet from 'parquet-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/core/engine/engine.js';
import { nodeHost } from '../../../src/core/database/node.js';
import { SERVICE_DEFS } from '../../../src/core/sync/datasets.js';
import { ingestSource, projection } from '../../../src/core/sync/ingest.js';
import { rowGroupsInWorker } from '../../../src/core/sync/node-row-groups.js';
import { rowGroupsHere } from '../../../src/core/sync/row-groups.js';
import { contractOf } from '../../../src/core/sync/datasets.js';
import { tempDir } from './fixture.js';

/**
 * NAV rows in many small row groups, so a load crosses several of the ingest's commits. `reorder`: the
 * columns in another order than the contract's, with a column the contract does not know.
 */
function navParquet(rows: number, perGroup: number, badRow?: number, reorder = false): Buffer {
  const code = Array.from({ length: rows }, (_, i) => (i === badRow ? 'not-a-code' : String(100000 + (i % 97))));
  const date = Array.from({ length: rows }, (_, i) => new Date(Date.UTC(2020, 0, 1 + Math.floor(i / 97))).toISOString().slice(0, 10));
  const nav = Array.from({ length: rows }, (_, i) => (10 + (i % 1000) / 10000).toFixed(4));
  const scheme_name = code.map((c) => `Fund ${c}`);
  const isin = code.map(() => null);
  const t = reorder
    ? tableFromArrays({ plan: code.map((_, i) => (i % 2 ? 'Direct' : 'Regular')), nav, date, isin, scheme_name, scheme_code: code })
    : tableFromArrays({ scheme_code: code, date, nav, scheme_name, isin });
  const props = new parquet.WriterPropertiesBuilder().setMaxRowGroupSize(perGroup).build();
  return Buffer.from(parquet.writeParquet(parquet.Table.fromIPCStream(tableToIPC(t, 'stream')), props));
}

describe('parquet ingest across commits', { timeout: 300_000 }, () => {
  const dir = tempDir('ingest');
  const host = nodeHost(dir);
  let engine: Engine;
  const ctx = () => ({ engine, host, storage: host.storage, def: SERVICE_DEFS.mf, scratchPrefix: 'tmp~mf~' });
  const source = (store: string, rows: number | null) => ({ file: store, suffix: 'parquet', store, tables: ['nav'], rows });

  beforeAll(async () => {
    engine = await host.createDatabase('mf-g1.duckdb');
  });
  afterAll(async () => {
    await host.release(engine);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('loads every row of a file with more row groups than one commit holds, cast to the contract', async () => {
    const file = navParquet(4000, 100);
    fs.writeFileSync(path.join(dir, 'good.parquet'), file);
    const [load] = await ingestSource(ctx(), source('good.parquet', 4000));
    expect(load.rows).toBe(4000);
    expect(load.columns.map((c) => `${c.name} ${c.type}`)).toEqual([
      'scheme_code INTEGER', 'date DATE', 'nav DECIMAL(18,4)', 'scheme_name VARCHAR', 'isin VARCHAR',
    ]);
    const [sum] = await engine.all<{ n: number; s: string; d: string }>(
      'SELECT count(DISTINCT scheme_code) AS n, sum(nav)::VARCHAR AS s, max(date)::VARCHAR AS d FROM nav',
    );
    expect(sum).toEqual({ n: 97, s: (4000 * 10 + Array.from({ length: 4000 }, (_, i) => (i % 1000) / 10000).reduce((a, b) => a + b, 0)).toFixed(4), d: '2020-02-11' });
  });

  it('reports the rows loaded after each row group, and a stop there (a cancel) leaves no partial table', async () => {
    fs.writeFileSync(path.join(dir, 'steps.parquet'), navParquet(1000, 100));
    const seen: number[] = [];
    const [load] = await ingestSource({ ...ctx(), onBatch: async (p) => void seen.push(p.rows) }, source('steps.parquet', 1000));
    expect(load.rows).toBe(1000);
    expect(seen).toEqual([100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);

    const stop = async (p: { rows: number }) => {
      if (p.rows >= 300) throw new Error('cancelled at 300 rows');
    };
    await expect(ingestSource({ ...ctx(), onBatch: stop }, source('steps.parquet', 1000))).rejects.toThrow('cancelled at 300 rows');
    expect(await engine.all("SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()")).toEqual([]);
  });

  it('a value failing its cast in a late row group drops the whole table, rows already committed included', async () => {
    fs.writeFileSync(path.join(dir, 'bad.parquet'), navParquet(4000, 100, 3900));
    // that row group goes straight into the table; its error still reads as DuckDB's message, not JSON
    await expect(ingestSource(ctx(), source('bad.parquet', 4000))).rejects.toThrow(/^Conversion Error: .*'not-a-code'.*column scheme_code/);
    const left = await engine.all("SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()");
    expect(left).toEqual([]);
  });

  it('a row count other than the manifest announces is refused and leaves no table', async () => {
    await expect(ingestSource(ctx(), source('good.parquet', 3999))).rejects.toThrow('good.parquet: 4000 rows loaded, the manifest announces 3999');
    expect(await engine.all("SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()")).toEqual([]);
  });

  it('a file with its columns in another order is moved across by name in every row group, not by position', async () => {
    fs.writeFileSync(path.join(dir, 'moved.parquet'), navParquet(4000, 100, undefined, true));
    const [load] = await ingestSource(ctx(), source('moved.parquet', 4000));
    expect(load.columns.map((c) => `${c.name} ${c.type}`)).toEqual([
      'scheme_code INTEGER', 'date DATE', 'nav DECIMAL(18,4)', 'scheme_name VARCHAR', 'isin VARCHAR', 'plan VARCHAR',
    ]);
    const moved = 'SELECT scheme_code, date, nav, scheme_name, isin FROM nav ORDER BY ALL';
    const rows = await engine.all(moved);
    fs.writeFileSync(path.join(dir, 'same.parquet'), navParquet(4000, 100));
    await ingestSource(ctx(), source('same.parquet', 4000));
    expect(rows).toHaveLength(4000);
    expect(await engine.all(moved)).toEqual(rows);
  });

  it('a file cut short is refused with the parquet reader\'s message, from the Node decoder thread', async () => {
    const file = navParquet(4000, 100);
    fs.writeFileSync(path.join(dir, 'cut.parquet'), file.subarray(0, file.length >> 1));
    await expect(ingestSource(ctx(), source('cut.parquet', 4000))).rejects.toThrow('Parquet error: Invalid Parquet file. Corrupt footer');
  });

  it('the Node decoder thread gives every row group as the same Arrow IPC bytes as decoding in this thread', async () => {
    const file = path.join(dir, 'good.parquet');
    const [there, here] = [await rowGroupsInWorker(file), await rowGroupsHere(await fs.openAsBlob(file))];
    try {
      expect(there.rows).toEqual(Array(40).fill(100));
      expect(there.rows).toEqual(here.rows);
      for (let i = 0; i < there.rows.length; i++) expect(Buffer.from(await there.read(i)).equals(await here.read(i))).toBe(true);
    } finally {
      await Promise.all([there.close(), here.close()]);
    }
    await expect(there.read(0)).rejects.toThrow('parquet decoder stopped');
  });

  it('inserts later batches straight into the table only when the projection is the file order with plain casts', () => {
    const nav = { contract: contractOf(SERVICE_DEFS.mf, 'nav'), renames: SERVICE_DEFS.mf.renames.nav ?? {} };
    const col = (name: string, type: string) => ({ name, type });
    const spec = [col('scheme_code', 'INTEGER'), col('date', 'VARCHAR'), col('nav', 'DECIMAL(18,4)'), col('scheme_name', 'VARCHAR'), col('isin', 'VARCHAR')];
    expect(projection(spec, nav, 'f').positional).toBe(true);
    expect(projection([...spec, col('plan', 'VARCHAR')], nav, 'f').positional).toBe(true);
    expect(projection([spec[1], spec[0], ...spec.slice(2)], nav, 'f').positional).toBe(false);
    expect(projection(spec.slice(0, 4), nav, 'f').positional).toBe(false);
    // DOUBLE into DECIMAL is checked value by value in the SELECT, which a positional insert would skip
    expect(projection([spec[0], spec[1], col('nav', 'DOUBLE'), spec[3], spec[4]], nav, 'f').positional).toBe(false);
  });
});
