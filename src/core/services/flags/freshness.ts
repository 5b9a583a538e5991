import type { Engine } from '../../engine/engine.js';
import {
  TABLE_NAMES,
  FLAGS_TABLES,
  type FlagsTable,
  type FreshnessResponse,
  type SyncInfo,
  type TableInfo,
  type TablesResponse,
} from '../../contract/flags.js';
import { hasSyncStatus } from '../sync-status.js';
import { tableRef } from './sources.js';

/** Per table: rows, companies and the span of its date column. */
export const TABLE_STATS_SQL = TABLE_NAMES.map(
  (t) =>
    `SELECT '${t}' AS name, count(*) AS row_count, count(DISTINCT symbol) AS companies, ` +
    `min("${FLAGS_TABLES[t].dateColumn}") AS first_date, max("${FLAGS_TABLES[t].dateColumn}") AS last_date FROM ${tableRef(t)}`,
).join('\nUNION ALL\n');

export const SYNC_STATUS_SQL = `SELECT last_sync, generated_at FROM main.sync_status WHERE dataset = 'flags'`;

/** Null fields when the data was loaded without a sync (then nobody knows when it was fetched). */
export async function syncInfo(engine: Engine): Promise<SyncInfo> {
  if (!(await hasSyncStatus(engine))) return { last_synced_at: null, generated_at: null };
  const [row] = await engine.all<{ last_sync: string | null; generated_at: string | null }>(SYNC_STATUS_SQL);
  return { last_synced_at: row?.last_sync ?? null, generated_at: row?.generated_at ?? null };
}

type Stats = Omit<TableInfo, 'description' | 'date_column' | 'last_synced_at'>;

async function tableStats(engine: Engine): Promise<Map<FlagsTable, Stats>> {
  const rows = await engine.all<Stats>(TABLE_STATS_SQL);
  return new Map(rows.map((r) => [r.name, r]));
}

export async function listTables(engine: Engine): Promise<TablesResponse> {
  const stats = await tableStats(engine);
  const sync = await syncInfo(engine);
  const tables = TABLE_NAMES.map((t): TableInfo => {
    const s = stats.get(t)!;
    return {
      name: t,
      description: FLAGS_TABLES[t].description,
      row_count: s.row_count,
      companies: s.companies,
      date_column: FLAGS_TABLES[t].dateColumn,
      first_date: s.first_date,
      last_date: s.last_date,
      last_synced_at: sync.last_synced_at,
    };
  });
  return { count: tables.length, total_rows: tables.reduce((n, t) => n + t.row_count, 0), tables };
}

export async function freshness(engine: Engine): Promise<FreshnessResponse> {
  const stats = await tableStats(engine);
  const sync = await syncInfo(engine);
  const tables = TABLE_NAMES.map((t) => {
    const s = stats.get(t)!;
    return { table: t, row_count: s.row_count, last_date: s.last_date, last_synced_at: sync.last_synced_at };
  });
  return { ...sync, total_rows: tables.reduce((n, t) => n + t.row_count, 0), tables };
}
