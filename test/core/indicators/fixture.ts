import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { NodeEngine } from '../../../src/core/engine/node.js';
import { publishTiny } from '../../helpers/tiny-data.js';

/**
 * Tiny sample data generated for real (test/helpers/tiny-data.ts), its indicators_all.duckdb unzipped and ATTACHed as schema
 * `indicators` in a DuckDB-WASM engine: what the store does with a synced file.
 */
export async function tinyIndicators(seed = 11): Promise<{ engine: NodeEngine; dir: string }> {
  const root = await mkdtemp(path.join(tmpdir(), 'almanac-ind-'));
  const dir = path.join(root, 'indicators');
  await publishTiny(root, ['indicators'], { seed });
  const zip = unzipSync(new Uint8Array(await readFile(path.join(dir, 'indicators_all.duckdb.zip'))));
  const db = path.join(root, 'indicators_all.duckdb');
  await writeFile(db, zip['indicators_all.duckdb']);
  const engine = await NodeEngine.open();
  await engine.exec(`ATTACH '${db.replace(/'/g, "''")}' AS indicators`);
  return { engine, dir };
}
