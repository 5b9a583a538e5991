import type { Engine } from '../engine/engine.js';
import { generationRecord, perGeneration } from '../engine/generation.js';

/**
 * The store keeps one row of sync metadata per dataset in main.sync_status (src/core/database); data
 * attached by hand has none. Only the open database's own `main` counts: every attached database has a
 * `main` schema too, and `main.sync_status` binds to the open database's.
 *
 * Asked by binding a statement that reads no row, not by listing `duckdb_tables()`: that table function
 * loads the catalog and storage metadata of every attached database, ~135 ms on a fresh engine at full
 * scale, which fell on the server's first NAV request (binding: ~9 ms; docs/performance.md).
 */
const SYNC_STATUS_PROBE_SQL = 'SELECT 1 FROM main.sync_status LIMIT 0';

/**
 * Whether the store recorded its syncs (main.sync_status exists), so the services may read it: known
 * when the store wrote it for this generation, else asked once per generation.
 */
export function hasSyncStatus(engine: Engine): Promise<boolean> {
  if (generationRecord(engine)) return Promise.resolve(true);
  return perGeneration(engine, 'sync-status:exists', async () => {
    try {
      await engine.all(SYNC_STATUS_PROBE_SQL);
      return true;
    } catch (e) {
      if (/Table with name sync_status does not exist/.test(String((e as Error)?.message ?? e))) return false;
      throw e;
    }
  });
}

/**
 * Rows, the latest taken by the caller: on a fresh engine a `max()` was DuckDB-WASM's first aggregate,
 * 49-93 ms of the server's first NAV request against 19-34 ms for the plain read (docs/performance.md).
 */
const GENERATED_AT_SQL = 'SELECT generated_at AS g FROM main.sync_status WHERE dataset = ?';

/**
 * The publish times main.sync_status records for `dataset` (none when the data was attached without a
 * sync): from what the store wrote for this generation when it did, else read.
 */
export async function recordedGeneratedAt(engine: Engine, dataset: string): Promise<string[]> {
  const record = generationRecord(engine);
  if (record) {
    const g = record.generatedAt.get(dataset);
    return g == null ? [] : [g];
  }
  if (!(await hasSyncStatus(engine))) return [];
  return (await engine.all<{ g: string | null }>(GENERATED_AT_SQL, [dataset])).flatMap((r) => (r.g == null ? [] : [r.g]));
}
