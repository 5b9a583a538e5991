import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Drift } from '../../../src/gen/options.js';
import { startPublisher, type Publisher } from '../../../src/publisher/server.js';
import { openStore } from '../../../src/core/database/node.js';
import type { Store, DatasetStatus } from '../../../src/core/database/store.js';
import { schemeNav } from '../../../src/core/services/mf/nav.js';
import { catalog } from '../../../src/core/services/mf/catalog.js';
import { parseNavParams } from '../../../src/core/contract/mf-params.js';
import { SCHEMA_VERSION } from '../../../src/core/contract/mf.js';
import type { DriftNotice } from '../../../src/core/sync/drift.js';
import type { SyncSummary } from '../../../src/core/sync/progress.js';
import { generate, tempDir } from './fixture.js';
import { cli } from '../../helpers/cli.js';

/** What a user would look at: row counts, a checksum of the NAVs, one scheme's service answer. */
async function answers(store: Store) {
  const [nav1] = await store.engine.all<{ n: number; sum: number; last: string }>(
    'SELECT count(*) AS n, sum(nav)::DOUBLE AS sum, max(date) AS last FROM mf.nav',
  );
  const [latest] = await store.engine.all<{ n: number; asof: string }>('SELECT count(*) AS n, max(nav_date) AS asof FROM mf.latest');
  const [{ code }] = await store.engine.all<{ code: number }>('SELECT min(scheme_code) AS code FROM mf.latest WHERE is_active');
  const scheme = await schemeNav(store.engine, parseNavParams([['scheme', String(code)]]));
  return { nav: nav1, latest, scheme: { keys: Object.keys(scheme).sort(), row: Object.keys(scheme.data[0]).sort(), count: scheme.count } };
}

const columnsOf = async (store: Store, table: string) =>
  (await store.engine.all<{ n: string; t: string }>(`SELECT column_name AS n, column_type AS t FROM (DESCRIBE mf.${table})`)).map((c) => `${c.n} ${c.t}`);

/**
 * Each drift kind end to end, as a user meets it: the store holds generation 1 of tiny MF data and stays
 * open; generation 2 with the drift (from the tiny-data cache) replaces what the running publisher
 * serves; `cli sync` (another process, real HTTP on 127.0.0.1) brings it in. The open store answers
 * from generation 1 throughout; afterwards the change is accepted or refused as docs/sync.md says, and
 * `cli status --json` shows the notice.
 */
describe('schema drift end to end (tiny MF, publisher on 127.0.0.1, cli sync in its own process)', { timeout: 900_000 }, () => {
  let root: string;
  let tplStore: string;
  let pubDir: string;
  let publisher: Publisher;

  beforeAll(async () => {
    root = tempDir('drift');
    tplStore = path.join(root, 'tpl-store');
    pubDir = path.join(root, 'pub');
    await generate(pubDir, ['mf']);
    publisher = await startPublisher({ dataDir: pubDir, limits: 'off' });
    const first = await cli('sync', '--source', publisher.url, '--data', tplStore, '--only', 'mf', '--json');
    expect(first.stderr).toBe('');
    expect(JSON.parse(first.stdout).errors).toEqual([]);
  }, 600_000);

  afterAll(async () => {
    await publisher?.close();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  /**
   * Generation 1 in a store of its own, opened; the drift published as
   * generation 2 and synced by the CLI; the open store's answers before the sync, right after it (still
   * generation 1) and after it re-reads the state.
   */
  async function scenario(drift: Drift) {
    const storeDir = path.join(root, `store-${drift}`);
    fs.cpSync(tplStore, storeDir, { recursive: true });
    const store = await openStore(storeDir);
    try {
      const before = await answers(store);
      const columnsBefore = { nav: await columnsOf(store, 'nav'), latest: await columnsOf(store, 'latest') };
      await generate(pubDir, ['mf'], { publishes: [{ drift }] });
      const synced = await cli('sync', '--data', storeDir, '--only', 'mf', '--json');
      const summary = JSON.parse(synced.stdout) as SyncSummary;
      expect(summary.generations.mf).toBe(2);
      // The store opened before the sync still answers from generation 1, unchanged.
      expect(await answers(store)).toEqual(before);
      await store.refresh();
      const after = await answers(store);
      const columns = { nav: await columnsOf(store, 'nav'), latest: await columnsOf(store, 'latest') };
      const status = JSON.parse((await cli('status', '--data', storeDir, '--json')).stdout) as DatasetStatus[];
      const mf = status.find((d) => d.dataset === 'mf')!;
      return { store, before, after, columnsBefore, columns, summary, exit: synced.code, mf };
    } catch (e) {
      await store.close();
      throw e;
    }
  }

  const only = (mf: DatasetStatus, n: Partial<DriftNotice>[]) =>
    expect(mf.drift.map(({ table, change, column, from, to, status, announced, schema_version }) => ({ table, change, column, from, to, status, announced, schema_version }))).toEqual(
      n.map((x) => ({ from: undefined, to: undefined, ...x })),
    );

  it('rename: aaum_cr is read as aaum_cr_quarterly_avg (known rename), accepted and announced', async () => {
    const s = await scenario('rename');
    try {
      expect(s.exit).toBe(0);
      expect(s.summary.errors).toEqual([]);
      expect(s.columns.latest).toEqual(s.columnsBefore.latest);
      const [{ filled }] = await s.store.engine.all<{ filled: number }>('SELECT count(aaum_cr_quarterly_avg) AS filled FROM mf.latest');
      expect(filled).toBeGreaterThan(0);
      expect(s.after.latest.asof > s.before.latest.asof).toBe(true);
      only(s.mf, [{ table: 'latest', change: 'renamed', column: 'aaum_cr_quarterly_avg', from: 'aaum_cr', status: 'accepted', announced: true, schema_version: SCHEMA_VERSION + 1 }]);
      expect(s.mf.local_schema_version).toBe(SCHEMA_VERSION + 1);
      expect(s.mf.schema_notes.at(-1)).toMatch(/^Version 4: latest-snapshot files/);
      expect(s.mf.drift[0].detail).toMatch(/^mf_nav_master_latest\.parquet: column aaum_cr arrived under its old name/);
    } finally {
      await s.store.close();
    }
  });

  it('insert: plan and option are kept in mf.nav (visible to SQL), the services ignore them; accepted and announced', async () => {
    const s = await scenario('insert');
    try {
      expect(s.summary.errors).toEqual([]);
      expect(s.columns.nav).toEqual([...s.columnsBefore.nav, 'plan VARCHAR', 'option VARCHAR']);
      expect(await s.store.engine.all('SELECT count(*) AS n FROM mf.nav WHERE plan IS NULL OR "option" IS NULL')).toEqual([{ n: 0 }]);
      expect(s.after.scheme.keys).toEqual(s.before.scheme.keys);
      expect(s.after.scheme.row).toEqual(['date', 'nav']);
      expect(s.after.nav.n).toBeGreaterThan(s.before.nav.n);
      only(s.mf, [
        { table: 'nav', change: 'added', column: 'plan', from: 'VARCHAR', status: 'accepted', announced: true, schema_version: 4 },
        { table: 'nav', change: 'added', column: 'option', from: 'VARCHAR', status: 'accepted', announced: true, schema_version: 4 },
      ]);
      expect(s.mf.local_schema_version).toBe(4);
      // The local /mf/v1/ catalog reports the schema actually loaded.
      const c = (await catalog(s.store.engine)).schema;
      expect(c.full_history.columns).toEqual(['scheme_code', 'date', 'nav', 'scheme_name', 'isin', 'plan', 'option']);
      expect(c).toMatchObject({ schema_version: 4, publisher_schema_version: 4, schema_changed: s.mf.schema_changed });
      expect(c.schema_notes).toEqual(s.mf.schema_notes);
      expect(c.drift).toEqual(s.mf.drift);
    } finally {
      await s.store.close();
    }
  });

  it('retype: nav arrives as DOUBLE, every value converts exactly to DECIMAL(18,4): accepted, values equal the CSV\'s', async () => {
    const s = await scenario('retype');
    try {
      expect(s.summary.errors).toEqual([]);
      expect(s.columns.nav).toEqual(s.columnsBefore.nav);
      const csv = path.join(pubDir, 'mf', 'mf_nav_master.csv.gz').replaceAll("'", "''");
      const [cmp] = await s.store.engine.all<{ n: number; differ: number }>(`SELECT count(*) AS n, count(*) FILTER (WHERE n.nav <> c.nav::DECIMAL(18,4)) AS differ
        FROM mf.nav n JOIN read_csv('${csv}', header = true, all_varchar = true) c ON n.scheme_code = c.scheme_code::INTEGER AND n.date = c.date::DATE`);
      expect(cmp).toEqual({ n: s.after.nav.n, differ: 0 });
      only(s.mf, [{ table: 'nav', change: 'retyped', column: 'nav', from: 'DOUBLE', to: 'DECIMAL(18,4)', status: 'accepted', announced: true, schema_version: 4 }]);
    } finally {
      await s.store.close();
    }
  });

  it('drop: the full history without scheme_name is refused naming file and column; mf.nav keeps answering from generation 1', async () => {
    const s = await scenario('drop');
    try {
      expect(s.exit).toBe(1);
      const f = s.summary.files.find((x) => x.name === 'mf_nav_master.parquet')!;
      expect(f).toMatchObject({ status: 'failed', error: 'mf_nav_master.parquet: required column "scheme_name" is missing' });
      expect(s.after.nav).toEqual(s.before.nav);
      expect(s.after.scheme).toEqual(s.before.scheme);
      expect(s.after.latest.asof > s.before.latest.asof).toBe(true);
      expect(s.columns.nav).toEqual(s.columnsBefore.nav);
      only(s.mf, [{ table: 'nav', change: 'missing', column: 'scheme_name', status: 'refused', announced: true, schema_version: 4 }]);
      expect(s.mf.schema_version).toBe(4);
      expect(s.mf.local_schema_version).toBe(SCHEMA_VERSION);
      expect(s.mf.errors).toEqual(['mf_nav_master.parquet: required column "scheme_name" is missing']);
      const c = (await catalog(s.store.engine)).schema;
      expect(c).toMatchObject({ schema_version: SCHEMA_VERSION, publisher_schema_version: 4 });
      expect(c.full_history.columns).toEqual(['scheme_code', 'date', 'nav', 'scheme_name', 'isin']);
      expect(c.drift.map((n) => `${n.status} ${n.change} ${n.column}`)).toEqual(['refused missing scheme_name']);
    } finally {
      await s.store.close();
    }
  });

  it('silent: the same insert with no version bump is accepted and flagged as not announced', async () => {
    const s = await scenario('silent');
    try {
      expect(s.summary.errors).toEqual([]);
      expect(s.columns.nav).toEqual([...s.columnsBefore.nav, 'plan VARCHAR', 'option VARCHAR']);
      only(s.mf, [
        { table: 'nav', change: 'added', column: 'plan', from: 'VARCHAR', status: 'accepted', announced: false, schema_version: SCHEMA_VERSION },
        { table: 'nav', change: 'added', column: 'option', from: 'VARCHAR', status: 'accepted', announced: false, schema_version: SCHEMA_VERSION },
      ]);
      expect(s.mf.drift[0].detail).toMatch(/not announced: the manifest still says schema version 3/);
      expect(s.mf.local_schema_version).toBe(SCHEMA_VERSION);
    } finally {
      await s.store.close();
    }
  });
});
