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

/** True when any item of the bound comma list (lower-cased) is contained in any of the columns. */
function anyContains(list: string, columns: readonly string[]): string {
  const hay = columns.map((c) => `contains(lower(coalesce(l.${c}, '')), x)`).join(' OR ');
  return `len(list_filter(string_split(${list}, ','), x -> ${hay})) > 0`;
}

/**
 * Every parameter is bound once in the `p` row; an unused filter is NULL and its predicate true, so
 * one statement serves every combination. Text filters arrive as lower-cased comma lists.
 */
const PARAMS_CTE = `p AS (
  SELECT ?::VARCHAR AS q, ${SEARCH_TEXT_FILTERS.map((f) => `?::VARCHAR AS f_${f}`).join(', ')},
         ?::VARCHAR AS active, ?::DATE AS fdf, ?::DATE AS fdt, ?::DATE AS ldf, ?::DATE AS ldt
)`;

/** Each text filter's predicate; an unused filter (NULL) passes every row. */
const TEXT_PREDICATES = Object.fromEntries(
  SEARCH_TEXT_FILTERS.map((f) => [
    f,
    f === 'exclude'
      ? `(p.f_exclude IS NULL OR NOT (${anyContains('p.f_exclude', FILTER_COLUMNS.exclude)}))`
      : `(p.f_${f} IS NULL OR ${anyContains(`p.f_${f}`, FILTER_COLUMNS[f])})`,
  ]),
) as Record<SearchTextFilter, string>;
const ACTIVE_PREDICATE = `(p.active = 'all' OR l.is_active = (p.active = 'active'))`;
const DATE_PREDICATES = [
  `(p.fdf IS NULL OR l.first_date >= p.fdf)`,
  `(p.fdt IS NULL OR l.first_date <= p.fdt)`,
  `(p.ldf IS NULL OR l.last_date >= p.ldf)`,
  `(p.ldt IS NULL OR l.last_date <= p.ldt)`,
];

const FILTERS_WHERE = [...Object.values(TEXT_PREDICATES), ACTIVE_PREDICATE, ...DATE_PREDICATES].join('\n    AND ');

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
 */
const CANDIDATE = `q.q IS NOT NULL AND ((q.wq IS NULL AND contains(lower(l.scheme_name), q.lq)) OR (${[1, 2, 3, 4]
  .map((i) => `contains(lower(l.scheme_name), coalesce(q.w[${i}], ''))`)
  .join(' AND ')}))`;

const SCORED_CTE = `WITH ${PARAMS_CTE},
pq AS (
  SELECT p.q, lower(p.q) AS lq, upper(p.q) AS uq, nullif(trim(regexp_replace(lower(p.q), '[^a-z0-9]+', ' ', 'g')), '') AS wq
  FROM p
),
pw AS (SELECT pq.*, string_split(pq.wq, ' ') AS w FROM pq),
named AS (
  SELECT l.*,
    CASE WHEN ${CANDIDATE} THEN regexp_replace(lower(l.scheme_name), '\\s+', ' ', 'g') END AS lname,
    CASE WHEN ${CANDIDATE} THEN ' ' || trim(regexp_replace(lower(l.scheme_name), '[^a-z0-9]+', ' ', 'g')) || ' ' END AS wname
  FROM mf.latest l, p, pw q
  WHERE ${FILTERS_WHERE}
),
scored AS (
  SELECT n.* EXCLUDE (lname, wname),
    CASE
      WHEN q.q IS NULL THEN NULL
      WHEN n.scheme_code::VARCHAR = q.q OR upper(n.isin) = q.uq OR upper(n.isin2) = q.uq THEN ${RELEVANCE_TIERS.exact_id}
      WHEN n.lname IS NULL THEN 0
      WHEN starts_with(n.lname, q.lq) OR starts_with(n.wname, ' ' || q.wq) THEN ${RELEVANCE_TIERS.name_prefix}
      WHEN contains(n.wname, ' ' || q.wq || ' ') THEN ${RELEVANCE_TIERS.whole_words}
      WHEN contains(n.lname, q.lq) THEN ${RELEVANCE_TIERS.contains}
      WHEN len(list_filter(q.w, w -> NOT contains(n.wname, w))) = 0 THEN ${RELEVANCE_TIERS.all_words}
      ELSE 0
    END AS tier
  FROM named n, pw q
)`;

export const SEARCH_SQL = `${SCORED_CTE}
SELECT scheme_code, scheme_name, isin, isin2, amc, scheme_type, category_group, category_group_clean, category,
       category_sub, txic_code, scheme_plan, scheme_option, first_date, last_date, is_active, is_stale, nav, nav_date,
       tier + CASE WHEN is_active THEN ${ACTIVE_BONUS} ELSE 0 END AS relevance,
       count(*) OVER () AS total_matches
FROM scored
WHERE tier IS NULL OR tier > 0
ORDER BY relevance DESC NULLS LAST, scheme_name, scheme_code
LIMIT ? OFFSET ?`;

/** The total when the page is empty (an offset past the end), where the window count is not there. */
export const SEARCH_COUNT_SQL = `${SCORED_CTE}
SELECT count(*) AS n FROM scored WHERE tier IS NULL OR tier > 0`;

type VocabularyFilter = (typeof BROWSE_VOCABULARY_FILTERS)[number];

/**
 * For each vocabulary filter used, in one scan: its column's distinct values under every other
 * filter (`faceted_<f>`, so the list fits the browse) and under `active` alone (`bare_<f>`, the whole
 * vocabulary). Each predicate is computed once per row, then combined per list. Sorted like ORDER BY.
 */
export function vocabularySql(used: readonly VocabularyFilter[]): string {
  const lists = used.flatMap((f) => {
    const c = VOCABULARY_COLUMN[f];
    const others = SEARCH_TEXT_FILTERS.filter((o) => o !== f).map((o) => `m_${o}`);
    const values = (where: string) => `list_sort(list_distinct(list(${c}) FILTER (WHERE ${where} AND ${c} <> '')))`;
    return [
      `${values([...others, 'm_active', 'm_dates'].join(' AND '))} AS faceted_${f}`,
      `${values('m_active')} AS bare_${f}`,
    ];
  });
  const columns = [...new Set(used.map((f) => `l.${VOCABULARY_COLUMN[f]}`))];
  return `WITH ${PARAMS_CTE},
m AS (
  SELECT ${columns.join(', ')},
    ${SEARCH_TEXT_FILTERS.map((f) => `${TEXT_PREDICATES[f]} AS m_${f}`).join(',\n    ')},
    ${ACTIVE_PREDICATE} AS m_active,
    ${DATE_PREDICATES.join(' AND ')} AS m_dates
  FROM mf.latest l, p
)
SELECT ${lists.join(',\n  ')}
FROM m`;
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

/** Bound values in PARAMS_CTE order. */
function bind(s: SearchParams): Param[] {
  const dates = [s.first_date_from, s.first_date_to, s.last_date_from, s.last_date_to];
  return [s.q ?? null, ...SEARCH_TEXT_FILTERS.map((f) => s.filters[f]?.join(',') ?? null), s.active, ...dates.map((d) => d ?? null)];
}

export async function search(engine: Engine, s: SearchParams): Promise<CompactSearchResponse | BrowseResponse> {
  const rows = await engine.all<RichResult & { total_matches: number }>(SEARCH_SQL, [...bind(s), s.limit, s.offset]);
  if (!s.filtered) {
    const results = rows.map(({ scheme_code, scheme_name, isin, isin2, category_sub, is_active, relevance }) => ({
      scheme_code, scheme_name, isin, isin2, category_sub, is_active, relevance: relevance!,
    }));
    return { query: s.q!, count: results.length, results };
  }
  // An empty first page means no match; only a page past the end needs the count on its own.
  const total =
    rows.length > 0 ? rows[0].total_matches : s.offset === 0 ? 0 : (await engine.all<{ n: number }>(SEARCH_COUNT_SQL, bind(s)))[0].n;
  const results = rows.map(({ total_matches: _t, relevance, ...r }) => (s.q === undefined ? r : { ...r, relevance }));
  const out: BrowseResponse = { query: s.q ?? null, count: results.length, total_matches: total, limit: s.limit, offset: s.offset, results };
  if (total === 0) {
    const used = BROWSE_VOCABULARY_FILTERS.filter((f) => s.filters[f]);
    if (used.length) {
      // Each filter's values under the other filters; when those leave nothing, the whole vocabulary.
      const [lists] = await engine.all<Record<string, string[] | null>>(vocabularySql(used), bind(s));
      out.valid_values = {};
      for (const f of used) {
        const faceted = lists[`faceted_${f}`] ?? [];
        out.valid_values[f] = faceted.length ? faceted : lists[`bare_${f}`] ?? [];
      }
    }
  }
  return out;
}
