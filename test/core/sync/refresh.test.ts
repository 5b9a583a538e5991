import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_LIMITS, generate, tempDir } from './fixture.js';
import { startPublisher, type Publisher } from '../../../src/publisher/server.js';
import { sync, type SyncOptions } from '../../../src/core/sync/sync.js';
import { readState } from '../../../src/core/sync/metadata.js';
import { nodeHost, openStore } from '../../../src/core/database/node.js';
import type { TinyOptions } from '../../helpers/tiny-data.js';
import type { PublishOptions } from '../../../src/gen/options.js';
import type { FileResult } from '../../../src/core/sync/progress.js';

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
    await generate(pubDir, ['mf'], opts);
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

  /** The publishes after the first, in order; `step` publishes the next one (cached per prefix). */
  const publishes: PublishOptions[] = [];
  async function step(p: PublishOptions): Promise<void> {
    publishes.push(p);
    await publish({ publishes: [...publishes] });
  }
  const history = (s: { files: FileResult[] }) => s.files.find((f) => f.name === 'mf_nav_master.parquet')!;

  it('a Monday (weekend NAVs of liquid and overnight funds): the snapshot plus the NAV endpoint, equal to a fresh sync', async () => {
    await step({ step: 'day' });
    const wholeDownload = (await readState(host.storage)).datasets.mf!.sources['mf_nav_master.parquet'].store;
    expect(fs.existsSync(path.join(storeDir, wholeDownload))).toBe(true);
    const s = await run(storeDir);
    expect(s.errors).toEqual([]);
    const nav = history(s);
    expect(nav).toMatchObject({ status: 'patched', refresh: 'append' });
    expect(nav.detail).toMatch(/^appended 3 days \(\d+ rows\) from the latest snapshot and the NAV endpoint, \d+\.\d (KB|MB)$/);
    const endpoint = s.files.find((f) => f.name === 'nav endpoint')!;
    expect(endpoint.body_bytes).toBeGreaterThan(0);
    // The first sync's whole download is past its publish now (the base database holds its rows): gone.
    expect(fs.existsSync(path.join(storeDir, wholeDownload))).toBe(false);
    expect(await difference(storeDir, await freshStore())).toBe(0);
  });

  it('one day (Monday to Tuesday): appended from the snapshot, equal to a fresh sync', async () => {
    await step({ step: 'day' });
    const s = await run(storeDir);
    expect(s.errors).toEqual([]);
    const nav = history(s);
    expect(nav).toMatchObject({ status: 'patched', refresh: 'append' });
    expect(nav.detail).toMatch(/^appended 1 day \(\d+ rows\) from the latest snapshot, \d+\.\d (KB|MB)$/);
    const snapshot = s.files.find((f) => f.name === 'mf_nav_master_latest.parquet')!;
    expect(snapshot.status).toBe('downloaded');
    // What moved for the history: its footer, read by range; far below the file.
    const size = fs.statSync(path.join(pubDir, 'mf', 'mf_nav_master.parquet')).size;
    expect(nav.body_bytes).toBeGreaterThan(0);
    expect(nav.body_bytes).toBeLessThan(size / 20);
    const st = (await readState(host.storage)).datasets.mf!;
    expect(st.history!.base).not.toBeNull();
    // Monday's delta (snapshot and endpoint) and Tuesday's, over the base of the first sync.
    expect(st.history!.deltas).toHaveLength(2);
    // The local copy's size counts the base's database, which holds most of the rows, with this generation's.
    const sizeOf = (f: string) => fs.statSync(path.join(storeDir, f)).size;
    expect(st.bytes).toBe(sizeOf(st.database) + sizeOf(st.history!.base!));
    expect(s.history?.mf?.appended?.length).toBe(st.history!.deltas[1].rows);
    expect(await difference(storeDir, await freshStore())).toBe(0);
    // The app's own store attaches the base and answers mf.nav through the view.
    const store = await openStore(storeDir);
    try {
      const [{ n }] = await store.engine.all<{ n: number }>('SELECT count(*) AS n FROM mf.nav');
      expect(n).toBe(st.tables.nav.rows);
    } finally {
      await store.close();
    }
  });

  it('a rebuild with identical rows: only the footer read, nothing else fetched, equal to a fresh sync', async () => {
    await step({ step: 'none', rebuild: true });
    const s = await run(storeDir);
    expect(s.errors).toEqual([]);
    const nav = history(s);
    expect(nav).toMatchObject({ status: 'patched', refresh: 'ranges', detail: 'rebuilt with the same rows: only the footer read' });
    expect(await difference(storeDir, await freshStore())).toBe(0);
  });

  it('a past NAV corrected with no new day: the file changed under the same footer, so it comes whole, equal to a fresh sync', async () => {
    await step({ step: 'none', revise: 2 });
    const s = await run(storeDir);
    expect(s.errors).toEqual([]);
    const nav = history(s);
    expect(nav).toMatchObject({ status: 'downloaded', refresh: 'full' });
    expect(nav.reason).toMatch(/^past NAVs revised: /);
    expect((await readState(host.storage)).datasets.mf!.history).toMatchObject({ base: null, deltas: [] });
    expect(await difference(storeDir, await freshStore())).toBe(0);
  });

  it('a correction hidden by a new day: the counts add up, so only --full finds it; after it, equal to a fresh sync', async () => {
    await step({ step: 'day', revise: 1 });
    const s = await run(storeDir);
    expect(history(s)).toMatchObject({ status: 'patched', refresh: 'append' });
    const fresh = await freshStore();
    expect(await difference(storeDir, fresh)).toBeGreaterThan(0); // corrected rows: old values here, new there
    const full = await run(storeDir, { history: { full: true } });
    expect(full.errors).toEqual([]);
    expect(history(full)).toMatchObject({ status: 'downloaded', refresh: 'full', reason: 'full verification asked for' });
    expect(await difference(storeDir, fresh)).toBe(0);
  });

  it('a skipped day (Thursday published, not synced; then Friday): every scheme misses a day, filled from the endpoint, equal to a fresh sync', async () => {
    await step({ step: 'day' });
    await step({ step: 'day' });
    const s = await run(storeDir);
    expect(s.errors).toEqual([]);
    expect(history(s)).toMatchObject({ status: 'patched', refresh: 'append' });
    expect(history(s).detail).toMatch(/^appended 2 days .* and the NAV endpoint/);
    expect(await difference(storeDir, await freshStore())).toBe(0);
  });
});
