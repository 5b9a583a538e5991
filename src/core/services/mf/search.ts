import type { Engine, Param } from '../../engine/engine.js';
import {
  BROWSE_VOCABULARY_FILTERS,
  SEARCH_TEXT_FILTERS,
  type SearchParams,
  type SearchTextFilter,
} from '../../contract/mf-params.js';

/**
 * Relevance of a plain-q match (higher first): the tier plus ACTIVE_BONUS for a live scheme. Tiers
 * are 20 apart and the bonus is 10, so a live scheme beats a matured one only within the same tier.
 */
export const RELEVANCE_TIERS = {
  exact_id: 100, // q is the scheme code, its ISIN or its reinvestment ISIN
  name_prefix: 80, // the name starts with q
  whole_words: 60, // q appears as whole words in the name
  contains: 40, // the name contains q anywhere
  all_words: 20, // every word of q appears in the name, in any order
} as const;
export const ACTIVE_BONUS = 10;

/** Snapshot column(s) each text filter reads. `exclude` reads the name and the AMC, never the category. */
const FILTER_COLUMNS: Record<SearchTextFilter, readonly string[]> = {
  category: ['category'],
  sub_category: ['category_sub'],
  group: ['category_group_clean', 'category_group'],
  amc: ['amc'],
  plan: ['scheme_plan'],
  option: ['scheme_option'],
  scheme_type: ['scheme_type'],
  isin: ['isin', 'isin2'],
  txic_code: ['txic_code'],
  exclude: ['scheme_name', 'amc'],
};

/** Column whose distinct values a zero-match browse lists for each vocabulary filter. */
const VOCABULARY_COLUMN: Record<(typeof BROWSE_VOCABULARY_FILTERS)[number], string> = {
  group: 'category_group_clean',
  category: 'category',
  sub_category: 'category_sub',
  plan: 'scheme_plan',
  option: 'scheme_option',
  scheme_type: 'scheme_type',
  amc: 'amc',
  txic_code: 'txic_code',
};

/** SQL with its bound values in placeholder order, built side by side. */
interface Bound {
  sql: string;
  params: Param[];
}

const and = (parts: Bound[]): Bound =>
  parts.length ? { sql: parts.map((p) => p.sql).join('\n    AND '), params: parts.flatMap((p) => p.params) } : { sql: 'true', params: [] };

/**
 * A text filter: any of its (lower-cased) items contained in any of its columns; `exclude` is the
 * negation. One placeholder per item and column. DuckDB plans a parameterised statement over a table
 * afresh on every execution, so a statement with only the predicates in use both plans and runs
 * faster than one with all of them and NULL for the unused (measured: docs/performance.md).
 */
function textPredicate(f: SearchTextFilter, items: string[]): Bound {
  const tests = items.flatMap((x) => FILTER_COLUMNS[f].map((c) => ({ sql: `contains(lower(coalesce(l.${c}, '')), ?)`, x })));
  const any = `(${tests.map((t) => t.sql).join(' OR ')})`;
  return { sql: f === 'exclude' ? `NOT ${any}` : any, params: tests.map((t) => t.x) };
}

const ACTIVE_PREDICATE: Record<SearchParams['active'], string | null> = { all: null, active: 'l.is_active', matured: 'NOT l.is_active' };

/** The date windows given, each a bound comparison. */
function datePredicates(s: SearchParams): Bound {
  const bounds = [
    ['l.first_date >=', s.first_date_from],
    ['l.first_date <=', s.first_date_to],
    ['l.last_date >=', s.last_date_from],
    ['l.last_date <=', s.last_date_to],
  ] as const;
  return and(bounds.flatMap(([cmp, d]) => (d === undefined ? [] : [{ sql: `${cmp} ?::DATE`, params: [d] }])));
}

const activeBound = (s: SearchParams): Bound[] => (ACTIVE_PREDICATE[s.active] ? [{ sql: ACTIVE_PREDICATE[s.active]!, params: [] }] : []);

/** Every filter in use, ANDed (text filters in contract order, then active, then dates). */
function filtersWhere(s: SearchParams): Bound {
  const text = SEARCH_TEXT_FILTERS.flatMap((f) => (s.filters[f] ? [textPredicate(f, s.filters[f]!)] : []));
  const dates = datePredicates(s);
  return and([...text, ...activeBound(s), ...(dates.params.length ? [dates] : [])]);
}

/**
 * q is scored against the name normalised two ways: `lname` lower-cased with whitespace runs as one
 * space (some names are filed double-spaced), and `wname` with every run of non-alphanumerics as one
 * space and a space at each end, so " mid cap " finds "MID-CAP" as words. Regular expressions are
 * slow in DuckDB-WASM, so they run only on candidate names, which contain q's words (every name tier
 * implies it); the code and ISIN tier needs no name.
 */
/**
 * Cheap test that a name may match q: it contains q's first four words (all tiers imply it). Without
 * q no name is scored, so no row is a candidate (a missing word reads as '', contained in every name).
 * The lower-cased name is computed once per row (`low`) and the test once (`is_candidate`): written
 * inline, DuckDB evaluated lower() for every use, ten times a row, most of a plain q search's time.
 */
const CANDIDATE = `q.q IS NOT NULL AND ((q.wq IS NULL AND contains(n.low, q.lq)) OR (${[1, 2, 3, 4]
  .map((i) => `contains(n.low, coalesce(q.w[${i}], ''))`)
  .join(' AND ')}))`;

/** The rows matching the filters with q's tier for each. */
function scoredCte(q: string, where: Bound): Bound {
  return {
    sql: `WITH pq AS (
  SELECT p.q, lower(p.q) AS lq, upper(p.q) AS uq, nullif(trim(regexp_replace(lower(p.q), '[^a-z0-9]+', ' ', 'g')), '') AS wq
  FROM (SELECT ?::VARCHAR AS q) p
),
pw AS (SELECT pq.*, string_split(pq.wq, ' ') AS w FROM pq),
lowered AS (
  SELECT l.*, lower(l.scheme_name) AS low
  FROM mf.latest l
  WHERE ${where.sql}
),
candidates AS (
  SELECT n.*, ${CANDIDATE} AS is_candidate
  FROM lowered n, pw q
),
named AS (
  SELECT c.* EXCLUDE (low, is_candidate),
    CASE WHEN c.is_candidate THEN regexp_replace(c.low, '\\s+', ' ', 'g') END AS lname,
    CASE WHEN c.is_candidate THEN ' ' || trim(regexp_replace(c.low, '[^a-z0-9]+', ' ', 'g')) || ' ' END AS wname
  FROM candidates c
),
scored AS (
  SELECT n.* EXCLUDE (lname, wname),
    CASE
      WHEN n.scheme_code::VARCHAR = q.q OR upper(n.isin) = q.uq OR upper(n.isin2) = q.uq THEN ${RELEVANCE_TIERS.exact_id}
      WHEN n.lname IS NULL THEN 0
      WHEN starts_with(n.lname, q.lq) OR starts_with(n.wname, ' ' || q.wq) THEN ${RELEVANCE_TIERS.name_prefix}
      WHEN contains(n.wname, ' ' || q.wq || ' ') THEN ${RELEVANCE_TIERS.whole_words}
      WHEN contains(n.lname, q.lq) THEN ${RELEVANCE_TIERS.contains}
      WHEN len(list_filter(q.w, w -> NOT contains(n.wname, w))) = 0 THEN ${RELEVANCE_TIERS.all_words}
      ELSE 0
    END AS tier
  FROM named n, pw q
)`,
    params: [q, ...where.params],
  };
}

const RESULT_COLUMNS = `scheme_code, scheme_name, isin, isin2, amc, scheme_type, category_group, category_group_clean, category,
       category_sub, txic_code, scheme_plan, scheme_option, first_date, last_date, is_active, is_stale, nav, nav_date`;

/**
 * The page and the total in one statement. Without q there is nothing to score: the rows come
 * straight from the snapshot (relevance NULL); with q only names scoring above 0 match.
 */
export function searchSql(s: SearchParams): Bound {
  const where = filtersWhere(s);
  const page = `ORDER BY relevance DESC NULLS LAST, scheme_name, scheme_code
LIMIT ? OFFSET ?`;
  if (s.q === undefined) {
    return {
      sql: `SELECT ${RESULT_COLUMNS}, NULL::INTEGER AS relevance, count(*) OVER () AS total_matches
FROM mf.latest l
WHERE ${where.sql}
${page}`,
      params: [...where.params, s.limit, s.offset],
    };
  }
  const scored = scoredCte(s.q, where);
  return {
    sql: `${scored.sql}
SELECT ${RESULT_COLUMNS},
       tier + CASE WHEN is_active THEN ${ACTIVE_BONUS} ELSE 0 END AS relevance,
       count(*) OVER () AS total_matches
FROM scored
WHERE tier > 0
${page}`,
    params: [...scored.params, s.limit, s.offset],
  };
}

/** The total when the page is empty (an offset past the end), where the window count is not there. */
export function searchCountSql(s: SearchParams): Bound {
  const where = filtersWhere(s);
  if (s.q === undefined) return { sql: `SELECT count(*) AS n FROM mf.latest l WHERE ${where.sql}`, params: where.params };
  const scored = scoredCte(s.q, where);
  return { sql: `${scored.sql}\nSELECT count(*) AS n FROM scored WHERE tier > 0`, params: scored.params };
}

type VocabularyFilter = (typeof BROWSE_VOCABULARY_FILTERS)[number];

/**
 * For each vocabulary filter used, in one scan: its column's distinct values under every other
 * filter in use (`faceted_<f>`, so the list fits the browse) and under `active` alone (`bare_<f>`,
 * the whole vocabulary). Each predicate is computed once per row, then combined per list. Sorted like
 * ORDER BY.
 */
export function vocabularySql(s: SearchParams, used: readonly VocabularyFilter[]): Bound {
  const text = SEARCH_TEXT_FILTERS.flatMap((f) => (s.filters[f] ? [[f, textPredicate(f, s.filters[f]!)] as const] : []));
  const dates = datePredicates(s);
  const flags: Bound[] = [
    ...text.map(([f, b]) => ({ sql: `${b.sql} AS m_${f}`, params: b.params })),
    { sql: `${ACTIVE_PREDICATE[s.active] ?? 'true'} AS m_active`, params: [] },
    { sql: `${dates.sql} AS m_dates`, params: dates.params },
  ];
  const lists = used.flatMap((f) => {
    const c = VOCABULARY_COLUMN[f];
    const others = text.filter(([o]) => o !== f).map(([o]) => `m_${o}`);
    const values = (where: string) => `list_sort(list_distinct(list(${c}) FILTER (WHERE ${where} AND ${c} <> '')))`;
    return [`${values([...others, 'm_active', 'm_dates'].join(' AND '))} AS faceted_${f}`, `${values('m_active')} AS bare_${f}`];
  });
  const columns = [...new Set(used.map((f) => `l.${VOCABULARY_COLUMN[f]}`))];
  return {
    sql: `WITH m AS (
  SELECT ${columns.join(', ')},
    ${flags.map((b) => b.sql).join(',\n    ')}
  FROM mf.latest l
)
SELECT ${lists.join(',\n  ')}
FROM m`,
    params: flags.flatMap((b) => b.params),
  };
}

export interface CompactResult {
  scheme_code: number;
  scheme_name: string;
  isin: string | null;
  isin2: string | null;
  category_sub: string | null;
  is_active: boolean;
  relevance: number;
}

export interface RichResult extends Omit<CompactResult, 'relevance'> {
  amc: string;
  scheme_type: string | null;
  category_group: string;
  category_group_clean: string;
  category: string;
  txic_code: string | null;
  scheme_plan: string;
  scheme_option: string;
  first_date: string;
  last_date: string;
  is_stale: boolean | null;
  nav: number;
  nav_date: string;
  /** Present when q was given. */
  relevance?: number;
}

export interface CompactSearchResponse {
  query: string;
  count: number;
  results: CompactResult[];
}

export interface BrowseResponse {
  query: string | null;
  count: number;
  total_matches: number;
  limit: number;
  offset: number;
  results: RichResult[];
  /** Zero matches only: the values each vocabulary filter used could take. */
  valid_values?: Partial<Record<(typeof BROWSE_VOCABULARY_FILTERS)[number], string[]>>;
}

/** GET /search with `q` and no filter (`s.filtered` false): the compact shape, best matches first. */
export async function quickSearch(engine: Engine, s: SearchParams): Promise<CompactSearchResponse> {
  const statement = searchSql(s);
  const rows = await engine.all<RichResult>(statement.sql, statement.params);
  const results = rows.map(({ scheme_code, scheme_name, isin, isin2, category_sub, is_active, relevance }) => ({
    scheme_code, scheme_name, isin, isin2, category_sub, is_active, relevance: relevance!,
  }));
  return { query: s.q!, count: results.length, results };
}

/** GET /search with a filter (`s.filtered`): the browse shape, a page of full rows with the total. */
export async function browse(engine: Engine, s: SearchParams): Promise<BrowseResponse> {
  const statement = searchSql(s);
  const rows = await engine.all<RichResult & { total_matches: number }>(statement.sql, statement.params);
  // An empty first page means no match; only a page past the end needs the count on its own.
  const count = searchCountSql(s);
  const total = rows.length > 0 ? rows[0].total_matches : s.offset === 0 ? 0 : (await engine.all<{ n: number }>(count.sql, count.params))[0].n;
  const results = rows.map(({ total_matches: _t, relevance, ...r }) => (s.q === undefined ? r : { ...r, relevance }));
  const out: BrowseResponse = { query: s.q ?? null, count: results.length, total_matches: total, limit: s.limit, offset: s.offset, results };
  if (total === 0) {
    const used = BROWSE_VOCABULARY_FILTERS.filter((f) => s.filters[f]);
    if (used.length) {
      // Each filter's values under the other filters; when those leave nothing, the whole vocabulary.
      const vocabulary = vocabularySql(s, used);
      const [lists] = await engine.all<Record<string, string[] | null>>(vocabulary.sql, vocabulary.params);
      out.valid_values = {};
      for (const f of used) {
        const faceted = lists[`faceted_${f}`] ?? [];
        out.valid_values[f] = faceted.length ? faceted : lists[`bare_${f}`] ?? [];
      }
    }
  }
  return out;
}
