/**
 * Corrected past NAVs (`npm run gen -- --revise N`, issue 20): a generation that revises publishes the
 * same rows as without, with N existing past NAVs changed. A past NAV is one that is not its scheme's
 * latest as of the revising generation, so the latest snapshot is untouched, and not a 0.00 end of
 * life. Which rows, and by how much, is a hash of (seed, generation, scheme, date); corrections stay in
 * every later generation, applied in the order they were published.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Timeline } from './timeline.js';

/** Candidates drawn per requested row: a few land on a scheme's latest row and are passed over. */
const DRAW = 4;

export async function applyRevisions(conn: DuckDBConnection, seed: number, t: Pick<Timeline, 'dates' | 'revisions'>): Promise<void> {
  const s = Math.trunc(seed);
  for (const { generation: g, count } of t.revisions) {
    const asOf = t.dates[g - 1];
    const key = `hash(${s}, ${g}, scheme_code, date)`;
    // A top-N over the hash, not a sort of the whole history: this runs on 38M rows at full scale.
    await conn.run(`CREATE OR REPLACE TEMP TABLE revised AS
      WITH cand AS (
        SELECT scheme_code, date, ${key} AS k FROM mf_nav_master
        WHERE date < '${asOf}' AND nav <> 0 ORDER BY k LIMIT ${count * DRAW + 16}
      ), latest AS (
        SELECT scheme_code, max(date) AS last FROM mf_nav_master
        WHERE date <= '${asOf}' AND scheme_code IN (SELECT scheme_code FROM cand) GROUP BY scheme_code
      )
      SELECT c.scheme_code, c.date, (1 + c.k % 9)::INTEGER AS ulps
      FROM cand c JOIN latest l USING (scheme_code) WHERE c.date < l.last ORDER BY c.k LIMIT ${count}`);
    const found = Number((await conn.runAndReadAll('SELECT count(*) FROM revised')).getRows()[0][0]);
    if (found < count) throw new Error(`--revise ${count} in generation ${g}: only ${found} past NAVs could be revised`);
    // Up by 1-9 units of the scheme's last published decimal, so the value always changes.
    await conn.run(`UPDATE mf_nav_master AS n SET nav = (n.nav + r.ulps * pow(10, -s.decimals))::DECIMAL(18,4)
      FROM revised r, sch s WHERE n.scheme_code = r.scheme_code AND n.date = r.date AND s.scheme_code = n.scheme_code`);
  }
}
