/** A small published data dir for the publisher tests, written with the generator's own writers. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { sizeHuman, writeDatabaseFiles, writeTableFiles, type WrittenFile } from '../../src/gen/formats.js';

function manifest(dir: string, files: Record<string, WrittenFile>): void {
  const entries = Object.fromEntries(
    Object.entries(files).map(([name, w]) => [name, { format: w.format, size_bytes: w.size_bytes, size_human: sizeHuman(w.size_bytes), row_count: w.row_count }]),
  );
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ generated_at: '2026-11-14T06:00:00Z', files: entries }, null, 2));
}

export async function buildDataDir(): Promise<string> {
  const root = mkdtempSync(path.join(tmpdir(), 'almanac-publisher-'));
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    await conn.run(`CREATE TABLE mf_nav_master AS
      SELECT (100000 + i % 40)::INTEGER AS scheme_code, strftime(DATE '2020-01-01' + (i // 40)::INTEGER, '%Y-%m-%d') AS date,
             (10 + i * 0.01)::DECIMAL(18,4) AS nav, 'Fund ' || (i % 40) || ' - Growth' AS scheme_name, 'INF000000' || lpad((i % 40)::VARCHAR, 3, '0') AS isin
      FROM range(40000) r(i)`);
    await conn.run(`CREATE TABLE mf_nav_master_latest AS SELECT scheme_code, max(date) AS nav_date, arg_max(nav, date) AS nav FROM mf_nav_master GROUP BY scheme_code ORDER BY scheme_code`);
    await conn.run(`CREATE TABLE data_quality AS SELECT 1 AS issue_id, 'zero_nav' AS check_name, 'warn' AS severity`);
    await conn.run(`CREATE TABLE indicator_config AS
      SELECT 'ind_' || i AS indicator_id, CASE WHEN i < 5 THEN 'us_macro' ELSE 'markets' END AS category, i <> 3 AS visible FROM range(8) r(i)`);
    await conn.run(`CREATE TABLE macro_indicators AS SELECT 'ind_' || (i % 5) AS indicator_id, DATE '2024-01-01' + i::INTEGER AS date, i * 1.5 AS value FROM range(500) r(i)`);
    await conn.run(`CREATE TABLE credit_ratings AS SELECT 'SYM' || i AS symbol, 'AA' AS rating FROM range(300) r(i)`);

    const mf = path.join(root, 'mf');
    manifest(mf, {
      ...(await writeTableFiles(conn, { table: 'mf_nav_master', dir: mf, baseName: 'mf_nav_master', formats: ['parquet', 'csv.gz', 'db.gz'], csvQuoteAll: true })),
      ...(await writeTableFiles(conn, { table: 'mf_nav_master_latest', dir: mf, baseName: 'mf_nav_master_latest', formats: ['csv', 'parquet'] })),
      ...(await writeTableFiles(conn, { table: 'data_quality', dir: mf, baseName: 'data_quality', formats: ['csv', 'json'] })),
    });
    const ind = path.join(root, 'indicators');
    manifest(ind, {
      ...(await writeTableFiles(conn, { table: 'indicator_config', dir: ind, baseName: 'indicator_config', formats: ['parquet', 'csv.zip'], readme: '# indicator_config\n' })),
      ...(await writeTableFiles(conn, { table: 'macro_indicators', dir: ind, baseName: 'macro_indicators', formats: ['parquet', 'csv.gz'] })),
      ...(await writeDatabaseFiles(conn, { tables: ['indicator_config', 'macro_indicators'], dir: ind, baseName: 'indicators_all', kind: 'duckdb', formats: ['duckdb.zip'], readme: '# all\n' })),
    });
    const flags = path.join(root, 'flags');
    manifest(flags, {
      ...(await writeTableFiles(conn, { table: 'credit_ratings', dir: flags, baseName: 'credit_ratings', formats: ['csv.zip', 'parquet'], readme: '# credit_ratings\n' })),
      ...(await writeDatabaseFiles(conn, { tables: ['credit_ratings'], dir: flags, baseName: 'flags_all', kind: 'sqlite', formats: ['db.zip', 'db.gz'] })),
    });
    return root;
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
