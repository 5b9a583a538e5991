/**
 * The MF tables, built in native DuckDB. JavaScript supplies only the small inputs (the scheme
 * universe and the day-by-day market drivers, a few thousand rows each); the ~37M NAV rows are made
 * in one SQL statement: each scheme's day range is unnested, the drivers are looked up by day index
 * in lists, and the daily noise is a hash of (seed, fund, day) turned into a normal by Box–Muller.
 * Rows come out in scheme order and day order because the scheme table is scanned in code order and
 * nothing reorders them (no join, no sort).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { ACTIVE_WINDOW_DAYS, SCHEME_DETAILS_COLUMNS, type SchemeDetailsRow } from '../core/contract/mf.js';
import { buildCalendar, dayNumber, FACTOR_COUNT } from './mf-calendar.js';
import type { Scheme } from './mf-universe.js';

type StageType = 'INTEGER' | 'BIGINT' | 'DOUBLE' | 'VARCHAR' | 'BOOLEAN';

/** Creates `name` with the given columns and appends the rows (null → NULL). */
export async function stage(conn: DuckDBConnection, name: string, cols: readonly [string, StageType][], rows: Iterable<readonly unknown[]>): Promise<void> {
  await conn.run(`CREATE TABLE ${name} (${cols.map(([c, t]) => `"${c}" ${t}`).join(', ')})`);
  const app = await conn.createAppender(name);
  for (const row of rows) {
    cols.forEach(([, t], i) => {
      const v = row[i];
      if (v === null || v === undefined) app.appendNull();
      else if (t === 'INTEGER') app.appendInteger(v as number);
      else if (t === 'BIGINT') app.appendBigInt(BigInt(v as number));
      else if (t === 'DOUBLE') app.appendDouble(v as number);
      else if (t === 'BOOLEAN') app.appendBoolean(v as boolean);
      else app.appendVarchar(String(v));
    });
    app.endRow();
  }
  app.closeSync();
}

/** Quarter label as AMFI writes it ("July - September 2026") and its ISO end, for the last quarter
 * that ended at least 30 days before the as-of date (AAUM is disclosed with a lag). */
export function aaumQuarter(asOf: string): { label: string; start: string; end: string } {
  const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
  const t = Date.parse(`${asOf}T00:00:00Z`) - 30 * 86_400_000;
  const d = new Date(t);
  let q = Math.floor(d.getUTCMonth() / 3);
  let y = d.getUTCFullYear();
  const qEnd = (qq: number, yy: number): Date => new Date(Date.UTC(yy, qq * 3 + 3, 0));
  if (qEnd(q, y).getTime() > t) {
    q -= 1;
    if (q < 0) {
      q = 3;
      y -= 1;
    }
  }
  const start = new Date(Date.UTC(y, q * 3, 1)).toISOString().slice(0, 10);
  return { label: `${months[q * 3]} - ${months[q * 3 + 2]} ${y}`, start, end: qEnd(q, y).toISOString().slice(0, 10) };
}

/** Loads the drivers (`calv`, one row of day-indexed lists) and the scheme table `sch`. */
export async function loadInputs(conn: DuckDBConnection, schemes: readonly Scheme[], asOf: string, seed: number): Promise<void> {
  const asOfDn = dayNumber(asOf);
  const cal = buildCalendar(seed, asOfDn);
  await stage(
    conn,
    'cal_days',
    [['dn', 'INTEGER'], ['ds', 'VARCHAR'], ['b', 'BOOLEAN'], ['m', 'DOUBLE'], ['a', 'DOUBLE'], ['r', 'DOUBLE']],
    cal.map((c) => [c.dn, c.iso, c.business, c.m, c.a, c.r]),
  );
  await stage(
    conn,
    'cal_factors',
    [['k', 'INTEGER'], ['dn', 'INTEGER'], ['f', 'DOUBLE']],
    (function* () {
      for (let k = 0; k < FACTOR_COUNT; k++) for (const c of cal) yield [k, c.dn, c.f[k]];
    })(),
  );
  await conn.run(`CREATE TABLE calv AS SELECT
      (SELECT list(b ORDER BY dn) FROM cal_days) AS b,
      (SELECT list(m ORDER BY dn) FROM cal_days) AS m,
      (SELECT list(a ORDER BY dn) FROM cal_days) AS a,
      (SELECT list(r ORDER BY dn) FROM cal_days) AS r,
      (SELECT list(f ORDER BY k, dn) FROM cal_factors) AS f,
      ${cal.length} AS n`);

  const q = aaumQuarter(asOf);
  const qs = dayNumber(q.start);
  const qe = dayNumber(q.end);
  const at = (dn: number) => cal[Math.min(dn, asOfDn)];
  await stage(
    conn,
    'sch',
    [
      ['scheme_code', 'INTEGER'], ['isin', 'VARCHAR'], ['isin2', 'VARCHAR'], ['scheme_name', 'VARCHAR'], ['amc', 'VARCHAR'],
      ['scheme_type', 'VARCHAR'], ['category', 'VARCHAR'], ['category_sub', 'VARCHAR'], ['category_group', 'VARCHAR'],
      ['category_group_clean', 'VARCHAR'], ['scheme_plan', 'VARCHAR'], ['scheme_option', 'VARCHAR'], ['txic_code', 'VARCHAR'],
      ['family', 'INTEGER'], ['first', 'INTEGER'], ['stop', 'INTEGER'], ['last', 'INTEGER'], ['weekend', 'BOOLEAN'],
      ['gap_from', 'INTEGER'], ['gap_to', 'INTEGER'], ['zero_end', 'BOOLEAN'], ['decimals', 'INTEGER'], ['flat', 'BOOLEAN'],
      ['dn0', 'INTEGER'], ['ln_base', 'DOUBLE'], ['alpha', 'DOUBLE'], ['bm', 'DOUBLE'], ['ba', 'DOUBLE'], ['br', 'DOUBLE'],
      ['bf', 'DOUBLE'], ['fk', 'INTEGER'], ['eps', 'DOUBLE'], ['m0', 'DOUBLE'], ['a0', 'DOUBLE'], ['r0', 'DOUBLE'], ['f0', 'DOUBLE'],
      ['aaum', 'VARCHAR'], ['merged_into', 'INTEGER'], ['continues', 'INTEGER'],
    ],
    schemes
      .filter((s) => s.first <= asOfDn)
      .map((s) => {
        const c0 = at(s.dn0);
        const live = Math.max(0, Math.min(s.last, qe, asOfDn) - Math.max(s.first, qs) + 1);
        const aaum = live > 0 ? ((s.aumCr * live) / (qe - qs + 1)).toFixed(2) : null;
        return [
          s.code, s.isin, s.isin2, s.name, s.amc, s.schemeType, s.category, s.categorySub, s.categoryGroup, s.clean, s.plan,
          s.option, s.txic, s.family, s.first, Math.min(s.last, asOfDn), s.last, s.weekend, s.gapFrom, s.gapTo, s.zeroEnd,
          s.decimals, s.flat, s.dn0, s.lnBase, s.alpha, s.bm, s.ba, s.br, s.bf, s.fk, s.eps, c0.m, c0.a, c0.r, c0.f[s.fk],
          aaum, s.mergedInto, s.continues,
        ];
      }),
  );
}

/** The full history: exactly the spec's 5 columns, nav DECIMAL(18,4), clustered by scheme then date. */
export async function buildNav(conn: DuckDBConnection, seed: number): Promise<void> {
  const s = Math.trunc(seed);
  await conn.run(`CREATE TABLE mf_nav_master AS
    WITH x AS (
      SELECT scheme_code, scheme_name, isin, family, last, weekend, gap_from, gap_to, zero_end, decimals, flat, dn0,
        ln_base, alpha, bm, ba, br, bf, fk, eps, m0, a0, r0, f0, unnest(range(first, stop + 1))::INTEGER AS dn
      FROM sch
    ), h AS (
      SELECT x.*, c.m[dn + 1] AS m, c.a[dn + 1] AS a, c.r[dn + 1] AS r, c.f[fk * c.n + dn + 1] AS f, hash(${s}, family, dn) AS hv
      FROM x CROSS JOIN calv c
      WHERE (weekend OR c.b[dn + 1]) AND NOT (dn BETWEEN gap_from AND gap_to)
    )
    SELECT
      scheme_code,
      (DATE '2006-04-01' + dn)::VARCHAR AS date,
      (CASE WHEN zero_end AND dn = last THEN 0
        ELSE round(exp(
          CASE WHEN flat THEN ln_base
          ELSE ln_base + alpha * (dn - dn0) + bm * (m - m0) + ba * (a - a0) + br * (r - r0) + bf * (f - f0) END
          + eps * sqrt(-2 * ln(((hv >> 32)::DOUBLE + 0.5) / 4294967296.0)) * cos(2 * pi() * ((hv & 4294967295::UBIGINT)::DOUBLE / 4294967296.0))
        ), decimals)
      END)::DECIMAL(18,4) AS nav,
      scheme_name,
      isin
    FROM h`);
}

/** One row per scheme with a NAV: the 22 snapshot columns, in the contract's order. */
export async function buildLatest(conn: DuckDBConnection, asOf: string, aaum: { label: string; end: string }): Promise<void> {
  await conn.run(`CREATE TABLE mf_nav_master_latest AS
    WITH g AS (
      SELECT scheme_code, min(date) AS first_date, max(date) AS last_date, arg_max(nav, date) AS nav
      FROM mf_nav_master GROUP BY scheme_code
    ), j AS (
      SELECT s.*, g.first_date::DATE AS fd, g.last_date::DATE AS ld, g.nav AS last_nav,
        (DATE '${asOf}' - g.last_date::DATE) <= ${ACTIVE_WINDOW_DAYS} AS active
      FROM g JOIN sch s USING (scheme_code)
    )
    SELECT scheme_code, isin, isin2, scheme_name, amc, scheme_type, category, category_sub, category_group,
      category_group_clean, scheme_plan, scheme_option, txic_code,
      fd AS first_date, ld AS last_date, active AS is_active,
      active AND (DATE '${asOf}' - ld) > 7 AS is_stale,
      last_nav AS nav, ld AS nav_date,
      CASE WHEN active THEN aaum::DECIMAL(14,2) END AS aaum_cr_quarterly_avg,
      CASE WHEN active AND aaum IS NOT NULL THEN '${aaum.label}' END AS aaum_quarter,
      CASE WHEN active AND aaum IS NOT NULL THEN DATE '${aaum.end}' END AS aaum_quarter_end
    FROM j ORDER BY scheme_code`);
}

export async function buildDetails(conn: DuckDBConnection, rows: readonly SchemeDetailsRow[]): Promise<void> {
  const cols = Object.entries(SCHEME_DETAILS_COLUMNS) as [keyof SchemeDetailsRow, string][];
  // Staged as text, cast once: decimals stay exact and dates need no client-side conversion.
  await stage(conn, 'details_stage', cols.map(([c, t]) => [c, t === 'BOOLEAN' ? 'BOOLEAN' : 'VARCHAR']), rows.map((r) => cols.map(([c]) => r[c])));
  await conn.run(`CREATE TABLE scheme_details_latest AS SELECT ${cols.map(([c, t]) => `CAST("${c}" AS ${t}) AS "${c}"`).join(', ')} FROM details_stage ORDER BY scheme_code`);
}

/** One record per known oddity; rare ones per scheme, widespread ones as one dataset-wide count. */
export async function buildDataQuality(conn: DuckDBConnection, asOf: string, aaumStart: string): Promise<void> {
  await conn.run(`CREATE TABLE data_quality AS
    WITH l AS (SELECT * FROM mf_nav_master_latest), r AS (
      SELECT 'zero_final_nav' AS check_name, 'warning' AS severity, scheme_code, nav_date AS first_date, nav_date AS last_date, 1 AS affected_rows,
        'Final NAV is 0.00 on ' || nav_date || ': end of life, not a price; exclude before averaging' AS detail
      FROM l WHERE nav = 0
      UNION ALL
      SELECT 'matured_frozen', 'info', NULL, NULL, NULL, count(*), 'Inactive schemes kept with their final NAV (no NAV within ${ACTIVE_WINDOW_DAYS} days of ${asOf})'
      FROM l WHERE NOT is_active
      UNION ALL
      SELECT 'merger_split', 'info', o.scheme_code, o.last_date, n.first_date, 1,
        'History continues under scheme code ' || n.scheme_code || ' from ' || n.first_date
      FROM sch s JOIN l o ON o.scheme_code = s.scheme_code JOIN l n ON n.scheme_code = s.merged_into
      UNION ALL
      SELECT 'weekend_nav', 'info', scheme_code, min(date)::DATE, max(date)::DATE, count(*), 'NAVs dated on Saturdays or Sundays'
      FROM mf_nav_master WHERE scheme_code IN (SELECT scheme_code FROM sch WHERE weekend) AND dayofweek(date::DATE) IN (0, 6)
      GROUP BY scheme_code
      UNION ALL
      SELECT 'stale_nav', 'warning', s.scheme_code, ('2006-04-01'::DATE + s.gap_from), ('2006-04-01'::DATE + s.gap_to),
        s.gap_to - s.gap_from + 1, 'No NAV published for ' || (s.gap_to - s.gap_from + 1) || ' days; publication resumed'
      FROM sch s WHERE s.gap_from >= 0 AND s.gap_from <= s.stop
      UNION ALL
      SELECT 'stale_flag', 'warning', scheme_code, last_date, DATE '${asOf}', 0,
        'Active but the last NAV (' || last_date || ') is ' || (DATE '${asOf}' - last_date) || ' days old'
      FROM l WHERE is_stale
      UNION ALL
      SELECT 'name_whitespace', 'info', scheme_code, NULL, NULL, 1, 'Scheme name as filed has a double or trailing space'
      FROM l WHERE scheme_name LIKE '%  %' OR scheme_name LIKE '% '
      UNION ALL
      SELECT 'missing_isin', 'info', scheme_code, NULL, NULL, 1, 'Filed without an ISIN; look it up by scheme code'
      FROM l WHERE isin IS NULL AND isin2 IS NULL
      UNION ALL
      SELECT 'blank_sub_category', 'info', NULL, NULL, NULL, count(*), 'Schemes filed under pre-2018 or close-ended category names, with no SEBI sub-category'
      FROM l WHERE category_sub IS NULL
      UNION ALL
      SELECT 'nav_decimals', 'info', NULL, NULL, NULL, count(*), 'Schemes publishing NAVs with ' || decimals || ' decimals'
      FROM sch WHERE decimals < 4 GROUP BY decimals
      UNION ALL
      SELECT 'mid_quarter_launch', 'info', scheme_code, first_date, aaum_quarter_end, 1,
        'Launched mid-quarter: quarterly average AUM covers part of ' || aaum_quarter
      FROM l WHERE first_date > DATE '${aaumStart}' AND first_date <= aaum_quarter_end
    )
    SELECT row_number() OVER (ORDER BY check_name, scheme_code NULLS FIRST, first_date, detail)::INTEGER AS issue_id,
      check_name, severity, scheme_code::INTEGER AS scheme_code, first_date::DATE AS first_date, last_date::DATE AS last_date,
      affected_rows::BIGINT AS affected_rows, detail
    FROM r ORDER BY issue_id`);
}
