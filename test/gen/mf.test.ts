import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import { unzipSync } from 'fflate';
import {
  CATEGORY_GROUPS_CLEAN, DATA_QUALITY_CHECKS, LATEST_COLUMNS, NAV_FILE_COLUMNS, SCHEME_DETAILS_COLUMNS, type Manifest,
} from '../../src/core/contract/mf.js';
import { isValidIsin } from '../../src/core/contract/isin.js';
import { sizeHuman } from '../../src/gen/formats.js';
import { generate, TINY_CASES } from '../../src/gen/mf.js';
import { asOfDate } from '../../src/gen/timeline.js';

const SEED = 11;
let root: string;
let dirA: string;
let dirB: string;
let hashesA: Record<string, string>;
let manifest: Manifest;
let instance: DuckDBInstance;
let conn: DuckDBConnection;

async function hashes(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of (await readdir(dir)).sort()) out[f] = createHash('sha256').update(await readFile(path.join(dir, f))).digest('hex');
  return out;
}

async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return (await conn.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
}

async function scalar(sql: string): Promise<number> {
  return Number((await conn.runAndReadAll(sql)).getRows()[0][0]);
}

const q = (s: string): string => `'${s.replace(/'/g, "''")}'`;
const pq = (dir: string, base: string): string => `read_parquet(${q(path.join(dir, `${base}.parquet`))})`;
const latestOf = (dir: string) => pq(dir, 'mf_nav_master_latest');
const navOf = (dir: string) => pq(dir, 'mf_nav_master');
const codes = (label: string): string => {
  const c = TINY_CASES[label];
  if (!c?.length) throw new Error(`TINY_CASES has no ${label}`);
  return c.join(', ');
};

/** Rows in one published file, read back by format. */
async function countFile(dir: string, name: string): Promise<number> {
  const file = path.join(dir, name);
  const [, inner, wrap] = name.match(/^[a-z_]+\.(parquet|csv|tsv|db|json)(?:\.(gz|zip))?$/)!;
  let bytes: Uint8Array | null = null;
  if (wrap === 'gz') bytes = gunzipSync(await readFile(file));
  if (wrap === 'zip') {
    const entries = unzipSync(new Uint8Array(await readFile(file)));
    expect(Object.keys(entries).sort()).toEqual(['README.md', name.replace(/\.zip$/, '')].sort());
    bytes = entries[name.replace(/\.zip$/, '')];
  }
  let src = file;
  if (bytes) {
    src = path.join(root, `unpacked-${Math.random().toString(36).slice(2)}.${inner}`);
    await writeFile(src, bytes);
  }
  switch (inner) {
    case 'parquet':
      return scalar(`SELECT count(*) FROM read_parquet(${q(src)})`);
    case 'csv':
      return scalar(`SELECT count(*) FROM read_csv(${q(src)}, header = true)`);
    case 'tsv':
      return scalar(`SELECT count(*) FROM read_csv(${q(src)}, header = true, delim = '\t', quote = '')`);
    case 'json':
      return (JSON.parse(await readFile(src, 'utf8')) as unknown[]).length;
    default: {
      const db = new Database(src, { readonly: true });
      try {
        return (db.prepare('SELECT count(*) AS n FROM mf_nav_master').get() as { n: number }).n;
      } finally {
        db.close();
      }
    }
  }
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'almanac-mf-gen-'));
  dirA = path.join(root, 'a', 'mf');
  dirB = path.join(root, 'b', 'mf');
  await generate({ scale: 'tiny', dir: dirA, generation: 1, seed: SEED });
  await generate({ scale: 'tiny', dir: dirB, generation: 1, seed: SEED });
  hashesA = await hashes(dirA);
  manifest = JSON.parse(await readFile(path.join(dirA, 'manifest.json'), 'utf8'));
  instance = await DuckDBInstance.create(':memory:');
  conn = await instance.connect();
}, 600_000);

afterAll(async () => {
  conn?.closeSync();
  instance?.closeSync();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('MF generator, tiny', () => {
  it('gives identical bytes for the same seed and generation, in every file', async () => {
    expect(Object.keys(hashesA)).toContain('mf_nav_master.db.zip');
    expect(await hashes(dirB)).toEqual(hashesA);
  });

  it('publishes every spec file, with manifest sizes and row counts equal to the files', async () => {
    const expected = [
      ...['parquet', 'csv.gz', 'csv.zip', 'tsv.gz', 'tsv.zip', 'db.gz', 'db.zip'].map((s) => `mf_nav_master.${s}`),
      ...['csv', 'csv.gz', 'csv.zip', 'parquet'].map((s) => `mf_nav_master_latest.${s}`),
      'scheme_details_latest.parquet', 'scheme_details_latest.csv.gz', 'data_quality.csv', 'data_quality.json',
    ];
    expect(Object.keys(manifest.files).sort()).toEqual(expected.sort());
    for (const [name, f] of Object.entries(manifest.files)) {
      const size = (await stat(path.join(dirA, name))).size;
      expect(f.size_bytes, name).toBe(size);
      expect(f.size_human, name).toBe(sizeHuman(size));
      expect(f.format, name).toBe(name.slice(name.indexOf('.') + 1));
      expect(await countFile(dirA, name), name).toBe(f.row_count);
    }
  });

  it('has a validation block that is true of the files', async () => {
    const v = manifest.validation;
    const navRows = await scalar(`SELECT count(*) FROM ${navOf(dirA)}`);
    const schemes = await scalar(`SELECT count(DISTINCT scheme_code) FROM ${navOf(dirA)}`);
    const latest = await scalar(`SELECT count(*) FROM ${latestOf(dirA)}`);
    const active = await scalar(`SELECT count(*) FROM ${latestOf(dirA)} WHERE is_active`);
    expect(v.source_rows).toBe(navRows);
    expect(manifest.total_rows).toBe(navRows);
    expect(v.all_match).toBe(true);
    expect(v.latest_snapshot_rows).toBe(latest);
    expect(v.latest_snapshot_source_rows).toBe(schemes);
    expect(v.nav_distinct_schemes).toBe(schemes);
    expect(v.latest_snapshot_match).toBe(latest === schemes);
    expect(v.latest_snapshot_match).toBe(true);
    expect(v.latest_snapshot_active_rows).toBe(active);
    expect(v.latest_snapshot_matured_rows).toBe(latest - active);
    expect(v.latest_snapshot_note).toMatch(/45 days/);
    for (const k of Object.keys(manifest.files).filter((n) => n.startsWith('mf_nav_master.'))) expect(manifest.files[k].row_count).toBe(navRows);

    const d = manifest.datasets.scheme_details_latest;
    const details = pq(dirA, 'scheme_details_latest');
    expect(d.row_count).toBe(await scalar(`SELECT count(*) FROM ${details}`));
    expect(d.rows_with.amfi_daily).toBe(await scalar(`SELECT count(*) FROM ${details} WHERE has_amfi_daily`));
    expect(d.rows_with.ssd).toBe(await scalar(`SELECT count(*) FROM ${details} WHERE has_ssd`));
    expect(d.rows_with.ter).toBe(await scalar(`SELECT count(*) FROM ${details} WHERE ter_pct IS NOT NULL`));
    expect(d.columns).toEqual(Object.keys(SCHEME_DETAILS_COLUMNS));
    expect(manifest.datasets.data_quality.row_count).toBe(await countFile(dirA, 'data_quality.json'));
  });

  it('carries every manifest field the spec lists', () => {
    for (const k of ['generated_at', 'total_rows', 'docs', 'license', 'license_url', 'data_source', 'disclaimer', 'terms', 'files', 'validation', 'generation_time_seconds', 'schema_version', 'schema_changed', 'schema_notes', 'schema', 'datasets']) {
      expect(manifest, k).toHaveProperty(k);
    }
    expect(manifest.schema_version).toBe(3);
    expect(manifest.schema_notes.join(' ')).toMatch(/aaum_cr_quarterly_avg/);
    for (const s of [manifest.schema.full_history_files, manifest.schema.latest_snapshot_files]) {
      expect(Object.keys(s).sort()).toEqual(['applies_to', 'columns', 'notes', 'query_tip']);
    }
    expect(Object.keys(manifest.schema.latest_snapshot_files.columns)).toEqual([...LATEST_COLUMNS]);
    expect(manifest.generated_at).toBe('2026-11-14T06:00:00Z');
  });

  it('writes the spec columns and types: nav DECIMAL in parquet, REAL in SQLite, quoted names in CSV only', async () => {
    const navCols = await rows(`DESCRIBE SELECT * FROM ${navOf(dirA)}`);
    expect(navCols.map((c) => c.column_name)).toEqual([...NAV_FILE_COLUMNS]);
    expect(navCols.map((c) => c.column_type)).toEqual(['INTEGER', 'VARCHAR', 'DECIMAL(18,4)', 'VARCHAR', 'VARCHAR']);
    const latestCols = await rows(`DESCRIBE SELECT * FROM ${latestOf(dirA)}`);
    expect(latestCols.map((c) => c.column_name)).toEqual([...LATEST_COLUMNS]);
    expect(latestCols).toHaveLength(22);
    expect((await rows(`DESCRIBE SELECT * FROM ${pq(dirA, 'scheme_details_latest')}`)).length).toBe(60);

    const csv = gunzipSync(await readFile(path.join(dirA, 'mf_nav_master.csv.gz'))).toString('utf8').trimEnd().split('\n');
    const csvLine = /^\d+,"\d{4}-\d{2}-\d{2}",[\d.]+,".*",("INF[A-Z0-9]{8}\d")?$/;
    expect(csv.slice(1).filter((l) => !csvLine.test(l))).toEqual([]);
    const tsv = gunzipSync(await readFile(path.join(dirA, 'mf_nav_master.tsv.gz'))).toString('utf8').trimEnd().split('\n');
    expect(tsv.length).toBe(csv.length);
    expect(tsv.filter((l) => l.split('\t').length !== 5 || l.includes('"'))).toEqual([]);
    const file = path.join(root, 'nav.db');
    await writeFile(file, gunzipSync(await readFile(path.join(dirA, 'mf_nav_master.db.gz'))));
    const db = new Database(file, { readonly: true });
    try {
      expect(db.prepare('SELECT DISTINCT typeof(nav) AS t FROM mf_nav_master').all()).toEqual([{ t: 'real' }]);
    } finally {
      db.close();
    }
  });

  it('gives every ISIN and reinvestment ISIN a valid check digit', async () => {
    const ids = await rows(`SELECT isin AS id FROM ${latestOf(dirA)} WHERE isin IS NOT NULL UNION SELECT isin2 FROM ${latestOf(dirA)} WHERE isin2 IS NOT NULL
      UNION SELECT DISTINCT isin FROM ${navOf(dirA)} WHERE isin IS NOT NULL`);
    expect(ids.length).toBeGreaterThan(50);
    for (const { id } of ids) expect(isValidIsin(String(id)), String(id)).toBe(true);
    expect(await scalar(`SELECT count(*) FROM ${latestOf(dirA)} WHERE isin NOT LIKE 'INF%' OR isin2 NOT LIKE 'INF%'`)).toBe(0);
  });

  it('keeps the category lenses and the quarter fields consistent', async () => {
    const clean = (await rows(`SELECT DISTINCT category_group_clean AS g FROM ${latestOf(dirA)}`)).map((r) => r.g);
    for (const g of clean) expect(CATEGORY_GROUPS_CLEAN).toContain(g);
    expect(await scalar(`SELECT count(DISTINCT category_group) FROM ${latestOf(dirA)}`)).toBeGreaterThan(12);
    const q = await rows(`SELECT DISTINCT aaum_quarter AS label, aaum_quarter_end::VARCHAR AS e FROM ${latestOf(dirA)} WHERE aaum_quarter IS NOT NULL`);
    expect(q).toEqual([{ label: 'July - September 2026', e: '2026-09-30' }]);
    expect(await scalar(`SELECT count(*) FROM ${latestOf(dirA)} WHERE NOT is_active AND aaum_cr_quarterly_avg IS NOT NULL`)).toBe(0);
  });
});

describe('MF tiny edge cases (TINY_CASES)', () => {
  const latest = async (label: string) => rows(`SELECT * FROM ${latestOf(dirA)} WHERE scheme_code IN (${codes(label)}) ORDER BY scheme_code`);

  it('publishes weekend NAVs for liquid and overnight funds only', async () => {
    for (const label of ['weekend_nav', 'weekend_nav_overnight']) {
      expect(await scalar(`SELECT count(*) FROM ${navOf(dirA)} WHERE scheme_code IN (${codes(label)}) AND dayofweek(date::DATE) IN (0, 6)`)).toBeGreaterThan(0);
    }
    expect(await scalar(`SELECT count(*) FROM ${navOf(dirA)} WHERE scheme_code IN (${codes('equity_pre_existing')}) AND dayofweek(date::DATE) IN (0, 6)`)).toBe(0);
  });

  it('keeps daily-IDCW variants at face value', async () => {
    const r = await rows(`SELECT min(nav::DOUBLE) AS lo, max(nav::DOUBLE) AS hi FROM ${navOf(dirA)} WHERE scheme_code IN (${codes('daily_idcw_flat')})`);
    expect(r[0].lo as number).toBeGreaterThan(990);
    expect(r[0].hi as number).toBeLessThan(1010);
  });

  it('freezes matured schemes, some at exactly 0.00', async () => {
    for (const r of await latest('zero_final_nav')) {
      expect(r.is_active).toBe(false);
      expect(Number(r.nav)).toBe(0);
    }
    for (const r of [...(await latest('matured_fmp')), ...(await latest('interval_matured'))]) {
      expect(r.is_active).toBe(false);
      expect(Number(r.nav)).toBeGreaterThan(0);
    }
  });

  it('splits a merged fund across two codes with a continuous NAV', async () => {
    const old = await latest('merger_old');
    const neu = await latest('merger_new');
    expect(old.length).toBe(neu.length);
    for (let i = 0; i < old.length; i++) {
      expect(old[i].is_active).toBe(false);
      expect(neu[i].is_active).toBe(true);
      expect(String(neu[i].first_date) > String(old[i].last_date)).toBe(true);
      const first = await scalar(`SELECT nav::DOUBLE FROM ${navOf(dirA)} WHERE scheme_code = ${neu[i].scheme_code} ORDER BY date LIMIT 1`);
      expect(Math.abs(first / Number(old[i].nav) - 1)).toBeLessThan(0.08);
    }
    expect(old[0].amc).not.toBe(neu[0].amc);
  });

  it('flags active-but-stale schemes and keeps a mid-history gap', async () => {
    for (const r of await latest('stale_active')) {
      expect(r.is_active).toBe(true);
      expect(r.is_stale).toBe(true);
    }
    const gap = await scalar(`SELECT max(d - p) FROM (SELECT date::DATE AS d, lag(date::DATE) OVER (PARTITION BY scheme_code ORDER BY date) AS p
      FROM ${navOf(dirA)} WHERE scheme_code IN (${codes('mid_history_gap')}))`);
    expect(gap).toBeGreaterThan(20);
  });

  it('keeps names, ISINs and categories as filed', async () => {
    for (const r of await latest('double_space_name')) expect(String(r.scheme_name)).toContain('  ');
    for (const r of await latest('trailing_space_name')) expect(String(r.scheme_name).endsWith(' ')).toBe(true);
    for (const r of await latest('no_isin')) expect([r.isin, r.isin2]).toEqual([null, null]);
    for (const r of await latest('reinvest_isin_only')) expect(r.isin === null && r.isin2 !== null).toBe(true);
    for (const r of await latest('both_isins')) expect(r.isin !== null && r.isin2 !== null).toBe(true);
    for (const r of await latest('blank_sub_category')) {
      expect(r.category_sub).toBeNull();
      expect(r.category_group).toBe('Open Ended Schemes ( Income )');
    }
    for (const r of await latest('plan_other')) expect(r.scheme_plan).toBe('Other');
    expect(await scalar(`SELECT count(*) FROM ${navOf(dirA)} WHERE scheme_code IN (${codes('nav_decimals_2')}) AND nav * 100 <> round(nav * 100)`)).toBe(0);
    expect(await scalar(`SELECT count(*) FROM ${navOf(dirA)} WHERE scheme_code IN (${codes('nav_decimals_3')}) AND nav * 1000 <> round(nav * 1000)`)).toBe(0);
  });

  it('shows the 2008 and 2020 crashes in a pre-existing equity fund', async () => {
    const code = TINY_CASES.crash_2008_2020[0];
    const dd = async (from: string, to: string) =>
      scalar(`SELECT min(nav::DOUBLE) / max(nav::DOUBLE) FROM ${navOf(dirA)} WHERE scheme_code = ${code} AND date BETWEEN '${from}' AND '${to}'`);
    expect(await dd('2008-01-01', '2009-03-31')).toBeLessThan(0.7);
    expect(await dd('2020-02-15', '2020-03-31')).toBeLessThan(0.85);
  });

  it('gives a mid-quarter launch a low quarterly average AUM', async () => {
    for (const r of await latest('mid_quarter_launch')) {
      expect(String(r.first_date) > '2026-07-01').toBe(true);
      expect(r.aaum_cr_quarterly_avg).not.toBeNull();
    }
  });

  it('records each oddity in data_quality', async () => {
    const dq = JSON.parse(await readFile(path.join(dirA, 'data_quality.json'), 'utf8')) as { check_name: string; scheme_code: number | null }[];
    const checks = new Set(dq.map((r) => r.check_name));
    for (const c of Object.keys(DATA_QUALITY_CHECKS)) expect(checks, c).toContain(c);
    const flagged = (check: string) => dq.filter((r) => r.check_name === check).map((r) => r.scheme_code);
    expect(flagged('zero_final_nav')).toEqual([...TINY_CASES.zero_final_nav]);
    expect(flagged('merger_split')).toEqual([...TINY_CASES.merger_old]);
  });
});

describe('MF generation 2', () => {
  let gen2: Manifest;
  let detailsMtime: number;
  beforeAll(async () => {
    detailsMtime = (await stat(path.join(dirB, 'scheme_details_latest.parquet'))).mtimeMs;
    await generate({ scale: 'tiny', dir: dirB, generation: 2, seed: SEED });
    gen2 = JSON.parse(await readFile(path.join(dirB, 'manifest.json'), 'utf8'));
  }, 600_000);

  it('adds the week since and keeps every earlier row', async () => {
    expect(gen2.total_rows).toBeGreaterThan(manifest.total_rows);
    expect((await rows(`SELECT max(date) AS d FROM ${navOf(dirB)}`))[0].d).toBe(asOfDate(2));
    expect(await scalar(`SELECT count(*) FROM (SELECT * FROM ${navOf(dirA)} EXCEPT SELECT * FROM ${navOf(dirB)})`)).toBe(0);
  });

  it('launches and matures schemes during the week', async () => {
    expect(await scalar(`SELECT count(*) FROM ${latestOf(dirA)} WHERE scheme_code IN (${codes('launch_in_gen2')})`)).toBe(0);
    expect(await scalar(`SELECT count(*) FROM ${latestOf(dirB)} WHERE scheme_code IN (${codes('launch_in_gen2')})`)).toBe(TINY_CASES.launch_in_gen2.length);
    const before = await rows(`SELECT last_date::VARCHAR AS d FROM ${latestOf(dirA)} WHERE scheme_code IN (${codes('matures_in_gen2')})`);
    const after = await rows(`SELECT last_date::VARCHAR AS d FROM ${latestOf(dirB)} WHERE scheme_code IN (${codes('matures_in_gen2')})`);
    for (const r of before) expect(r.d).toBe(asOfDate(1));
    for (const r of after) expect(String(r.d) < asOfDate(2)).toBe(true);
  });

  it('leaves the scheme details byte-identical and untouched', async () => {
    const after = await hashes(dirB);
    expect(after['scheme_details_latest.parquet']).toBe(hashesA['scheme_details_latest.parquet']);
    expect(after['scheme_details_latest.csv.gz']).toBe(hashesA['scheme_details_latest.csv.gz']);
    expect((await stat(path.join(dirB, 'scheme_details_latest.parquet'))).mtimeMs).toBe(detailsMtime);
    expect(after['mf_nav_master.parquet']).not.toBe(hashesA['mf_nav_master.parquet']);
  });
});
