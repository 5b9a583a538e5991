/**
 * Mutual Fund NAV data contract (spec: mf-nav-api.md): the rows of the published files, the manifest,
 * and the local tables the sync engine builds from them. Endpoint parameters live in mf-params.ts.
 */
import type { ColumnSpec, TableSpec } from './tables.js';

/** Active means a NAV was published within this many days of the data's as-of date. */
export const ACTIVE_WINDOW_DAYS = 45;

/** The history starts here (spec: "from April 2006 onward"). */
export const HISTORY_START = '2006-04-01';

export const SCHEMA_VERSION = 3;
export const SCHEMA_CHANGED = '2025-09-01';
export const SCHEMA_NOTES: readonly string[] = [
  'Version 2: on the latest-snapshot files only, column aaum_cr was renamed aaum_cr_quarterly_avg (same values, units Crores, same position); aaum_quarter and aaum_quarter_end unchanged; full-history files unaffected.',
  'Version 3: full-history files: no column added, removed or renamed; SQLite nav became REAL (previously text, so comparisons were string comparisons); CSV scheme_name always quoted; TSV never quoted, so a split on tab is correct.',
];

// ---------------------------------------------------------------------------------------------
// Vocabularies

export const CATEGORY_GROUPS_CLEAN = ['Equity', 'Debt', 'Hybrid', 'Other'] as const;
export type CategoryGroupClean = (typeof CATEGORY_GROUPS_CLEAN)[number];

export const SCHEME_PLANS = ['Direct', 'Regular', 'Other'] as const;
export type SchemePlan = (typeof SCHEME_PLANS)[number];

/** IDCW = income distribution cum capital withdrawal (SEBI's 2021 name for "dividend"). */
export const SCHEME_OPTIONS = ['Growth', 'IDCW', 'IDCW Payout', 'IDCW Reinvestment', 'Dividend', 'Bonus'] as const;
export type SchemeOption = (typeof SCHEME_OPTIONS)[number];

export const SCHEME_TYPES = ['Open Ended', 'Close Ended', 'Interval Fund'] as const;
export type SchemeType = (typeof SCHEME_TYPES)[number];

export const RISKOMETER_LEVELS = ['Low', 'Low to Moderate', 'Moderate', 'Moderately High', 'High', 'Very High'] as const;
export type Riskometer = (typeof RISKOMETER_LEVELS)[number];

// ---------------------------------------------------------------------------------------------
// Rows

/** One row of the full-history files (`mf_nav_master.*`): exactly these 5 columns. */
export interface NavFileRow {
  scheme_code: number;
  /** `YYYY-MM-DD`, a string in every file format. */
  date: string;
  nav: number;
  scheme_name: string;
  /** Payout or growth ISIN; null on the oldest schemes, which AMFI filed without one. */
  isin: string | null;
}

export const NAV_FILE_COLUMNS = ['scheme_code', 'date', 'nav', 'scheme_name', 'isin'] as const;

/** One row of `mf_nav_master_latest.*`: one per scheme ever published, 22 columns in this order. */
export interface LatestRow {
  scheme_code: number;
  isin: string | null;
  /** Reinvestment ISIN on the same NAV row; null when the variant has none. */
  isin2: string | null;
  scheme_name: string;
  amc: string;
  /** Open Ended, Close Ended or Interval Fund (the first words of the filed header). */
  scheme_type: SchemeType;
  /** Raw category as filed, the text inside the header's parentheses, e.g. "Debt Scheme - Liquid Fund" or "Income". */
  category: string;
  /** SEBI sub-category, e.g. "Liquid Fund"; null on schemes filed under pre-2018 category names. */
  category_sub: string | null;
  /** Raw header as filed, e.g. "Open Ended Schemes ( Debt Scheme - Liquid Fund )". */
  category_group: string;
  category_group_clean: CategoryGroupClean;
  scheme_plan: SchemePlan;
  scheme_option: SchemeOption;
  /** Taxonomy code of the SEBI sub-category (TXIC_CODES); null when category_sub is null. */
  txic_code: string | null;
  first_date: string;
  last_date: string;
  is_active: boolean;
  is_stale: boolean;
  nav: number;
  nav_date: string;
  /** Crores; null for matured schemes. */
  aaum_cr_quarterly_avg: number | null;
  /** e.g. "July - September 2026": a label, not chronologically sortable. */
  aaum_quarter: string | null;
  /** ISO quarter-end date; sort quarters on this. */
  aaum_quarter_end: string | null;
}

export const LATEST_COLUMNS = [
  'scheme_code', 'isin', 'isin2', 'scheme_name', 'amc', 'scheme_type', 'category', 'category_sub',
  'category_group', 'category_group_clean', 'scheme_plan', 'scheme_option', 'txic_code', 'first_date',
  'last_date', 'is_active', 'is_stale', 'nav', 'nav_date', 'aaum_cr_quarterly_avg', 'aaum_quarter',
  'aaum_quarter_end',
] as const satisfies readonly (keyof LatestRow)[];

/**
 * SEBI sub-categories (Oct 2017 circular, as AMFI files them) with their taxonomy code. The code is
 * stable across renames of the label, so filters and joins survive AMFI's wording changes.
 */
export const TXIC_CODES: Readonly<Record<string, string>> = {
  // Equity
  'Large Cap Fund': 'EQ-LC', 'Large & Mid Cap Fund': 'EQ-LMC', 'Mid Cap Fund': 'EQ-MC',
  'Small Cap Fund': 'EQ-SC', 'Multi Cap Fund': 'EQ-MLC', 'Flexi Cap Fund': 'EQ-FC', 'Focused Fund': 'EQ-FOC',
  'Value Fund': 'EQ-VAL', 'Contra Fund': 'EQ-CON', 'Dividend Yield Fund': 'EQ-DY', 'ELSS': 'EQ-ELSS',
  'Sectoral/ Thematic': 'EQ-ST',
  // Debt
  'Overnight Fund': 'DT-ON', 'Liquid Fund': 'DT-LIQ', 'Ultra Short Duration Fund': 'DT-USD',
  'Low Duration Fund': 'DT-LD', 'Money Market Fund': 'DT-MM', 'Short Duration Fund': 'DT-SD',
  'Medium Duration Fund': 'DT-MD', 'Medium to Long Duration Fund': 'DT-MLD', 'Long Duration Fund': 'DT-LGD',
  'Dynamic Bond': 'DT-DYN', 'Corporate Bond Fund': 'DT-CB', 'Credit Risk Fund': 'DT-CR',
  'Banking and PSU Fund': 'DT-BPSU', 'Gilt Fund': 'DT-GILT', 'Gilt Fund with 10 year constant duration': 'DT-G10',
  'Floater Fund': 'DT-FLT',
  // Hybrid
  'Conservative Hybrid Fund': 'HY-CH', 'Balanced Hybrid Fund': 'HY-BH', 'Aggressive Hybrid Fund': 'HY-AH',
  'Dynamic Asset Allocation or Balanced Advantage': 'HY-BAF', 'Multi Asset Allocation': 'HY-MAA',
  'Arbitrage Fund': 'HY-ARB', 'Equity Savings': 'HY-ES',
  // Solution oriented and other
  'Retirement Fund': 'SO-RET', 'Children\u2019s Fund': 'SO-CHD', 'Index Funds': 'OT-IDX',
  'Other  ETFs': 'OT-ETF', 'FoF Domestic': 'OT-FOFD', 'FoF Overseas': 'OT-FOFO', 'Gold ETF': 'OT-GETF',
};

/**
 * `scheme_details_latest`: 60 fields per scheme, in this order, in the style of a scheme information
 * document (SID) and its summary (SSD). Coverage: every row has the AMFI daily fields; SSD and TER
 * fields are present only where `has_ssd` / `has_ter` say so.
 */
export interface SchemeDetailsRow {
  scheme_code: number;
  isin: string | null;
  isin2: string | null;
  scheme_name: string;
  amc: string;
  /** The fund's name without plan and option words, shared by its code family. */
  fund_name: string;
  /** Lowest scheme code of the fund's family (its plan/option variants). */
  family_code: number;
  scheme_type: SchemeType;
  category_group_clean: CategoryGroupClean;
  category_sub: string | null;
  txic_code: string | null;
  scheme_plan: SchemePlan;
  scheme_option: SchemeOption;
  /** Daily, Weekly, Fortnightly, Monthly, Quarterly, Half Yearly, Annual; null for Growth. */
  idcw_frequency: string | null;
  nfo_open_date: string | null;
  nfo_close_date: string | null;
  allotment_date: string;
  /** Close-ended schemes only. */
  maturity_date: string | null;
  tenure_days: number | null;
  /** Interval schemes: days between transaction windows. */
  interval_days: number | null;
  investment_objective: string | null;
  benchmark: string | null;
  additional_benchmark: string | null;
  /** Names separated by "; ". */
  fund_managers: string | null;
  fund_manager_since: string | null;
  riskometer: Riskometer | null;
  riskometer_date: string | null;
  /** Debt potential-risk-class cell, e.g. "A-I", "B-III"; null outside debt. */
  potential_risk_class: string | null;
  exit_load: string | null;
  exit_load_days: number | null;
  entry_load: string | null;
  ter_pct: number | null;
  ter_date: string | null;
  min_investment_inr: number | null;
  additional_investment_inr: number | null;
  min_sip_inr: number | null;
  sip_available: boolean | null;
  swp_available: boolean | null;
  stp_available: boolean | null;
  lock_in_days: number | null;
  /** Same-day NAV cut-off, IST "HH:MM" (13:30 for liquid and overnight funds, 15:00 otherwise). */
  cut_off_time: string | null;
  face_value_inr: number;
  nav_decimals: number;
  registrar: string | null;
  custodian: string | null;
  trustee: string | null;
  sid_url: string | null;
  kim_url: string | null;
  factsheet_url: string | null;
  /** Active, Matured, Merged or Wound Up. */
  status: string;
  is_active: boolean;
  merged_into_scheme_code: number | null;
  closure_date: string | null;
  aum_cr_month_end: number | null;
  aum_month_end: string | null;
  portfolio_turnover_pct: number | null;
  has_amfi_daily: boolean;
  has_ssd: boolean;
  has_ter: boolean;
  details_as_of: string;
}

/** Column name → DuckDB type of `scheme_details_latest` (60). */
export const SCHEME_DETAILS_COLUMNS = {
  scheme_code: 'INTEGER', isin: 'VARCHAR', isin2: 'VARCHAR', scheme_name: 'VARCHAR', amc: 'VARCHAR',
  fund_name: 'VARCHAR', family_code: 'INTEGER', scheme_type: 'VARCHAR', category_group_clean: 'VARCHAR',
  category_sub: 'VARCHAR', txic_code: 'VARCHAR', scheme_plan: 'VARCHAR', scheme_option: 'VARCHAR',
  idcw_frequency: 'VARCHAR', nfo_open_date: 'DATE', nfo_close_date: 'DATE', allotment_date: 'DATE',
  maturity_date: 'DATE', tenure_days: 'INTEGER', interval_days: 'INTEGER', investment_objective: 'VARCHAR',
  benchmark: 'VARCHAR', additional_benchmark: 'VARCHAR', fund_managers: 'VARCHAR', fund_manager_since: 'DATE',
  riskometer: 'VARCHAR', riskometer_date: 'DATE', potential_risk_class: 'VARCHAR', exit_load: 'VARCHAR',
  exit_load_days: 'INTEGER', entry_load: 'VARCHAR', ter_pct: 'DECIMAL(6,2)', ter_date: 'DATE',
  min_investment_inr: 'INTEGER', additional_investment_inr: 'INTEGER', min_sip_inr: 'INTEGER',
  sip_available: 'BOOLEAN', swp_available: 'BOOLEAN', stp_available: 'BOOLEAN', lock_in_days: 'INTEGER', cut_off_time: 'VARCHAR',
  face_value_inr: 'INTEGER', nav_decimals: 'INTEGER', registrar: 'VARCHAR', custodian: 'VARCHAR',
  trustee: 'VARCHAR', sid_url: 'VARCHAR', kim_url: 'VARCHAR', factsheet_url: 'VARCHAR', status: 'VARCHAR',
  is_active: 'BOOLEAN', merged_into_scheme_code: 'INTEGER', closure_date: 'DATE', aum_cr_month_end: 'DECIMAL(14,2)',
  aum_month_end: 'DATE', portfolio_turnover_pct: 'DECIMAL(7,2)', has_amfi_daily: 'BOOLEAN', has_ssd: 'BOOLEAN',
  has_ter: 'BOOLEAN', details_as_of: 'DATE',
} as const satisfies Record<keyof SchemeDetailsRow, string>;

/** What each `rows_with` count of the scheme-details dataset means. */
export const DETAILS_COVERAGE = {
  amfi_daily: 'rows whose identity, category and dates come from the AMFI daily NAV feed (every row)',
  ssd: 'rows with scheme-summary-document fields (objective, benchmark, managers, loads, minimums, riskometer)',
  ter: 'rows with a total expense ratio (ter_pct, ter_date) from the latest TER disclosure',
} as const;
export type DetailsCoverage = keyof typeof DETAILS_COVERAGE;

/** One record of the `data_quality` table: one known oddity in the published data. */
export interface DataQualityRow {
  issue_id: number;
  /** Slug from DATA_QUALITY_CHECKS. */
  check_name: DataQualityCheck;
  severity: 'info' | 'warning' | 'error';
  /** Null for dataset-wide records. */
  scheme_code: number | null;
  first_date: string | null;
  last_date: string | null;
  affected_rows: number;
  detail: string;
}

export const DATA_QUALITY_CHECKS = {
  zero_final_nav: 'final NAV is exactly 0.00: end of life, not a price',
  matured_frozen: 'scheme matured or closed; NAV frozen at its last value',
  merger_split: 'history continues under another scheme code after an AMC merger',
  weekend_nav: 'NAVs published on Saturdays or Sundays (liquid and overnight funds)',
  stale_nav: 'no NAV for a while, though the scheme is still active (under 45 days)',
  stale_flag: 'scheme flagged stale by the publisher',
  name_whitespace: 'scheme name as filed has a double or trailing space',
  missing_isin: 'scheme filed without an ISIN',
  blank_sub_category: 'filed under a pre-2018 category name, so the SEBI sub-category is blank',
  nav_decimals: 'NAV published with fewer than 4 decimals',
  mid_quarter_launch: 'launched mid-quarter, so the quarterly average AUM is low',
} as const;
export type DataQualityCheck = keyof typeof DATA_QUALITY_CHECKS;

// ---------------------------------------------------------------------------------------------
// Files and manifest

export const NAV_FILE_BASE = 'mf_nav_master';
export const LATEST_FILE_BASE = 'mf_nav_master_latest';
export const DETAILS_FILE_BASE = 'scheme_details_latest';
export const DATA_QUALITY_FILE_BASE = 'data_quality';

export const NAV_FILE_SUFFIXES = ['parquet', 'csv.gz', 'csv.zip', 'tsv.gz', 'tsv.zip', 'db.gz', 'db.zip'] as const;
export const LATEST_FILE_SUFFIXES = ['csv', 'csv.gz', 'csv.zip', 'parquet'] as const;
export const DETAILS_FILE_SUFFIXES = ['parquet', 'csv.gz'] as const;
export const DATA_QUALITY_FILE_SUFFIXES = ['csv', 'json'] as const;

export interface MfManifestFile {
  format: string;
  size_bytes: number;
  size_human: string;
  row_count: number;
}

export interface ManifestValidation {
  /** Rows in the generator's source table; every full-history file holds exactly these. */
  source_rows: number;
  all_match: boolean;
  latest_snapshot_rows: number;
  latest_snapshot_match: boolean;
  /** Distinct schemes in the source; the snapshot must have one row for each. */
  latest_snapshot_source_rows: number;
  nav_distinct_schemes: number;
  latest_snapshot_active_rows: number;
  latest_snapshot_matured_rows: number;
  latest_snapshot_note: string;
}

export interface FileSchema {
  applies_to: string[];
  columns: Record<string, string>;
  notes: string[];
  query_tip: string;
}

export interface Manifest {
  generated_at: string;
  total_rows: number;
  docs: string;
  license: string;
  license_url: string;
  data_source: string;
  disclaimer: string;
  terms: string;
  files: Record<string, MfManifestFile>;
  validation: ManifestValidation;
  generation_time_seconds: number;
  schema_version: number;
  schema_changed: string;
  schema_notes: string[];
  schema: { full_history_files: FileSchema; latest_snapshot_files: FileSchema };
  datasets: {
    scheme_details_latest: {
      generated_at: string;
      schema_version: number;
      row_count: number;
      columns: string[];
      url: string;
      formats: string[];
      rows_with: Record<DetailsCoverage, number>;
      rows_with_meaning: Record<DetailsCoverage, string>;
      source_dates: Record<DetailsCoverage, string>;
    };
    data_quality: {
      generated_at: string;
      schema_version: number;
      row_count: number;
      url: string;
      formats: string[];
    };
  };
}

// ---------------------------------------------------------------------------------------------
// Local tables (what sync builds as mf.<table>)

/** A local table, named `mf.<name>`. */
export interface LocalTable extends TableSpec {
  /** Published dataset (file base name) it is built from. */
  source: string;
  /** File suffixes sync may ingest, best first. */
  formats: readonly string[];
}

const col = (name: string, type: string, required = false): ColumnSpec => ({ name, type, required });

/**
 * `nav.date` is a DATE locally (files carry it as a string): range filters and ordering then work on
 * 4-byte values, and rows.ts turns DATE back into YYYY-MM-DD exactly.
 */
export const MF_TABLES = {
  nav: {
    name: 'nav',
    source: NAV_FILE_BASE,
    formats: ['parquet', 'csv.gz', 'tsv.gz'],
    columns: [
      col('scheme_code', 'INTEGER', true),
      col('date', 'DATE', true),
      col('nav', 'DECIMAL(18,4)', true),
      col('scheme_name', 'VARCHAR', true),
      col('isin', 'VARCHAR'),
    ],
  },
  latest: {
    name: 'latest',
    source: LATEST_FILE_BASE,
    formats: ['parquet', 'csv.gz', 'csv'],
    columns: [
      col('scheme_code', 'INTEGER', true),
      col('isin', 'VARCHAR', true),
      col('isin2', 'VARCHAR', true),
      col('scheme_name', 'VARCHAR', true),
      col('amc', 'VARCHAR', true),
      col('scheme_type', 'VARCHAR'),
      col('category', 'VARCHAR', true),
      col('category_sub', 'VARCHAR', true),
      col('category_group', 'VARCHAR', true),
      col('category_group_clean', 'VARCHAR', true),
      col('scheme_plan', 'VARCHAR', true),
      col('scheme_option', 'VARCHAR', true),
      col('txic_code', 'VARCHAR'),
      col('first_date', 'DATE', true),
      col('last_date', 'DATE', true),
      col('is_active', 'BOOLEAN', true),
      col('is_stale', 'BOOLEAN'),
      col('nav', 'DECIMAL(18,4)', true),
      col('nav_date', 'DATE', true),
      col('aaum_cr_quarterly_avg', 'DECIMAL(14,2)'),
      col('aaum_quarter', 'VARCHAR'),
      col('aaum_quarter_end', 'DATE'),
    ],
  },
  scheme_details: {
    name: 'scheme_details',
    source: DETAILS_FILE_BASE,
    formats: DETAILS_FILE_SUFFIXES,
    columns: Object.entries(SCHEME_DETAILS_COLUMNS).map(([name, type]) =>
      col(name, type, name === 'scheme_code' || name === 'scheme_name' || name === 'amc'),
    ),
  },
  data_quality: {
    name: 'data_quality',
    source: DATA_QUALITY_FILE_BASE,
    formats: ['csv', 'json'],
    columns: [
      col('issue_id', 'INTEGER', true),
      col('check_name', 'VARCHAR', true),
      col('severity', 'VARCHAR', true),
      col('scheme_code', 'INTEGER'),
      col('first_date', 'DATE'),
      col('last_date', 'DATE'),
      col('affected_rows', 'BIGINT', true),
      col('detail', 'VARCHAR', true),
    ],
  },
} as const satisfies Record<string, LocalTable>;

export type LocalTableName = keyof typeof MF_TABLES;

/**
 * Known column renames by schema version: a file at an older version may carry `from` where the local
 * table has `to`. Any other unknown or missing column is drift.
 */
export interface ColumnRename {
  table: LocalTableName;
  from: string;
  to: string;
  since_version: number;
}

export const RENAMES: readonly ColumnRename[] = [
  { table: 'latest', from: 'aaum_cr', to: 'aaum_cr_quarterly_avg', since_version: 2 },
];
