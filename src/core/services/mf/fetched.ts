import type { Engine } from '../../engine/engine.js';
import { perGeneration } from '../../engine/generation.js';
import type { SchemeNav } from './nav.js';

/**
 * Fund histories a light copy (no `mf.nav`, docs/mobile.md) fetched one scheme at a time from the
 * publisher's NAV endpoint, held for SQL as `mf_fetched.nav`: compare reads its funds' prices there,
 * and the SQL workbench lists it. The histories themselves are kept by the front door (the app keeps
 * them in IndexedDB); this database lives in memory and is filled again from them when asked, so it
 * is never a second copy on disk and needs no switch.
 */
export const FETCHED_DATABASE = 'mf_fetched';

/** mf.nav's columns, so a query written for one reads the other. */
const CREATE = `CREATE TABLE ${FETCHED_DATABASE}.nav (
  scheme_code INTEGER, date DATE, nav DECIMAL(18,4), scheme_name VARCHAR, isin VARCHAR)`;

/** One scheme's points, bound as two comma lists zipped by unnest (the engine takes scalar parameters only). */
const INSERT = `INSERT INTO ${FETCHED_DATABASE}.nav
SELECT ?::INTEGER, CAST(d AS DATE), CAST(v AS DECIMAL(18,4)), ?, ?
FROM (SELECT unnest(string_split(?, ',')) AS d, unnest(string_split(?, ',')) AS v)`;

const HELD = `SELECT count(*) AS n FROM duckdb_tables() WHERE database_name = '${FETCHED_DATABASE}' AND table_name = 'nav'`;

/** What each engine holds now, by scheme, latest date and count: the same histories are not held again. */
const held = new WeakMap<Engine, string>();

/**
 * Replaces what `mf_fetched.nav` holds with these histories (one per scheme; the first of a repeated
 * code wins). A 0.00 end-of-life NAV is kept as published: readers leave it out as they do in mf.nav.
 * Holding the same histories again costs one catalog lookup (Compare asks before every comparison).
 */
export async function holdFetchedNavs(engine: Engine, navs: readonly SchemeNav[]): Promise<number> {
  const seen = new Set<number>();
  const hold = navs.filter((s) => s.data.length && !seen.has(s.scheme_code) && seen.add(s.scheme_code));
  const rows = hold.reduce((n, s) => n + s.data.length, 0);
  const signature = hold.map((s) => `${s.scheme_code}:${s.latest_available_date}:${s.count}`).join(',');
  const [{ n }] = await engine.all<{ n: number }>(HELD);
  if (Number(n) > 0 && held.get(engine) === signature) return rows;
  // Emptied, not replaced: a replaced table is a catalog change, after which the engine prepares its
  // kept statements anew (Compare's planning again, ~30 ms at demo scale; before the engines did, it
  // left every later comparison ~2.2x slower: docs/performance.md, "Kept statements after a catalog change").
  if (Number(n) === 0) await engine.exec(`ATTACH IF NOT EXISTS ':memory:' AS ${FETCHED_DATABASE}; ${CREATE}`);
  else await engine.exec(`DELETE FROM ${FETCHED_DATABASE}.nav`);
  held.delete(engine);
  for (const s of hold) {
    await engine.all(INSERT, [
      String(s.scheme_code),
      s.scheme_name,
      s.isin,
      s.data.map((p) => p.date).join(','),
      s.data.map((p) => String(p.nav)).join(','),
    ]);
  }
  held.set(engine, signature);
  return rows;
}

const COPY = `SELECT count(*) FILTER (WHERE name = 'latest') AS latest, count(*) FILTER (WHERE name = 'nav') AS nav
FROM (SELECT table_name AS name FROM duckdb_tables() WHERE database_name = 'mf'
      UNION ALL SELECT view_name FROM duckdb_views() WHERE database_name = 'mf')`;

/**
 * Whether the store keeps the light copy: MF's snapshot (mf.latest) without its history (mf.nav). Asked
 * once per data generation: listing the catalog loads every attached database's metadata (see
 * services/sync-status.ts), and Compare, the SQL view and each sync's end ask.
 */
export function lightCopy(engine: Engine): Promise<boolean> {
  return perGeneration(engine, 'mf:light-copy', async () => {
    const [{ latest, nav }] = await engine.all<{ latest: number; nav: number }>(COPY);
    return Number(latest) > 0 && Number(nav) === 0;
  });
}
