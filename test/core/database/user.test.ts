import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NodeEngine } from '../../../src/core/engine/node.js';
import { FsStorage } from '../../../src/core/storage/fs.js';
import { NodeHost, openStore } from '../../../src/core/database/node.js';
import { UserData } from '../../../src/core/database/user.js';
import { importAmfiText } from '../../../src/core/amfi/import.js';
import { bench } from '../sync/fixture.js';

const amfi = readFileSync('../shared/data/real-amfi/2025-06-28.csv', 'utf8');

async function open(dir: string) {
  const storage = new FsStorage(dir);
  const engine = await NodeEngine.open();
  return { engine, user: await UserData.open(engine, storage, new NodeHost(storage)) };
}

describe('user database (working copy persisted by generation)', () => {
  it('persists a change across a reopen, keeping exact types, and removes the old generation', { timeout: 240_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'almanac-user-'));
    let s = await open(dir);
    await s.user.mutate(async (e) => {
      await e.exec('CREATE TABLE user.prices (date DATE, symbol VARCHAR, close DECIMAL(18,4))');
      await e.exec("INSERT INTO user.prices VALUES ('2024-01-02', 'X', 10.12), ('2024-01-03', 'X', 10.2)");
    });
    await s.user.mutate((e) => importAmfiText(e, amfi, '2025-06-28.csv'));
    await s.engine.close();

    s = await open(dir);
    expect(await s.user.tables()).toEqual(['amfi_nav', 'amfi_quality', 'prices']);
    expect(await s.engine.all('SELECT date, close FROM user.prices ORDER BY date')).toEqual([
      { date: '2024-01-02', close: 10.12 },
      { date: '2024-01-03', close: 10.2 },
    ]);
    expect(await s.engine.all("SELECT typeof(close) AS t FROM user.prices LIMIT 1")).toEqual([{ t: 'DECIMAL(18,4)' }]);
    expect(await s.engine.all('SELECT count(*) AS n FROM user.amfi_nav')).toEqual([{ n: 618 }]);
    await s.engine.close();
    expect(readdirSync(dir).filter((f) => f.startsWith('user-') && f.endsWith('.duckdb'))).toEqual(['user-2.duckdb']);
  });

  it('rolls the working copy back when a change fails', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'almanac-user-'));
    const s = await open(dir);
    await s.user.mutate((e) => e.exec('CREATE TABLE user.t AS SELECT 1 AS i'));
    await expect(
      s.user.mutate(async (e) => {
        await e.exec('INSERT INTO user.t VALUES (2)');
        throw new Error('import failed half way');
      }),
    ).rejects.toThrow('half way');
    expect(await s.engine.all('SELECT i FROM user.t')).toEqual([{ i: 1 }]);
    await s.engine.close();
  });
});

describe('user data saved while synced datasets are attached (one DuckDB-WASM file table per thread)', () => {
  it('imports an AMFI file into a store with mf and flags attached; every synced table and the import read, before and after a reopen', { timeout: 600_000 }, async () => {
    const b = await bench(['mf', 'flags']);
    try {
      expect((await b.run()).errors).toEqual([]);
      const state = JSON.parse(readFileSync(path.join(b.storeDir, 'state.json'), 'utf8'));
      let store = await openStore(b.storeDir);
      // Every synced table, read to the end (in the store under test, first after the saves: from the file).
      const synced = async () => {
        const out: Record<string, Record<string, number>> = { mf: {}, flags: {} };
        for (const svc of ['mf', 'flags'] as const) {
          for (const t of Object.keys(state.datasets[svc].tables)) {
            const [{ n }] = await store.engine.all<{ n: number }>(`SELECT count(*) AS n FROM (SELECT DISTINCT * FROM ${svc}."${t}")`);
            out[svc][t] = n;
          }
        }
        return out;
      };
      const expected = await synced();
      await store.close();
      expect(expected.mf.nav).toBe((await b.counts('mf')).nav);
      store = await openStore(b.storeDir);
      // Two saves: each builds a new user generation while mf and flags stay attached.
      await store.user!.mutate((e) => importAmfiText(e, amfi, '2025-06-28.csv'));
      await store.user!.mutate((e) => e.exec("CREATE TABLE user.prices AS SELECT DATE '2024-01-02' AS date, 'X' AS symbol, 10.5 AS close"));
      expect(await synced()).toEqual(expected);
      expect(await store.engine.all('SELECT count(*) AS n FROM user.amfi_nav')).toEqual([{ n: 618 }]);
      await store.close();

      store = await openStore(b.storeDir);
      expect(await store.engine.all('SELECT count(*) AS n FROM user.amfi_nav')).toEqual([{ n: 618 }]);
      expect(await store.engine.all('SELECT symbol, close FROM user.prices')).toEqual([{ symbol: 'X', close: 10.5 }]);
      expect(await synced()).toEqual(expected);
      await store.close();
      expect(readdirSync(b.storeDir).filter((f) => f.startsWith('user-') && f.endsWith('.duckdb'))).toEqual(['user-2.duckdb']);
    } finally {
      await b.close();
    }
  });
});
