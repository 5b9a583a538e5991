import type { Engine } from '../../engine/engine.js';

export interface Successor {
  scheme_code: number;
  scheme_name: string;
  isin: string | null;
  first_date: string;
  last_date: string;
  is_active: boolean;
}

/**
 * A fund's name without its plan and option segment, lower-cased, punctuation as single spaces:
 * "HDFC Mid-Cap Opportunities Fund - Direct Plan - Growth" → "hdfc mid cap opportunities fund". The cut
 * is at the first hyphen that starts a plan or option word, so "Interval Fund - Annual Plan - Series 3"
 * keeps its series (a frequency word counts only before a dividend word, as in "- Monthly IDCW").
 */
const FAMILY = (t: string) => `trim(regexp_replace(
    regexp_replace(lower(${t}.scheme_name),
      '\\s*-\\s*(direct|regular|growth|idcw|dividend|bonus|payout|reinvestment|(daily|weekly|fortnightly|monthly|quarterly|half yearly|annual)\\s+(dividend|idcw|payout|reinvestment))\\b.*$', ''),
    '[^a-z0-9]+', ' ', 'g'))`;
/** The AMC's brand ("HDFC Mutual Fund" → "hdfc"), to compare fund names across a change of fund house. */
const BRAND = (t: string) => `trim(regexp_replace(regexp_replace(lower(${t}.amc), '\\s*mutual fund\\s*$', ''), '[^a-z0-9]+', ' ', 'g'))`;
/** The ended fund's name without its own brand: what the absorbing house's name must end with. */
const UNBRANDED = (t: string) => `CASE WHEN starts_with(${FAMILY(t)}, ${BRAND(t)} || ' ')
    THEN substr(${FAMILY(t)}, length(${BRAND(t)}) + 2) ELSE ${FAMILY(t)} END`;

/**
 * Merger splits, detected from the snapshot alone. An ended code's fund continues under another code
 * of the same variant (same plan; same option, or a pre-2021 "Dividend" now named IDCW) whose first NAV
 * comes within a week after the ended code's last (the next publishing day, allowing for weekends and
 * holidays; an unrelated namesake launched at another time never qualifies), where either
 * - the family name is the same (the history moved to a new code in the same house), or
 * - the fund house changed and the new name ends with the old name minus its brand (the absorbing
 *   house puts its own prefix on the fund; ISINs change issuer in a merger, so they cannot link the two).
 * Ordered live first, then by first date; the codes searched are bound as one comma list.
 */
export const SUCCESSORS_SQL = `
WITH ended AS (
  SELECT e.scheme_code, e.scheme_plan, e.scheme_option, e.last_date, ${FAMILY('e')} AS family, ${UNBRANDED('e')} AS unbranded
  FROM mf.latest e
  WHERE e.scheme_code IN (SELECT unnest(string_split(?, ','))::INTEGER) AND NOT e.is_active
)
SELECT e.scheme_code AS ended_code, s.scheme_code, s.scheme_name, s.isin, s.first_date, s.last_date, s.is_active
FROM ended e
JOIN mf.latest s
  ON s.scheme_code <> e.scheme_code
 AND s.scheme_plan = e.scheme_plan
 AND (s.scheme_option = e.scheme_option OR (e.scheme_option = 'Dividend' AND starts_with(s.scheme_option, 'IDCW')))
 AND s.first_date BETWEEN e.last_date + INTERVAL 1 DAY AND e.last_date + INTERVAL 7 DAY
 AND (${FAMILY('s')} = e.family OR ends_with(${FAMILY('s')}, ' ' || e.unbranded))
ORDER BY e.scheme_code, s.is_active DESC, s.first_date, s.scheme_code`;

export async function findSuccessors(engine: Engine, endedCodes: number[]): Promise<Map<number, Successor[]>> {
  const out = new Map<number, Successor[]>();
  if (endedCodes.length === 0) return out;
  for (const { ended_code, ...s } of await engine.all<Successor & { ended_code: number }>(SUCCESSORS_SQL, [endedCodes.join(',')])) {
    const list = out.get(ended_code) ?? [];
    list.push(s);
    out.set(ended_code, list);
  }
  return out;
}
