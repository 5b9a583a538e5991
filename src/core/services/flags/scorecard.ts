/**
 * The red-flag scorecard (an Almanac extension, documented in docs/flags.md): nine signals over the
 * seven tables, each turned into points by a fixed step rule, summed into one score per company and
 * ranked. Windows end at `as_of` (default: the latest date in the data) and reach back 12 months,
 * start excluded: (as_of − 12 months, as_of].
 */
import type { Engine } from '../../engine/engine.js';
import {
  FLAGS_DOCS_URL,
  LONG_TERM_GRADES,
  SCORECARD_WINDOW_MONTHS,
  type CompanyScorecardParams,
  type CompanyScorecardResponse,
  type ScorecardEntry,
  type ScorecardParams,
  type ScorecardResponse,
} from '../../contract/flags.js';
import { resolveCompany } from './identity.js';
import { ALL_IDENTITIES, DATA_AS_OF } from './sources.js';

const NOTCHES = LONG_TERM_GRADES.map((g, i) => `('${g}', ${i})`).join(', ');

/** The as_of asked for, else the latest date in the data. Kept out of SCORED: planned inside it, this seven-table subquery tripled the time. */
export const AS_OF_SQL = `SELECT COALESCE(?::DATE, ${DATA_AS_OF}) AS as_of`;

/** One bound parameter: as_of (a DATE). Every company scored; the changes read it for watched companies (src/core/changes). */
export const SCORED = `
WITH
win AS (
  SELECT a AS as_of, (a - INTERVAL ${SCORECARD_WINDOW_MONTHS} MONTH)::DATE AS since
  FROM (SELECT ?::DATE AS a)
),
companies AS (
  SELECT symbol, isin, min(company_name) AS company_name FROM (${ALL_IDENTITIES}) GROUP BY symbol, isin
),
notches AS (SELECT * FROM (VALUES ${NOTCHES}) AS g(grade, notch)),
-- Latest long-term grade: the most recent action that is not a withdrawal; on one day, the worse grade.
latest_rating AS (
  SELECT r.symbol, r.rating_grade, r.agency, r.rating_date, r.outlook, r.watch, n.notch
  FROM flags.credit_ratings r JOIN notches n ON n.grade = r.rating_grade, win
  WHERE r.rating_scale = 'long_term' AND r.rating_action <> 'Withdrawn' AND r.rating_date <= win.as_of
  QUALIFY row_number() OVER (PARTITION BY r.symbol ORDER BY r.rating_date DESC, n.notch DESC, r.agency, r.instrument) = 1
),
-- One agency's press release of one day is one action, however many instruments it covers.
rating_actions AS (
  SELECT symbol,
         count(DISTINCT agency || '|' || rating_date) AS actions,
         count(DISTINCT agency || '|' || rating_date) FILTER (WHERE rating_action = 'Downgraded') AS downgrades
  FROM flags.credit_ratings, win
  WHERE rating_date > win.since AND rating_date <= win.as_of
  GROUP BY symbol
),
pledge_now AS (
  SELECT p.symbol, p.quarter_end, p.pledged_pct_of_promoter AS pct
  FROM flags.pledge_data p, win
  WHERE p.quarter_end <= win.as_of
  QUALIFY row_number() OVER (PARTITION BY p.symbol ORDER BY p.quarter_end DESC) = 1
),
pledge_trend AS (
  SELECT n.symbol, n.pct - y.pledged_pct_of_promoter AS change
  FROM pledge_now n
  JOIN flags.pledge_data y ON y.symbol = n.symbol AND y.quarter_end = last_day((n.quarter_end - INTERVAL 12 MONTH)::DATE)
),
invocations AS (
  SELECT symbol, count(*) AS n
  FROM flags.encumbrance_events, win
  WHERE event_type = 'Invocation' AND event_date > win.since AND event_date <= win.as_of
  GROUP BY symbol
),
promoter_selling AS (
  SELECT symbol, sum(value_inr) AS value
  FROM flags.insider_trading, win
  WHERE person_category IN ('Promoter', 'Promoter Group') AND transaction_type = 'Sell'
    AND transaction_date > win.since AND transaction_date <= win.as_of
  GROUP BY symbol
),
-- The surveillance list in force at as_of; GSM outranks long-term ASM outranks short-term ASM.
surveillance AS (
  SELECT symbol,
         arg_max(stage_label, pts) AS stage_label,
         max(pts) AS pts
  FROM (
    SELECT s.symbol, s.stage_label,
           CASE s.framework WHEN 'GSM' THEN 15 + s.stage WHEN 'LT-ASM' THEN 3 * s.stage WHEN 'ST-ASM' THEN 2 * s.stage ELSE 0 END AS pts
    FROM flags.surveillance_flags s, win
    WHERE s.snapshot_date = (SELECT max(snapshot_date) FROM flags.surveillance_flags, win WHERE snapshot_date <= win.as_of)
  )
  GROUP BY symbol
),
rpt_latest AS (
  SELECT r.symbol, r.period_end, sum(r.amount_cr) AS amount, max(r.half_year_revenue_cr) AS revenue
  FROM flags.rpt_transactions r, win
  WHERE r.period_end <= win.as_of
  GROUP BY r.symbol, r.period_end
  QUALIFY row_number() OVER (PARTITION BY r.symbol ORDER BY r.period_end DESC) = 1
),
signals AS (
  SELECT c.symbol, c.isin, c.company_name, win.as_of,
         lr.rating_grade AS latest_rating, lr.agency AS latest_rating_agency, lr.rating_date AS latest_rating_date,
         lr.outlook AS latest_rating_outlook, lr.watch AS latest_rating_watch, lr.notch,
         coalesce(ra.actions, 0) AS rating_actions_12m, coalesce(ra.downgrades, 0) AS rating_downgrades_12m,
         pn.quarter_end AS pledge_quarter_end, pn.pct AS pledged_pct_of_promoter, pt.change AS pledge_change_pp_4q,
         coalesce(inv.n, 0) AS encumbrance_invocations_12m,
         coalesce(ps.value, 0) AS promoter_sell_value_inr_12m,
         sv.stage_label AS surveillance_stage, sv.pts AS surveillance_pts,
         rl.period_end AS rpt_period_end, rl.amount AS rpt_amount_cr, rl.revenue AS half_year_revenue_cr,
         CASE WHEN rl.revenue > 0 THEN round(rl.amount * 100 / rl.revenue, 2) END AS rpt_pct_of_revenue
  FROM companies c
  CROSS JOIN win
  LEFT JOIN latest_rating lr USING (symbol)
  LEFT JOIN rating_actions ra USING (symbol)
  LEFT JOIN pledge_now pn USING (symbol)
  LEFT JOIN pledge_trend pt USING (symbol)
  LEFT JOIN invocations inv USING (symbol)
  LEFT JOIN promoter_selling ps USING (symbol)
  LEFT JOIN surveillance sv USING (symbol)
  LEFT JOIN rpt_latest rl USING (symbol)
),
points AS (
  SELECT *,
         CASE WHEN notch IS NULL OR notch <= 9 THEN 0 WHEN notch <= 12 THEN 10 WHEN notch <= 16 THEN 20 ELSE 30 END AS p_rating,
         least(5 * rating_downgrades_12m, 15) AS p_downgrades,
         CASE WHEN latest_rating_outlook = 'Negative' OR latest_rating_watch = 'Negative' THEN 5 ELSE 0 END AS p_outlook,
         CASE WHEN pledged_pct_of_promoter >= 75 THEN 20 WHEN pledged_pct_of_promoter >= 50 THEN 15
              WHEN pledged_pct_of_promoter >= 25 THEN 10 WHEN pledged_pct_of_promoter > 0 THEN 5 ELSE 0 END AS p_pledge,
         CASE WHEN pledge_change_pp_4q >= 10 THEN 5 ELSE 0 END AS p_pledge_trend,
         least(10 * encumbrance_invocations_12m, 20) AS p_invocations,
         CASE WHEN promoter_sell_value_inr_12m >= 1000000000 THEN 10 WHEN promoter_sell_value_inr_12m >= 100000000 THEN 5
              WHEN promoter_sell_value_inr_12m > 0 THEN 2 ELSE 0 END AS p_promoter_selling,
         coalesce(surveillance_pts, 0) AS p_surveillance,
         CASE WHEN rpt_pct_of_revenue >= 50 THEN 15 WHEN rpt_pct_of_revenue >= 25 THEN 10 WHEN rpt_pct_of_revenue >= 10 THEN 5 ELSE 0 END AS p_rpt
  FROM signals
),
scored AS (
  SELECT *, p_rating + p_downgrades + p_outlook + p_pledge + p_pledge_trend + p_invocations + p_promoter_selling + p_surveillance + p_rpt AS score
  FROM points
)
SELECT *, rank() OVER (ORDER BY score DESC) AS rank, count(*) OVER () AS total
FROM scored`;

/** Parameters: as_of, limit, offset. Ties share a rank (standard competition ranking) and list by symbol. */
export const SCORECARD_PAGE_SQL = `${SCORED}\nORDER BY rank, symbol\nLIMIT ? OFFSET ?`;
/** Parameters: as_of, symbol, isin. Ranked among all companies, then picked. */
export const SCORECARD_COMPANY_SQL = `SELECT * FROM (${SCORED}) WHERE symbol = ? AND isin = ?`;

type ScoredRow = Record<string, unknown> & { total: number };

function entry(r: Record<string, unknown>): ScorecardEntry {
  const n = (k: string) => r[k] as number;
  const s = (k: string) => (r[k] ?? null) as string | null;
  const num = (k: string) => (r[k] ?? null) as number | null;
  return {
    rank: n('rank'),
    symbol: r.symbol as string,
    isin: r.isin as string,
    company_name: r.company_name as string,
    score: n('score'),
    points: {
      rating: n('p_rating'),
      downgrades: n('p_downgrades'),
      outlook: n('p_outlook'),
      pledge: n('p_pledge'),
      pledge_trend: n('p_pledge_trend'),
      invocations: n('p_invocations'),
      promoter_selling: n('p_promoter_selling'),
      surveillance: n('p_surveillance'),
      rpt: n('p_rpt'),
    },
    signals: {
      latest_rating: s('latest_rating'),
      latest_rating_agency: s('latest_rating_agency'),
      latest_rating_date: s('latest_rating_date'),
      latest_rating_outlook: s('latest_rating_outlook'),
      latest_rating_watch: s('latest_rating_watch'),
      rating_actions_12m: n('rating_actions_12m'),
      rating_downgrades_12m: n('rating_downgrades_12m'),
      pledge_quarter_end: s('pledge_quarter_end'),
      pledged_pct_of_promoter: num('pledged_pct_of_promoter'),
      pledge_change_pp_4q: num('pledge_change_pp_4q'),
      encumbrance_invocations_12m: n('encumbrance_invocations_12m'),
      promoter_sell_value_inr_12m: n('promoter_sell_value_inr_12m'),
      surveillance_stage: s('surveillance_stage'),
      rpt_period_end: s('rpt_period_end'),
      rpt_amount_cr: num('rpt_amount_cr'),
      half_year_revenue_cr: num('half_year_revenue_cr'),
      rpt_pct_of_revenue: num('rpt_pct_of_revenue'),
    },
  };
}

const METHOD = `${FLAGS_DOCS_URL}#scorecard`;

async function resolveAsOf(engine: Engine, asked: string | null): Promise<string | null> {
  const [{ as_of }] = await engine.all<{ as_of: string | null }>(AS_OF_SQL, [asked]);
  return as_of;
}

export async function scorecard(engine: Engine, p: ScorecardParams): Promise<ScorecardResponse> {
  const asOf = await resolveAsOf(engine, p.as_of);
  const rows = await engine.all<ScoredRow>(SCORECARD_PAGE_SQL, [asOf, p.limit, p.offset]);
  // An offset past the end returns no rows, so the total comes from a one-row page.
  const head = rows[0] ?? (await engine.all<ScoredRow>(SCORECARD_PAGE_SQL, [asOf, 1, 0]))[0];
  return {
    as_of: asOf,
    window_months: SCORECARD_WINDOW_MONTHS,
    total: head?.total ?? 0,
    limit: p.limit,
    offset: p.offset,
    method: METHOD,
    companies: rows.map(entry),
  };
}

export async function companyScorecard(engine: Engine, p: CompanyScorecardParams): Promise<CompanyScorecardResponse> {
  const company = await resolveCompany(engine, p.identifier);
  const asOf = await resolveAsOf(engine, p.as_of);
  const [row] = await engine.all<ScoredRow>(SCORECARD_COMPANY_SQL, [asOf, company.symbol, company.isin]);
  return {
    identifier: p.identifier,
    as_of: asOf,
    window_months: SCORECARD_WINDOW_MONTHS,
    total_companies: row.total,
    method: METHOD,
    ...entry(row),
  };
}
