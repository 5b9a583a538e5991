import type { Engine } from '../engine/engine.js';

/**
 * The store keeps one row of sync metadata per dataset in main.sync_status (src/core/database); data
 * attached by hand has none. Only the open database's own `main` counts: every attached database
 * has a `main` schema too.
 */
export const SYNC_STATUS_EXISTS_SQL = `SELECT count(*) AS n FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main' AND table_name = 'sync_status'`;

/** Whether the store recorded its syncs (main.sync_status exists), so the services may read it. */
export async function hasSyncStatus(engine: Engine): Promise<boolean> {
  const [{ n }] = await engine.all<{ n: number }>(SYNC_STATUS_EXISTS_SQL);
  return n > 0;
}
