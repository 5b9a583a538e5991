import type { Engine } from '../../engine/engine.js';
import { perGeneration } from '../../engine/generation.js';
import { recordedGeneratedAt } from '../sync-status.js';

/** Without it: midnight UTC after the newest NAV date (a new day of NAVs moves it). */
export const NEWEST_NAV_SQL = `SELECT max(nav_date) AS d FROM mf.latest`;

/**
 * When the local MF data last changed, for Last-Modified / If-Modified-Since: the publish time of the
 * synced generation, so a revision without a new NAV day still counts as a change. Asked by every NAV
 * request, it is read once per data generation.
 */
export async function dataLastModified(engine: Engine): Promise<Date> {
  // kept as a number: a Date handed out is the caller's to change
  return new Date(await perGeneration(engine, 'mf:last-modified', async () => (await readLastModified(engine)).getTime()));
}

async function readLastModified(engine: Engine): Promise<Date> {
  const times = (await recordedGeneratedAt(engine, 'mf')).map((g) => Date.parse(g)).filter(Number.isFinite);
  if (times.length) return new Date(Math.max(...times));
  const [{ d }] = await engine.all<{ d: string | null }>(NEWEST_NAV_SQL);
  return new Date(d ? Date.parse(`${d}T00:00:00Z`) + 86_400_000 : 0);
}
