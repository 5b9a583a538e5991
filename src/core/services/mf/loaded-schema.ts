import type { Engine } from '../../engine/engine.js';
import { SCHEMA_CHANGED, SCHEMA_NOTES, SCHEMA_VERSION } from '../../contract/mf.js';
import type { DriftNotice } from '../../sync/drift.js';
import { hasSyncStatus } from '../sync-status.js';

/** The schema the sync recorded for MF (main.sync_status; notes and notices as JSON text). */
export const SYNC_SCHEMA_SQL = `
SELECT schema_version, local_schema_version, schema_changed, schema_notes, drift FROM main.sync_status WHERE dataset = 'mf'`;

/**
 * The columns of the MF tables as they are attached now, extra columns a drifted file brought included.
 * duckdb_columns() lists views too (a refreshed history is the view mf.nav); names starting with `_`
 * are the sync's own (the history's delta table).
 */
export const LOADED_COLUMNS_SQL = `
SELECT table_name AS "table", column_name AS name, data_type AS type FROM duckdb_columns()
WHERE database_name = 'mf' AND NOT starts_with(table_name, '_') ORDER BY table_name, column_index`;

export interface LoadedSchema {
  /** The version the local tables hold (the contract's when the data was not loaded by a sync). */
  schema_version: number;
  /** The publisher's version at the last sync; null when unknown. */
  publisher_schema_version: number | null;
  schema_changed: string;
  schema_notes: readonly string[];
  /** Schema drift met by the syncs: accepted and refused differences from the contract. */
  drift: DriftNotice[];
  tables: Record<string, { name: string; type: string }[]>;
}

/** What the local /mf/v1/ catalog reports: the schema actually loaded, not the one the app was built for. */
export async function loadedSchema(engine: Engine): Promise<LoadedSchema> {
  const tables: LoadedSchema['tables'] = {};
  for (const c of await engine.all<{ table: string; name: string; type: string }>(LOADED_COLUMNS_SQL)) {
    (tables[c.table] ??= []).push({ name: c.name, type: c.type });
  }
  const out: LoadedSchema = {
    schema_version: SCHEMA_VERSION, publisher_schema_version: null, schema_changed: SCHEMA_CHANGED,
    schema_notes: SCHEMA_NOTES, drift: [], tables,
  };
  if (!(await hasSyncStatus(engine))) return out;
  const [s] = await engine.all<{
    schema_version: number | null; local_schema_version: number | null; schema_changed: string | null; schema_notes: string | null; drift: string | null;
  }>(SYNC_SCHEMA_SQL);
  if (!s) return out;
  const notes = s.schema_notes ? (JSON.parse(s.schema_notes) as string[]) : [];
  return {
    ...out,
    schema_version: s.local_schema_version ?? s.schema_version ?? SCHEMA_VERSION,
    publisher_schema_version: s.schema_version,
    schema_changed: s.schema_changed ?? SCHEMA_CHANGED,
    schema_notes: notes.length ? notes : SCHEMA_NOTES,
    drift: s.drift ? (JSON.parse(s.drift) as DriftNotice[]) : [],
  };
}
