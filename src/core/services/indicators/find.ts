import type { Engine } from '../../engine/engine.js';
import type { FindEnvelope, FindParams, SearchHit } from '../../contract/indicators.js';

/**
 * Case-insensitive substring of id or name (contains(), so % and _ in the query are literal).
 * Best first: exact id, id prefix, name prefix, then alphabetical.
 *
 * The catalog is read through `OFFSET 0`, which keeps DuckDB's late materialization (for ORDER BY
 * with LIMIT ≤ 50 straight over a table: sort the keys, then join the table again for the rest of the
 * columns) off a 330-row table, where the second scan and join cost more than they save: CPU per call
 * at full scale 6.9 -> 4.1 ms, same rows (docs/performance.md).
 */
export const FIND_SQL = `
SELECT indicator_id, name, category, country, frequency, first_date, last_date
FROM (SELECT * FROM indicators.indicator_config OFFSET 0) c
WHERE visible AND (contains(lower(indicator_id), lower($1)) OR contains(lower(name), lower($1)))
ORDER BY lower(indicator_id) = lower($1) DESC,
         starts_with(lower(indicator_id), lower($1)) DESC,
         starts_with(lower(name), lower($1)) DESC,
         indicator_id
LIMIT $2`;

/** GET /v1/find. */
export async function find(engine: Engine, p: FindParams): Promise<FindEnvelope> {
  const matches = await engine.all<SearchHit>(FIND_SQL, [p.query, p.limit]);
  return { query: p.query, limit: p.limit, count: matches.length, matches };
}
