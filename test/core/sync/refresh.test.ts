import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_LIMITS, generate, tempDir } from './fixture.js';
import { startPublisher, type Publisher } from '../../../src/publisher/server.js';
import { sync, type SyncOptions } from '../../../src/core/sync/sync.js';
import { readState } from '../../../src/core/sync/state.js';
import { nodeHost, openStore } from '../../../src/core/store/node.js';
import type { TinyOptions } from '../../helpers/tiny-data.js';

/**
 * The MF history refreshed by what changed (docs/sync.md): after each publish, the refreshed store's
 * mf.nav must equal, row for row, a fresh sync's of the same publish.
 */
describe('MF history refresh', { timeout: 900_000 }, () => {
  const root = tempDir('refresh');
  const pubDir = path.join(root, 'pub');
  const storeDir = path.join(root, 'store');
  let publisher: Publisher;
  let fresh = 0;
  const host = nodeHost(storeDir);
  const run = (dir: string, extra: Partial<SyncOptions> = {}) => {
    const h = dir === storeDir ? host : nodeHost(dir);
    return sync({ storage: h.storage, host: h, source: publisher.url, only: ['mf'], retry: { baseMs: 20 }, rules: NO_LIMITS, ...extra });
  };
  const publish = async (opts: TinyOptions) => {
    fs.rmSync(pubDir, { recursive: true, force: true });
    await generate(pubDir, ['mf'], opts.generation);
  };

  /** Rows of mf.nav in `a` and not in `b`, both ways, through native DuckDB reading the store files. */
  async function difference(a: string, b: string): Promise<number> {
    const native = await DuckDBInstance.create(':memory:');
    const conn = await native.connect();
    try {
      for (const [dir, alias] of [[a, 'a'], [b, 'b']] as const) {
        const d = (await readState(nodeHost(dir).storage)).datasets.mf!;
        if (d.history?.base) await conn.run(`ATTACH '${path.join(dir, d.history.base)}' AS mf_base (READ_ONLY)`);
        await conn.run(`ATTACH '${path.join(dir, d.database)}' AS ${alias} (READ_ONLY)`);
        // The view of a reads mf_base: materialised before b's base could take the name.
        await conn.run(`CREATE TEMP TABLE nav_${alias} AS SELECT * FROM ${alias}.nav`);
        if (d.history?.base) await conn.run('DETACH mf_base');
      }
      const rows = await conn.runAndReadAll(
        'SELECT (SELECT count(*) FROM (SELECT * FROM nav_a EXCEPT ALL SELECT * FROM nav_b)) + (SELECT count(*) FROM (SELECT * FROM nav_b EXCEPT ALL SELECT * FROM nav_a)) AS n',
      );
      return Number(rows.getRowObjects()[0].n);
    } finally {
      conn.closeSync();
    }
  }

  /** A fresh store synced whole from the publish now served. */
  async function freshStore(): Promise<string> {
    const dir = path.join(root, `fresh-${++fresh}`);
    const s = await run(dir);
    expect(s.errors).toEqual([]);
    return dir;
  }

  beforeAll(async () => {
    await publish({ generation: 1 });
    publisher = await startPublisher({ dataDir: pubDir, limits: 'off' });
  });
  afterAll(async () => {
    await publisher?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('the first sync takes the history whole and says why', async () => {
    const s = await run(storeDir);
    expect(s.errors).toEqual([]);
    const nav = s.files.find((f) => f.name === 'mf_nav_master.parquet')!;
    expect(nav).toMatchObject({ status: 'downloaded', refresh: 'full', reason: 'no earlier full download to refresh from' });
    const h = (await readState(host.storage)).datasets.mf!.history!;
    expect(h).toMatchObject({ base: null, deltas: [], refresh: 'full' });
  });

  it('a week on: more days missing than the snapshot holds; filled or fetched whole, and equal to a fresh sync', async () => {
    await publish({ generation: 2 });
    const s = await run(storeDir);
    expect(s.errors).toEqual([]);
    const nav = s.files.find((f) => f.name === 'mf_nav_master.parquet')!;
    expect(['patched', 'downloaded']).toContain(nav.status);
    console.log(nav);
    if (nav.status === 'downloaded') expect(nav.reason).toMatch(/rows missing beyond the snapshot/);
    expect(await difference(storeDir, await freshStore())).toBe(0);
  });
});
