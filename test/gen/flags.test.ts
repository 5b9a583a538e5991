import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import { unzipSync } from 'fflate';
import { TABLE_NAMES, FLAGS_TABLES, allFileNames, type Manifest } from '../../src/core/contract/flags.js';
import { isValidIsin } from '../../src/core/contract/isin.js';
import { generate, TINY_SCORECARD_CASES } from '../../src/gen/flags.js';

const SEED = 7;
let root: string;
let gen1: string;
let manifest: Manifest;
let instance: DuckDBInstance;
let conn: DuckDBConnection;

async function hashes(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of (await readdir(dir)).sort()) out[f] = createHash('sha256').update(await readFile(path.join(dir, f))).digest('hex');
  return out;
}

async function scalar(sql: string): Promise<unknown> {
  return (await conn.runAndReadAll(sql)).getRows()[0][0];
}

function sqliteCount(bytes: Uint8Array, tables: readonly string[], dir: string): Promise<number> {
  const file = path.join(dir, `check-${Math.random().toString(36).slice(2)}.db`);
  return writeFile(file, bytes).then(() => {
    const db = new Database(file, { readonly: true });
    try {
      return tables.reduce((n, t) => n + Number((db.prepare(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n), 0);
    } finally {
      db.close();
    }
  });
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'almanac-flags-gen-'));
  gen1 = path.join(root, 'a', 'flags');
  await generate({ scale: 'tiny', dir: gen1, generation: 1, seed: SEED });
  manifest = JSON.parse(await readFile(path.join(gen1, 'manifest.json'), 'utf8'));
  instance = await DuckDBInstance.create(':memory:');
  conn = await instance.connect();
});

afterAll(async () => {
  conn?.closeSync();
  instance?.closeSync();
  await rm(root, { recursive: true, force: true });
});

describe('flags generator', () => {
  it('is deterministic: the same seed and generation give byte-identical files', async () => {
    const again = path.join(root, 'b', 'flags');
    await generate({ scale: 'tiny', dir: again, generation: 1, seed: SEED });
    expect(await hashes(again)).toEqual(await hashes(gen1));
    const other = path.join(root, 'c', 'flags');
    await generate({ scale: 'tiny', dir: other, generation: 1, seed: SEED + 1 });
    expect((await hashes(other))['insider_trading.csv.gz']).not.toBe((await hashes(gen1))['insider_trading.csv.gz']);
  });

  it('lists exactly the spec file names, with sizes that equal the files', async () => {
    expect(Object.keys(manifest.files).sort()).toEqual(allFileNames().sort());
    const onDisk = (await readdir(gen1)).filter((f) => f !== 'manifest.json' && f !== 'state.json').sort();
    expect(onDisk).toEqual(allFileNames().sort());
    for (const [name, f] of Object.entries(manifest.files)) {
      expect((await stat(path.join(gen1, name))).size, name).toBe(f.size_bytes);
    }
    expect(manifest.total_rows).toBe(TABLE_NAMES.reduce((n, t) => n + manifest.tables[t].row_count, 0));
  });

  it('row counts in the manifest equal the rows inside every file', async () => {
    for (const [name, f] of Object.entries(manifest.files)) {
      const file = path.join(gen1, name);
      const bytes = new Uint8Array(await readFile(file));
      let rows: number;
      if (f.format === 'parquet') {
        rows = Number(await scalar(`SELECT count(*) FROM read_parquet('${file}')`));
      } else if (f.format === 'csv.gz' || f.format === 'tsv.gz') {
        const tmp = path.join(root, `${name}.txt`);
        await writeFile(tmp, gunzipSync(bytes));
        rows = Number(await scalar(`SELECT count(*) FROM read_csv('${tmp}', header=true${f.format === 'tsv.gz' ? ", delim='\\t', quote=''" : ''})`));
      } else if (f.format === 'csv.zip' || f.format === 'tsv.zip') {
        const entries = unzipSync(bytes);
        const inner = name.replace(/\.zip$/, '');
        expect(Object.keys(entries).sort()).toEqual(['README.md', inner].sort());
        const tmp = path.join(root, `${inner}.txt`);
        await writeFile(tmp, entries[inner]);
        rows = Number(await scalar(`SELECT count(*) FROM read_csv('${tmp}', header=true${f.format === 'tsv.zip' ? ", delim='\\t', quote=''" : ''})`));
      } else {
        const db = f.format === 'db.gz' ? gunzipSync(bytes) : unzipSync(bytes)[name.replace(/\.zip$/, '')];
        rows = await sqliteCount(db, f.table === 'all' ? TABLE_NAMES : [f.table], root);
      }
      expect(rows, name).toBe(f.row_count);
      expect(f.row_count, name).toBe(f.table === 'all' ? manifest.total_rows : manifest.tables[f.table].row_count);
    }
  });

  it('carries every contract column with its type, required columns never null', async () => {
    for (const t of TABLE_NAMES) {
      const file = path.join(gen1, `${t}.parquet`);
      const described = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${file}')`)).getRowObjects();
      expect(described.map((d) => [d.column_name, d.column_type])).toEqual(FLAGS_TABLES[t].columns.map((c) => [c.name, c.type]));
      for (const c of FLAGS_TABLES[t].columns.filter((c) => c.required)) {
        expect(Number(await scalar(`SELECT count(*) FROM read_parquet('${file}') WHERE "${c.name}" IS NULL`)), `${t}.${c.name}`).toBe(0);
      }
    }
  });

  it('gives every company one symbol, one name and an INE ISIN with a valid check digit', async () => {
    const parts = TABLE_NAMES.map((t) => `SELECT symbol, isin, company_name FROM read_parquet('${path.join(gen1, `${t}.parquet`)}')`);
    const companies = (await conn.runAndReadAll(`SELECT DISTINCT * FROM (${parts.join(' UNION ALL ')}) ORDER BY symbol`)).getRowObjects();
    expect(companies.length).toBe(40);
    expect(new Set(companies.map((c) => c.symbol)).size).toBe(40);
    expect(new Set(companies.map((c) => c.isin)).size).toBe(40);
    for (const c of companies) {
      expect(String(c.isin)).toMatch(/^INE[A-Z0-9]{8}\d$/);
      expect(isValidIsin(String(c.isin)), String(c.isin)).toBe(true);
    }
    for (const k of TINY_SCORECARD_CASES) expect(companies.map((c) => c.symbol)).toContain(k.symbol);
  });

  it('generation 2 grows the event tables, moves the snapshot date, and leaves half-yearly RPT and quarterly pledges untouched', async () => {
    const dir = path.join(root, 'n1', 'flags');
    await cp(gen1, dir, { recursive: true });
    const before = await hashes(dir);
    const mtimes = Object.fromEntries(await Promise.all(Object.keys(before).map(async (f) => [f, (await stat(path.join(dir, f))).mtimeMs] as const)));
    await generate({ scale: 'tiny', dir, generation: 2, seed: SEED });
    const after = await hashes(dir);
    const m2: Manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8'));
    // A week of filings at 40 companies: trades and SAST filings arrive; encumbrances may not.
    expect(m2.tables.insider_trading.row_count).toBeGreaterThan(manifest.tables.insider_trading.row_count);
    expect(m2.tables.sast_disclosures.row_count).toBeGreaterThan(manifest.tables.sast_disclosures.row_count);
    expect(m2.tables.encumbrance_events.row_count).toBeGreaterThanOrEqual(manifest.tables.encumbrance_events.row_count);
    expect(m2.tables.surveillance_flags.last_date).toBe('2026-11-20');
    expect(after['surveillance_flags.csv.gz']).not.toBe(before['surveillance_flags.csv.gz']);
    for (const f of ['rpt_transactions.csv.gz', 'rpt_transactions.parquet', 'rpt_transactions.db.zip', 'pledge_data.tsv.zip']) {
      expect(after[f], f).toBe(before[f]);
      expect((await stat(path.join(dir, f))).mtimeMs, f).toBe(mtimes[f]);
    }
    // Generation 1's events are all still there (the history only grows).
    for (const t of ['insider_trading', 'sast_disclosures', 'encumbrance_events', 'credit_ratings']) {
      const p = (g: string) => path.join(g, `${t}.parquet`);
      const lost = await scalar(`SELECT count(*) FROM (SELECT * FROM read_parquet('${p(gen1)}') EXCEPT ALL SELECT * FROM read_parquet('${p(dir)}'))`);
      expect(Number(lost), t).toBe(0);
    }
    expect(JSON.parse(await readFile(path.join(dir, 'state.json'), 'utf8'))).toEqual({
      generation: 2, seed: SEED, scale: 'tiny', as_of: ['2026-11-13', '2026-11-20'], revisions: [], rebuilds: [],
    });
  });
});
