/** Example queries that teach the data's caveats (specs: Documents 1–3). */
export interface Example {
  title: string;
  teaches: string;
  sql: string;
}

/** Where the NAV history examples read: mf.nav, or on a light copy the histories fetched on this device. */
interface History {
  nav: string;
  /** A scheme the history holds: `fn` is min or max. */
  scheme(fn: 'min' | 'max'): string;
}

const FULL: History = { nav: 'mf.nav', scheme: (fn) => `(SELECT ${fn}(scheme_code) FROM mf.latest WHERE is_active)` };
const LIGHT: History = { nav: 'mf_fetched.nav', scheme: (fn) => `(SELECT ${fn}(scheme_code) FROM mf_fetched.nav)` };

const EXAMPLES = (h: History): Example[] => [
  {
    title: 'Sort quarters by their end date',
    teaches: 'aaum_quarter is a text label and does not sort chronologically; aaum_quarter_end does.',
    sql: `SELECT aaum_quarter, aaum_quarter_end, count(*) AS schemes,
       round(sum(aaum_cr_quarterly_avg::DOUBLE), 1) AS aaum_cr
FROM mf.latest
WHERE aaum_quarter_end IS NOT NULL
GROUP BY ALL
ORDER BY aaum_quarter_end DESC;`,
  },
  {
    title: 'Cast DECIMAL before float arithmetic',
    teaches: 'NAV is DECIMAL in parquet: cast to DOUBLE before mixing with floats.',
    sql: `SELECT scheme_code, date, nav, nav::DOUBLE / first_value(nav::DOUBLE) OVER w AS growth_of_1
FROM ${h.nav}
WHERE scheme_code = ${h.scheme('min')}
WINDOW w AS (ORDER BY date)
ORDER BY date;`,
  },
  {
    title: 'Exclude 0.00 end-of-life NAVs before averaging',
    teaches: 'A final NAV of exactly 0.00 on an inactive scheme means end of life, not a price.',
    sql: `SELECT category_group_clean,
       count(*) AS schemes,
       avg(nav::DOUBLE) FILTER (WHERE NOT (nav = 0 AND NOT is_active)) AS avg_nav_clean,
       avg(nav::DOUBLE) AS avg_nav_naive
FROM mf.latest
GROUP BY ALL ORDER BY schemes DESC;`,
  },
  {
    title: 'Filter NAV history by scheme_code',
    teaches: 'The full-history file is clustered by scheme_code: filtering on it is cheap; on date or name it scans everything.',
    sql: `SELECT date, nav
FROM ${h.nav}
WHERE scheme_code = ${h.scheme('max')}
ORDER BY date DESC
LIMIT 100;`,
  },
  {
    title: 'Read an indicator’s notes before using it',
    teaches: 'Every indicator carries caveats (annualised rates, cumulative vs per-period, base years).',
    sql: `SELECT * FROM indicators.indicator_config LIMIT 50;`,
  },
  {
    title: 'Indicator values your syncs revised',
    teaches: 'Each sync keeps the indicator values it replaced (almanac.revisions); almanac.changes lists, per kept sync, the watched items it changed.',
    sql: `SELECT indicator_id, date, old, new, new - old AS revised_by, replaced_at
FROM almanac.revisions
ORDER BY replaced_at DESC, indicator_id, date
LIMIT 100;`,
  },
  {
    title: 'Attached databases and their tables',
    teaches: 'Each source is a schema: indicators, mf, flags (and user for your own tables). mf.nav is a view once the history has been refreshed by day.',
    sql: `SELECT database_name, table_name, 'table' AS kind FROM duckdb_tables()
WHERE NOT ends_with(database_name, '_base') AND NOT starts_with(table_name, '_')
UNION ALL
SELECT database_name, view_name, 'view' FROM duckdb_views() WHERE NOT internal
ORDER BY ALL;`,
  },
];

/** The examples for this store: on a light copy (no mf.nav) the history examples read mf_fetched.nav, so each runs. */
export function examples(light: boolean): Example[] {
  return EXAMPLES(light ? LIGHT : FULL);
}
