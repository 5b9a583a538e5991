import type { Engine } from '../../engine/engine.js';

/** The store's record of the synced generation (main.sync_status), when the store wrote one. */
export const SYNC_STATUS_EXISTS_SQL = `SELECT count(*) AS n FROM duckdb_tables() WHERE schema_name = 'main' AND table_name = 'sync_status'`;
export const GENERATED_AT_SQL = `SELECT max(generated_at) AS g FROM main.sync_status WHERE dataset = 'mf'`;
/** Without it: midnight UTC after the newest NAV date (a new day of NAVs moves it). */
export const NEWEST_NAV_SQL = `SELECT max(nav_date) AS d FROM mf.latest`;

/**
 * When the local MF data last changed, for Last-Modified / If-Modified-Since: the publish time of the
 * synced generation, so a revision without a new NAV day still counts as a change.
 */
export async function dataLastModified(engine: Engine): Promise<Date> {
  const [{ n }] = await engine.all<{ n: number }>(SYNC_STATUS_EXISTS_SQL);
  if (n > 0) {
    const [{ g }] = await engine.all<{ g: string | null }>(GENERATED_AT_SQL);
    if (g && Number.isFinite(Date.parse(g))) return new Date(Date.parse(g));
  }
  const [{ d }] = await engine.all<{ d: string | null }>(NEWEST_NAV_SQL);
  return new Date(d ? Date.parse(`${d}T00:00:00Z`) + 86_400_000 : 0);
}

/** HTTP dates have whole seconds: unchanged when the client's copy is at least as new as the data. */
export function notModifiedSince(lastModified: Date, ifModifiedSince: string | undefined): boolean {
  if (!ifModifiedSince) return false;
  const since = Date.parse(ifModifiedSince);
  return Number.isFinite(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}
