import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import { Unzip, UnzipInflate, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeEngine } from '../../src/core/engine/node.js';
import { sizeHuman, writeDatabaseFiles, writeTableFiles, type FileFormat, type WrittenFile } from '../../src/gen/formats.js';

const ALL: FileFormat[] = ['parquet', 'csv', 'csv.gz', 'csv.zip', 'tsv', 'tsv.gz', 'tsv.zip', 'db.gz', 'db.zip', 'duckdb.gz', 'duckdb.zip', 'json'];
const README = '# nav\n\nSample README.\n';

describe('formats: bulk file writers', () => {
  let dir: string;
  let instance: DuckDBInstance;
  let conn: DuckDBConnection;
  let first: Record<string, WrittenFile>;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'almanac-formats-'));
    instance = await DuckDBInstance.create(':memory:');
    conn = await instance.connect();
    // Unique strings on purpose: they are what makes DuckDB's own file bytes vary between builds.
    await conn.run(`CREATE TABLE nav AS
      SELECT (100000 + i % 50)::INTEGER AS scheme_code,
             strftime(DATE '2024-01-01' + (i // 50)::INTEGER, '%Y-%m-%d') AS date,
             (10 + i * 0.0137)::DECIMAL(18,4) AS nav,
             'Fund "' || (i % 50) || '", Growth ' || md5(i::VARCHAR) AS scheme_name,
             i % 3 = 0 AS is_active
      FROM range(20000) r(i)`);
    await conn.run(`CREATE TABLE config AS SELECT 'id_' || i AS indicator_id, 'note ' || i AS notes FROM range(30) r(i)`);
    first = await writeTableFiles(conn, { table: 'nav', dir, baseName: 'nav', formats: ALL, readme: README, csvQuoteAll: true });
  });
  afterAll(() => {
    conn.closeSync();
    instance.closeSync();
    rmSync(dir, { recursive: true, force: true });
  });

  const read = (name: string): Buffer => readFileSync(path.join(dir, name));

  it('writes every format with its row count, and a second write leaves every file untouched', async () => {
    expect(Object.keys(first).sort()).toEqual(ALL.map((f) => `nav.${f}`).sort());
    for (const [name, w] of Object.entries(first)) {
      expect(w.row_count).toBe(20000);
      expect(w.size_bytes).toBe(statSync(path.join(dir, name)).size);
    }
    const before = Object.fromEntries(Object.keys(first).map((n) => [n, { bytes: read(n), mtime: statSync(path.join(dir, n)).mtimeMs }]));
    const second = await writeTableFiles(conn, { table: 'nav', dir, baseName: 'nav', formats: ALL, readme: README, csvQuoteAll: true });
    expect(second).toEqual(first);
    for (const [name, b] of Object.entries(before)) {
      expect(read(name).equals(b.bytes), name).toBe(true);
      expect(statSync(path.join(dir, name)).mtimeMs, name).toBe(b.mtime);
    }
  });

  it('gives byte-identical files when written from scratch twice (all but DuckDB files)', async () => {
    const other = mkdtempSync(path.join(tmpdir(), 'almanac-formats-2-'));
    try {
      const formats = ALL.filter((f) => !f.startsWith('duckdb'));
      await writeTableFiles(conn, { table: 'nav', dir: other, baseName: 'nav', formats, readme: README, csvQuoteAll: true });
      for (const f of formats) expect(readFileSync(path.join(other, `nav.${f}`)).equals(read(`nav.${f}`)), f).toBe(true);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('zips hold the data file and README.md; gzip round-trips to the bare file', () => {
    const zip = unzipSync(read('nav.csv.zip'));
    expect(Object.keys(zip).sort()).toEqual(['README.md', 'nav.csv']);
    expect(new TextDecoder().decode(zip['README.md'])).toBe(README);
    expect(Buffer.from(zip['nav.csv']).equals(read('nav.csv'))).toBe(true);
    expect(gunzipSync(read('nav.csv.gz')).equals(read('nav.csv'))).toBe(true);
    expect(gunzipSync(read('nav.tsv.gz')).equals(read('nav.tsv'))).toBe(true);
    expect(Object.keys(unzipSync(read('nav.db.zip'))).sort()).toEqual(['README.md', 'nav.db']);
  });

  it('zips stream through fflate Unzip (what sync reads them with), entry by entry', () => {
    const buf = read('nav.tsv.zip');
    const got: Record<string, Buffer[]> = {};
    const uz = new Unzip((entry) => {
      got[entry.name] = [];
      entry.ondata = (err, data) => {
        if (err) throw err;
        got[entry.name].push(Buffer.from(data));
      };
      entry.start();
    });
    uz.register(UnzipInflate);
    for (let i = 0; i < buf.length; i += 4096) uz.push(buf.subarray(i, i + 4096), i + 4096 >= buf.length);
    expect(Buffer.concat(got['nav.tsv']).equals(read('nav.tsv'))).toBe(true);
    expect(Buffer.concat(got['README.md']).toString()).toBe(README);
  });

  it('quotes text in CSV, never in TSV, and writes numbers plain', () => {
    const csv = read('nav.csv').toString('utf8').split('\n');
    expect(csv[1]).toBe('100000,"2024-01-01",10.0000,"Fund ""0"", Growth cfcd208495d565ef66e7dff9f98764da",true');
    const tsv = read('nav.tsv').toString('utf8').split('\n');
    expect(tsv[0]).toBe('scheme_code\tdate\tnav\tscheme_name\tis_active');
    expect(tsv[1]).toBe('100000\t2024-01-01\t10.0000\tFund "0", Growth cfcd208495d565ef66e7dff9f98764da\ttrue');
  });

  it('refuses TSV for text holding a tab', async () => {
    await conn.run(`CREATE TABLE bad AS SELECT 'a' || chr(9) || 'b' AS s`);
    await expect(writeTableFiles(conn, { table: 'bad', dir, baseName: 'bad', formats: ['tsv.gz'] })).rejects.toThrow(/tab or line break/);
  });

  it('keeps DECIMAL in parquet', async () => {
    const r = await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${path.join(dir, 'nav.parquet')}')`);
    const types = Object.fromEntries(r.getRowObjects().map((o) => [String(o.column_name), String(o.column_type)]));
    expect(types).toEqual({ scheme_code: 'INTEGER', date: 'VARCHAR', nav: 'DECIMAL(18,4)', scheme_name: 'VARCHAR', is_active: 'BOOLEAN' });
  });

  it('writes SQLite with REAL nav (or TEXT when asked) that better-sqlite3 reads', async () => {
    const db = unzipSync(read('nav.db.zip'))['nav.db'];
    const file = path.join(dir, 'check.db');
    writeFileSync(file, db);
    const sqlite = new Database(file, { readonly: true });
    try {
      expect(sqlite.prepare('SELECT count(*) AS n FROM nav').get()).toEqual({ n: 20000 });
      const row = sqlite.prepare('SELECT * FROM nav WHERE scheme_code = 100001 ORDER BY date LIMIT 1').get();
      expect(row).toEqual({ scheme_code: 100001, date: '2024-01-01', nav: 10.0137, scheme_name: 'Fund "1", Growth c4ca4238a0b923820dcc509a6f75849b', is_active: 0 });
      expect(sqlite.prepare("SELECT type FROM pragma_table_info('nav') WHERE name = 'nav'").get()).toEqual({ type: 'REAL' });
    } finally {
      sqlite.close();
    }
    await writeTableFiles(conn, { table: 'nav', dir, baseName: 'nav_text', formats: ['db.gz'], sqliteTypes: { nav: 'TEXT' } });
    writeFileSync(file, gunzipSync(read('nav_text.db.gz')));
    const asText = new Database(file, { readonly: true });
    try {
      expect(asText.prepare('SELECT nav, typeof(nav) AS t FROM nav LIMIT 1').get()).toEqual({ nav: '10.0000', t: 'text' });
    } finally {
      asText.close();
    }
  });

  it('writes a .duckdb that DuckDB-WASM attaches, with DECIMAL intact', async () => {
    const file = path.join(dir, 'check.duckdb');
    writeFileSync(file, gunzipSync(read('nav.duckdb.gz')));
    const engine = await NodeEngine.open();
    try {
      await engine.exec(`ATTACH '${file}' AS x`);
      const rows = await engine.all<{ n: number; total: number }>('SELECT count(*) AS n, sum(nav) AS total FROM x.nav');
      const expected = (await conn.runAndReadAll('SELECT sum(nav)::VARCHAR FROM nav')).getRows()[0][0];
      expect(rows[0].n).toBe(20000);
      expect(String(rows[0].total)).toBe(String(Number(expected)));
      const types = await engine.all("SELECT data_type FROM information_schema.columns WHERE table_catalog = 'x' AND column_name = 'nav'");
      expect(types).toEqual([{ data_type: 'DECIMAL(18,4)' }]);
    } finally {
      await engine.close();
    }
  });

  it('rebuilds a .duckdb family when the data changes', async () => {
    const before = read('nav.duckdb.zip');
    await conn.run('UPDATE nav SET nav = nav + 1 WHERE scheme_code = 100001 AND date = (SELECT max(date) FROM nav)');
    await writeTableFiles(conn, { table: 'nav', dir, baseName: 'nav', formats: ['duckdb.zip'], readme: README });
    expect(read('nav.duckdb.zip').equals(before)).toBe(false);
    await conn.run('UPDATE nav SET nav = nav - 1 WHERE scheme_code = 100001 AND date = (SELECT max(date) FROM nav)');
  });

  it('bundles several tables in one database file', async () => {
    const w = await writeDatabaseFiles(conn, { tables: ['nav', 'config'], dir, baseName: 'all', kind: 'sqlite', formats: ['db.zip', 'db.gz'], readme: README });
    expect(w['all.db.zip'].row_count).toBe(20030);
    const file = path.join(dir, 'all.db');
    writeFileSync(file, gunzipSync(read('all.db.gz')));
    const sqlite = new Database(file, { readonly: true });
    try {
      const names = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
      expect(names).toEqual([{ name: 'config' }, { name: 'nav' }]);
    } finally {
      sqlite.close();
    }
    await expect(writeDatabaseFiles(conn, { tables: ['nav'], dir, baseName: 'all', kind: 'sqlite', formats: ['duckdb.gz'] })).rejects.toThrow(/does not hold/);
  });

  it('formats sizes for manifests', () => {
    expect(sizeHuman(512)).toBe('512 B');
    expect(sizeHuman(1536)).toBe('1.5 KB');
    expect(sizeHuman(118_900_000)).toBe('113.4 MB');
  });
});
