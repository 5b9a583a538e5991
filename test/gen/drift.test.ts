import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import { unzipSync } from 'fflate';
import { LATEST_COLUMNS, NAV_FILE_COLUMNS, SCHEMA_NOTES, SCHEMA_VERSION, SCHEME_OPTIONS, SCHEME_PLANS, type Manifest } from '../../src/core/contract/mf.js';
import { generate } from '../../src/gen/mf.js';
import type { Drift } from '../../src/gen/options.js';
import { asOfDate } from '../../src/gen/timeline.js';

/**
 * `--drift KIND` publishes generation 2 of tiny MF data with one layout change, in every format of the
 * affected file, read back here with native DuckDB and SQLite (not with the app's own reader).
 */
const NAV_FORMATS = ['parquet', 'csv.gz', 'csv.zip', 'tsv.gz', 'tsv.zip', 'db.gz', 'db.zip'];
const LATEST_FORMATS = ['parquet', 'csv', 'csv.gz', 'csv.zip'];
const DRIFTS: Drift[] = ['rename', 'insert', 'retype', 'drop', 'silent'];

let root: string;
let instance: DuckDBInstance;
let conn: DuckDBConnection;
const dirs = {} as Record<Drift, string>;
const manifests = {} as Record<Drift, Manifest>;

const q = (s: string): string => `'${s.replace(/'/g, "''")}'`;

async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return (await conn.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
}

/** Columns (name and type) of one published file, whatever its format; zips hold it plus README.md. */
async function columnsOf(dir: string, name: string): Promise<{ name: string; type: string }[]> {
  const [, inner, wrap] = name.match(/^[a-z_]+\.(parquet|csv|tsv|db)(?:\.(gz|zip))?$/)!;
  let src = path.join(dir, name);
  if (wrap) {
    const bytes = wrap === 'gz' ? gunzipSync(await readFile(src)) : unzipSync(new Uint8Array(await readFile(src)))[name.replace(/\.zip$/, '')];
    src = path.join(root, `unpacked-${Math.random().toString(36).slice(2)}.${inner}`);
    await writeFile(src, bytes);
  }
  if (inner === 'db') {
    const db = new Database(src, { readonly: true });
    try {
      return (db.prepare('PRAGMA table_info(mf_nav_master)').all() as { name: string; type: string }[]).map((c) => ({ name: c.name, type: c.type }));
    } finally {
      db.close();
    }
  }
  const reader =
    inner === 'parquet' ? `read_parquet(${q(src)})`
    : inner === 'tsv' ? `read_csv(${q(src)}, header = true, delim = '\t', quote = '')`
    : `read_csv(${q(src)}, header = true)`;
  return (await rows(`DESCRIBE SELECT * FROM ${reader}`)).map((r) => ({ name: String(r.column_name), type: String(r.column_type) }));
}

const names = (cols: { name: string }[]) => cols.map((c) => c.name);

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'almanac-drift-gen-'));
  for (const drift of DRIFTS) {
    dirs[drift] = path.join(root, drift, 'mf');
    await generate({ scale: 'tiny', dir: dirs[drift], generation: 2, seed: 42, drift });
    manifests[drift] = JSON.parse(await readFile(path.join(dirs[drift], 'manifest.json'), 'utf8'));
  }
  instance = await DuckDBInstance.create(':memory:');
  conn = await instance.connect();
}, 600_000);

afterAll(async () => {
  conn?.closeSync();
  instance?.closeSync();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('npm run gen -- --drift KIND (MF, generation 2)', () => {
  it('announced kinds bump schema_version, date it and add a note; silent changes nothing in the manifest', () => {
    for (const drift of ['rename', 'insert', 'retype', 'drop'] as const) {
      const m = manifests[drift];
      expect(m.schema_version, drift).toBe(SCHEMA_VERSION + 1);
      expect(m.schema_changed, drift).toBe(asOfDate(2));
      expect(m.schema_notes.slice(0, -1), drift).toEqual(SCHEMA_NOTES);
      expect(m.schema_notes.at(-1), drift).toMatch(new RegExp(`^Version ${SCHEMA_VERSION + 1}: `));
    }
    const s = manifests.silent;
    expect(s.schema_version).toBe(SCHEMA_VERSION);
    expect(s.schema_notes).toEqual(SCHEMA_NOTES);
    expect(Object.keys(s.schema.full_history_files.columns)).toEqual([...NAV_FILE_COLUMNS]);
  });

  it('rename: every latest-snapshot format carries aaum_cr in the renamed column\'s place; the full history is untouched', async () => {
    const want = LATEST_COLUMNS.map((c) => (c === 'aaum_cr_quarterly_avg' ? 'aaum_cr' : c));
    for (const f of LATEST_FORMATS) expect(names(await columnsOf(dirs.rename, `mf_nav_master_latest.${f}`)), f).toEqual(want);
    for (const f of NAV_FORMATS) expect(names(await columnsOf(dirs.rename, `mf_nav_master.${f}`)), f).toEqual([...NAV_FILE_COLUMNS]);
    expect(Object.keys(manifests.rename.schema.latest_snapshot_files.columns)).toEqual(want);
    expect(manifests.rename.schema_notes.at(-1)).toMatch(/aaum_cr_quarterly_avg is published as aaum_cr/);
  });

  it('insert and silent: plan and option between date and nav in every full-history format, with the scheme\'s values', async () => {
    const want = ['scheme_code', 'date', 'plan', 'option', 'nav', 'scheme_name', 'isin'];
    for (const drift of ['insert', 'silent'] as const) {
      for (const f of NAV_FORMATS) expect(names(await columnsOf(dirs[drift], `mf_nav_master.${f}`)), `${drift} ${f}`).toEqual(want);
    }
    const pq = `read_parquet(${q(path.join(dirs.insert, 'mf_nav_master.parquet'))})`;
    const latest = `read_parquet(${q(path.join(dirs.insert, 'mf_nav_master_latest.parquet'))})`;
    const [{ n, bad, plans, options }] = await rows(`SELECT count(*)::INTEGER AS n,
        count(*) FILTER (WHERE n.plan IS DISTINCT FROM l.scheme_plan OR n.option IS DISTINCT FROM l.scheme_option)::INTEGER AS bad,
        list(DISTINCT n.plan ORDER BY n.plan) AS plans, list(DISTINCT n.option ORDER BY n.option) AS options
      FROM ${pq} n JOIN ${latest} l USING (scheme_code)`);
    expect(n).toBe(manifests.insert.validation.source_rows);
    expect(bad).toBe(0);
    expect((plans as string[]).every((p) => (SCHEME_PLANS as readonly string[]).includes(p))).toBe(true);
    expect((options as string[]).every((o) => (SCHEME_OPTIONS as readonly string[]).includes(o))).toBe(true);
    expect(Object.keys(manifests.insert.schema.full_history_files.columns)).toEqual(want);
    const readme = unzipSync(new Uint8Array(await readFile(path.join(dirs.silent, 'mf_nav_master.csv.zip'))))['README.md'];
    expect(new TextDecoder().decode(readme)).toContain(`Columns: ${NAV_FILE_COLUMNS.join(', ')}.`);
  });

  it('retype: nav is DOUBLE in the parquet with the same values as the CSV; the text formats are as before', async () => {
    const cols = await columnsOf(dirs.retype, 'mf_nav_master.parquet');
    expect(cols.map((c) => `${c.name} ${c.type}`)).toEqual(['scheme_code INTEGER', 'date VARCHAR', 'nav DOUBLE', 'scheme_name VARCHAR', 'isin VARCHAR']);
    expect((await columnsOf(dirs.insert, 'mf_nav_master.parquet')).find((c) => c.name === 'nav')!.type).toBe('DECIMAL(18,4)');
    expect((await columnsOf(dirs.retype, 'mf_nav_master.db.gz')).find((c) => c.name === 'nav')!.type).toBe('REAL');
    const pq = `read_parquet(${q(path.join(dirs.retype, 'mf_nav_master.parquet'))})`;
    const csv = `read_csv(${q(path.join(dirs.retype, 'mf_nav_master.csv.gz'))}, header = true, types = {'nav': 'DOUBLE'})`;
    const [{ n, differ, inexact }] = await rows(`SELECT count(*)::INTEGER AS n,
        count(*) FILTER (WHERE p.nav IS DISTINCT FROM c.nav)::INTEGER AS differ,
        count(*) FILTER (WHERE p.nav::DECIMAL(18,4)::DOUBLE <> p.nav)::INTEGER AS inexact
      FROM ${pq} p JOIN ${csv} c USING (scheme_code, date)`);
    expect(n).toBe(manifests.retype.validation.source_rows);
    expect(differ).toBe(0);
    expect(inexact).toBe(0);
  });

  it('drop: scheme_name is gone from every full-history format', async () => {
    for (const f of NAV_FORMATS) {
      expect(names(await columnsOf(dirs.drop, `mf_nav_master.${f}`)), f).toEqual(['scheme_code', 'date', 'nav', 'isin']);
    }
    expect(Object.keys(manifests.drop.schema.full_history_files.columns)).toEqual(['scheme_code', 'date', 'nav', 'isin']);
  });
});
