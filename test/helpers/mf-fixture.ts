/**
 * Tiny MF data for the service tests: a copy of the published files (test/helpers/tiny-data.ts),
 * and `loadMf` loads them into a DuckDB-WASM engine the way the app sees them (schema `mf`, the
 * contract's tables and types). read_csv over .csv.gz works offline in DuckDB-WASM; read_parquet
 * does not. The published columns are read as text and cast by the INSERT into the contract's types,
 * so DECIMAL stays exact and dates become DATE.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Engine } from '../../src/core/engine/engine.js';
import { LATEST_FILE_BASE, NAV_FILE_BASE, MF_TABLES } from '../../src/core/contract/mf.js';
import { publishTiny } from './tiny-data.js';

/** Copies the tiny MF data set (fixed seed) into a fresh temp dir; returns DIR/mf. */
export async function generateTinyMf(generation = 1): Promise<string> {
  const root = mkdtempSync(path.join(tmpdir(), 'almanac-mf-'));
  await publishTiny(root, ['mf'], { generation });
  return path.join(root, 'mf');
}

export async function loadMf(engine: Engine, dir: string): Promise<void> {
  await engine.exec(`ATTACH ':memory:' AS mf`);
  for (const [table, base] of [[MF_TABLES.nav, NAV_FILE_BASE], [MF_TABLES.latest, LATEST_FILE_BASE]] as const) {
    const file = `${base}.csv.gz`;
    await engine.registerFile(file, path.join(dir, file));
    await engine.exec(`CREATE TABLE mf.${table.name} (${table.columns.map((c) => `${c.name} ${c.type}`).join(', ')})`);
    await engine.exec(`INSERT INTO mf.${table.name} BY NAME SELECT * FROM read_csv('${file}', header = true, all_varchar = true)`);
  }
}
