/**
 * Loads a generated flags directory into a DuckDB-WASM engine the way the app sees it: schema
 * `flags` with the contract's tables. read_csv over the published .csv.gz works offline in
 * DuckDB-WASM (read_parquet does not), and the contract's types keep DECIMALs exact.
 */
import path from 'node:path';
import type { Engine } from '../../../src/core/engine/engine.js';
import { TABLE_NAMES, FLAGS_TABLES, createTableSql, tableFileName } from '../../../src/core/contract/flags.js';

export async function loadFlags(engine: Engine, dir: string): Promise<void> {
  await engine.exec(`ATTACH ':memory:' AS flags`);
  for (const t of TABLE_NAMES) {
    const name = `flags-${t}.csv.gz`;
    await engine.registerFile(name, path.join(dir, tableFileName(t, 'csv.gz')));
    const types = FLAGS_TABLES[t].columns.map((c) => `'${c.name}': '${c.type}'`).join(', ');
    await engine.exec(createTableSql(t));
    await engine.exec(`INSERT INTO flags.${t} SELECT * FROM read_csv('${name}', header = true, columns = {${types}})`);
  }
}
