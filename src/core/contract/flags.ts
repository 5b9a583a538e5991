/**
 * Corporate red-flag API contract (spec: flags-and-compare-api.md, part A): the seven tables and
 * their columns, limits, endpoint parameters and their rules, payload shapes, the manifest, the
 * catalog and the error envelope. Column layouts, payload shapes and defaults are "not shown" in the
 * spec; the choices are documented in docs/flags.md and docs/decisions.md ("Flags").
 */
import { ApiError, type ErrorEnvelope } from './api-error.js';
import type { ColumnSpec as BaseColumnSpec, TableSpec as BaseTableSpec } from './tables.js';

export const FLAGS_BASE = '/flags/v1';
/** Local schema the store ATTACHes the flags database as. */
export const FLAGS_SCHEMA = 'flags';
export const FLAGS_DOCS_URL = 'https://almanac.local/docs/flags.md';

// ---------------------------------------------------------------------------------------------
// Tables

export const TABLE_NAMES = [
  'credit_ratings',
  'insider_trading',
  'pledge_data',
  'sast_disclosures',
  'encumbrance_events',
  'surveillance_flags',
  'rpt_transactions',
] as const;
export type FlagsTable = (typeof TABLE_NAMES)[number];

export function isFlagsTable(name: string): name is FlagsTable {
  return (TABLE_NAMES as readonly string[]).includes(name);
}

/** DuckDB types used by the tables. DECIMAL keeps amounts and percentages exact end to end. */
export type SqlType = 'VARCHAR' | 'DATE' | 'BIGINT' | 'INTEGER' | 'DECIMAL(18,2)' | 'DECIMAL(7,2)';

/** A required column is never null; the ingest refuses a file that lacks it. */
export interface ColumnSpec extends BaseColumnSpec<SqlType> {
  description: string;
}

export interface TableSpec extends BaseTableSpec<FlagsTable, ColumnSpec> {
  description: string;
  /** The column that dates a row: freshness and the scorecard windows read it. */
  dateColumn: string;
  /** Snapshot tables are replaced by each publish; event tables only grow. */
  kind: 'events' | 'snapshot';
}

const req = (name: string, type: SqlType, description: string): ColumnSpec => ({ name, type, required: true, description });
const opt = (name: string, type: SqlType, description: string): ColumnSpec => ({ name, type, required: false, description });

/** Every table starts with these, so one company's rows join across tables. */
export const IDENTITY_COLUMNS: readonly ColumnSpec[] = [
  req('symbol', 'VARCHAR', 'NSE trading symbol, upper case'),
  req('isin', 'VARCHAR', 'ISIN of the equity share (INE…, 12 characters, check digit valid)'),
  req('company_name', 'VARCHAR', 'Company name as filed'),
];

export const RATING_AGENCIES = ['CRISIL', 'ICRA', 'CARE', 'India Ratings', 'Brickwork', 'Acuité', 'Infomerics'] as const;
/** Long-term scale, best first. Index = notches below AAA. */
export const LONG_TERM_GRADES = [
  'AAA', 'AA+', 'AA', 'AA-', 'A+', 'A', 'A-', 'BBB+', 'BBB', 'BBB-', 'BB+', 'BB', 'BB-', 'B+', 'B', 'B-', 'C', 'D',
] as const;
export const SHORT_TERM_GRADES = ['A1+', 'A1', 'A2+', 'A2', 'A3+', 'A3', 'A4+', 'A4', 'D'] as const;
export const RATING_ACTIONS = ['Assigned', 'Reaffirmed', 'Upgraded', 'Downgraded', 'Outlook Revised', 'Placed on Watch', 'Withdrawn'] as const;
export const OUTLOOKS = ['Stable', 'Positive', 'Negative', 'Developing'] as const;
export const WATCHES = ['Negative', 'Positive', 'Developing'] as const;
export const PERSON_CATEGORIES = ['Promoter', 'Promoter Group', 'Director', 'KMP'] as const;
export const INSIDER_TRANSACTION_TYPES = ['Buy', 'Sell', 'Pledge', 'Revoke'] as const;
export const SAST_TRANSACTION_TYPES = ['Acquisition', 'Sale', 'Encumbrance', 'Release'] as const;
export const ENCUMBRANCE_EVENT_TYPES = ['Creation', 'Release', 'Invocation'] as const;
/** ASM (long- and short-term additional surveillance) and GSM (graded surveillance) frameworks. */
export const SURVEILLANCE_FRAMEWORKS = ['LT-ASM', 'ST-ASM', 'GSM'] as const;
export const RPT_RELATIONSHIPS = [
  'Subsidiary', 'Associate', 'Joint Venture', 'Promoter', 'Promoter Group Entity', 'KMP', 'Relative of KMP', 'Entity controlled by KMP',
] as const;
export const RPT_NATURES = [
  'Sale of goods', 'Purchase of goods', 'Services rendered', 'Services received', 'Loans given', 'Loans taken',
  'Investment', 'Guarantee given', 'Interest received', 'Interest paid', 'Rent paid', 'Remuneration',
] as const;

export const FLAGS_TABLES: Readonly<Record<FlagsTable, TableSpec>> = {
  credit_ratings: {
    name: 'credit_ratings',
    description: 'Instrument-level credit ratings from all rating agencies',
    dateColumn: 'rating_date',
    kind: 'events',
    columns: [
      ...IDENTITY_COLUMNS,
      req('rating_date', 'DATE', 'Date of the rating action (press release date)'),
      req('agency', 'VARCHAR', `Rating agency: ${RATING_AGENCIES.join(', ')}`),
      req('instrument', 'VARCHAR', 'Rated instrument, e.g. Long-term bank facilities, Non-convertible debentures, Commercial paper'),
      opt('instrument_amount_cr', 'DECIMAL(18,2)', 'Rated amount, ₹ crore'),
      req('rating_scale', 'VARCHAR', "'long_term' or 'short_term'"),
      req('rating', 'VARCHAR', "Rating as the agency writes it, e.g. 'CRISIL AA-', '[ICRA]A1+', 'IND BBB'"),
      req('rating_grade', 'VARCHAR', 'The grade without agency decoration, e.g. AA-, A1+; comparable across agencies'),
      opt('previous_grade', 'VARCHAR', 'Grade before this action; null when first assigned'),
      req('rating_action', 'VARCHAR', RATING_ACTIONS.join(', ')),
      opt('outlook', 'VARCHAR', `${OUTLOOKS.join(', ')}; null for short-term ratings and ratings on watch`),
      opt('watch', 'VARCHAR', `Rating watch implications: ${WATCHES.join(', ')}; null when not on watch`),
    ],
  },
  insider_trading: {
    name: 'insider_trading',
    description: 'Promoter, director and key-management buy/sell/pledge transactions',
    dateColumn: 'transaction_date',
    kind: 'events',
    columns: [
      ...IDENTITY_COLUMNS,
      req('transaction_date', 'DATE', 'Date of the trade or pledge'),
      req('disclosure_date', 'DATE', 'Date the company disclosed it to the exchange (SEBI PIT Reg. 7)'),
      req('person_name', 'VARCHAR', 'Name of the insider'),
      req('person_category', 'VARCHAR', PERSON_CATEGORIES.join(', ')),
      req('transaction_type', 'VARCHAR', INSIDER_TRANSACTION_TYPES.join(', ')),
      req('mode', 'VARCHAR', 'Market Purchase, Market Sale, Off Market, Inter-se Transfer, ESOP, Pledge Creation, Pledge Revocation'),
      req('securities', 'BIGINT', 'Number of shares'),
      req('value_inr', 'DECIMAL(18,2)', 'Transaction value, ₹'),
      opt('holding_before_pct', 'DECIMAL(7,2)', "Insider's shareholding before, % of the company's shares"),
      opt('holding_after_pct', 'DECIMAL(7,2)', "Insider's shareholding after, % of the company's shares"),
    ],
  },
  pledge_data: {
    name: 'pledge_data',
    description: 'Promoter pledge levels by quarter (the latest quarter is the current level)',
    dateColumn: 'quarter_end',
    kind: 'snapshot',
    columns: [
      ...IDENTITY_COLUMNS,
      req('quarter_end', 'DATE', 'Shareholding-pattern quarter end'),
      req('total_shares', 'BIGINT', 'Shares outstanding'),
      req('promoter_shares', 'BIGINT', 'Shares held by the promoter and promoter group'),
      req('pledged_shares', 'BIGINT', 'Promoter shares pledged or otherwise encumbered'),
      req('promoter_holding_pct', 'DECIMAL(7,2)', 'Promoter holding, % of total shares'),
      req('pledged_pct_of_promoter', 'DECIMAL(7,2)', 'Pledged shares, % of promoter holding'),
      req('pledged_pct_of_total', 'DECIMAL(7,2)', 'Pledged shares, % of total shares'),
    ],
  },
  sast_disclosures: {
    name: 'sast_disclosures',
    description: 'Substantial acquisition or sale of shares and takeover filings',
    dateColumn: 'disclosure_date',
    kind: 'events',
    columns: [
      ...IDENTITY_COLUMNS,
      req('disclosure_date', 'DATE', 'Date filed with the exchange'),
      opt('transaction_date', 'DATE', 'Date of the acquisition, sale or encumbrance'),
      req('acquirer_name', 'VARCHAR', 'Acquirer, seller or pledgor'),
      req('acquirer_category', 'VARCHAR', 'Promoter, Promoter Group or Non-promoter'),
      req('regulation', 'VARCHAR', 'SAST regulation filed under, e.g. Reg. 29(1), Reg. 29(2), Reg. 31(1), Reg. 31(2), Reg. 10(6)'),
      req('transaction_type', 'VARCHAR', SAST_TRANSACTION_TYPES.join(', ')),
      req('shares', 'BIGINT', 'Shares acquired, sold or encumbered'),
      opt('holding_before_pct', 'DECIMAL(7,2)', 'Holding before, % of total shares'),
      opt('holding_after_pct', 'DECIMAL(7,2)', 'Holding after, % of total shares'),
    ],
  },
  encumbrance_events: {
    name: 'encumbrance_events',
    description: 'Promoter share pledge creation, release and invocation events',
    dateColumn: 'event_date',
    kind: 'events',
    columns: [
      ...IDENTITY_COLUMNS,
      req('event_date', 'DATE', 'Date of creation, release or invocation'),
      req('disclosure_date', 'DATE', 'Date disclosed (SAST Reg. 31)'),
      req('promoter_name', 'VARCHAR', 'Promoter whose shares are encumbered'),
      req('event_type', 'VARCHAR', ENCUMBRANCE_EVENT_TYPES.join(', ')),
      req('shares', 'BIGINT', 'Shares in this event'),
      req('pct_of_total_shares', 'DECIMAL(7,2)', 'Shares in this event, % of total shares'),
      req('encumbered_after_pct', 'DECIMAL(7,2)', "Promoter's encumbered shares after the event, % of total shares"),
      opt('lender', 'VARCHAR', 'Pledgee (bank, NBFC, debenture trustee)'),
      opt('reason', 'VARCHAR', 'Stated reason for the encumbrance'),
    ],
  },
  surveillance_flags: {
    name: 'surveillance_flags',
    description: 'Regulatory surveillance flags (snapshot)',
    dateColumn: 'snapshot_date',
    kind: 'snapshot',
    columns: [
      ...IDENTITY_COLUMNS,
      req('snapshot_date', 'DATE', 'Date of the surveillance list this row comes from'),
      req('exchange', 'VARCHAR', 'NSE or BSE'),
      req('framework', 'VARCHAR', SURVEILLANCE_FRAMEWORKS.join(', ')),
      req('stage', 'INTEGER', 'Stage within the framework (LT-ASM 1–4, ST-ASM 1–2, GSM 0–6)'),
      req('stage_label', 'VARCHAR', "e.g. 'LT-ASM Stage II'"),
      req('effective_date', 'DATE', 'Date the security entered this stage'),
    ],
  },
  rpt_transactions: {
    name: 'rpt_transactions',
    description: 'Half-yearly related-party transactions from XBRL filings',
    dateColumn: 'period_end',
    kind: 'events',
    columns: [
      ...IDENTITY_COLUMNS,
      req('period_end', 'DATE', 'End of the half-year (31 Mar or 30 Sep)'),
      req('counterparty', 'VARCHAR', 'Related party'),
      req('relationship', 'VARCHAR', RPT_RELATIONSHIPS.join(', ')),
      req('nature', 'VARCHAR', RPT_NATURES.join(', ')),
      req('amount_cr', 'DECIMAL(18,2)', 'Transaction value in the half-year, ₹ crore'),
      opt('half_year_revenue_cr', 'DECIMAL(18,2)', "Company's revenue from operations in the same half-year, ₹ crore"),
    ],
  },
};

/** `CREATE TABLE` for one table under `schema`; names come from the constants above only. */
export function createTableSql(table: FlagsTable, schema: string = FLAGS_SCHEMA): string {
  const cols = FLAGS_TABLES[table].columns.map((c) => `"${c.name}" ${c.type}${c.required ? ' NOT NULL' : ''}`);
  return `CREATE TABLE "${schema}"."${table}" (${cols.join(', ')})`;
}

// ---------------------------------------------------------------------------------------------
// Limits

export const FLAGS_LIMITS = {
  queriesPerMinute: 30,
  downloadsPerMinute: 10,
  maxPageSize: 5000,
} as const;
export const RETRY_AFTER_SECONDS = 60;

// ---------------------------------------------------------------------------------------------
// Files

/** Download format (the `format` parameter) → published file suffix. */
export const TABLE_DOWNLOAD_FORMATS = {
  csv: 'csv.zip',
  tsv: 'tsv.zip',
  sqlite: 'db.zip',
  parquet: 'parquet',
  'csv.gz': 'csv.gz',
  'tsv.gz': 'tsv.gz',
  'sqlite.gz': 'db.gz',
} as const;
export type DownloadFormat = keyof typeof TABLE_DOWNLOAD_FORMATS;
export type FileSuffix = (typeof TABLE_DOWNLOAD_FORMATS)[DownloadFormat];
export const ALL_DOWNLOAD_FORMATS = { sqlite: 'db.zip', 'sqlite.gz': 'db.gz' } as const;
export const ALL_BASENAME = 'flags_all';

export const TABLE_FILE_SUFFIXES = Object.values(TABLE_DOWNLOAD_FORMATS) as FileSuffix[];

export function tableFileName(table: FlagsTable, suffix: FileSuffix): string {
  return `${table}.${suffix}`;
}

/** Every file the flags manifest lists: 7 tables × 7 formats + flags_all.{db.zip,db.gz}. */
export function allFileNames(): string[] {
  const names = TABLE_NAMES.flatMap((t) => TABLE_FILE_SUFFIXES.map((s) => tableFileName(t, s)));
  return [...names, ...Object.values(ALL_DOWNLOAD_FORMATS).map((s) => `${ALL_BASENAME}.${s}`)];
}

export interface FlagsManifestFile {
  format: FileSuffix;
  size_bytes: number;
  size_human: string;
  row_count: number;
  /** The table the file holds, or 'all' for flags_all. */
  table: FlagsTable | 'all';
}

export interface Manifest {
  generated_at: string;
  total_rows: number;
  docs: string;
  license: string;
  data_source: string;
  disclaimer: string;
  /** Rows per table (the same counts the files carry). */
  tables: Record<FlagsTable, { row_count: number; last_date: string | null }>;
  files: Record<string, FlagsManifestFile>;
}

// ---------------------------------------------------------------------------------------------
// Endpoint parameters

export const RESPONSE_FORMATS = ['json', 'tsv'] as const;
export type ResponseFormat = (typeof RESPONSE_FORMATS)[number];

export const DATA_DEFAULTS = { limit: 100, offset: 0, format: 'json' } as const;
export const SCORECARD_DEFAULTS = { limit: 50, offset: 0 } as const;
export const SCORECARD_MAX_LIMIT = 1000;

export interface DataParams {
  table: FlagsTable;
  limit: number;
  offset: number;
  format: ResponseFormat;
}

export interface CompanyParams {
  identifier: string;
  tables: FlagsTable[];
  format: ResponseFormat;
}

export interface ScorecardParams {
  limit: number;
  offset: number;
  /** Windows end here; default: the latest date in the data. */
  as_of: string | null;
}

/** Raw query values as a web framework hands them over: repeated keys arrive as arrays. */
export type RawQuery = Record<string, string | string[] | undefined>;

export type Validated<T> = { ok: true; value: T } | { ok: false; error: ErrorSpec };

/** What a service or validator knows about an error; the front door adds path and help. */
export interface ErrorSpec {
  /** 404, 405, 422, 429 or 503 from the service; any 4xx a request is refused with before it reaches one. */
  status: number;
  error: 'bad_request' | 'not_found' | 'method_not_allowed' | 'unprocessable_entity' | 'rate_limited' | 'service_unavailable';
  message: string;
  hint: string;
  field?: string;
}

export class FlagsError extends ApiError {
  constructor(readonly spec: ErrorSpec) {
    super(spec.message);
  }
  get status(): number {
    return this.spec.status;
  }
  get hint(): string {
    return this.spec.hint;
  }
  body(path: string, baseUrl: string): ErrorBody {
    return errorBody(this.spec, path, baseUrl);
  }
}

export function unknownTable(name: string, field?: string): ErrorSpec {
  return {
    status: 404,
    error: 'not_found',
    message: `Unknown table '${name}'.`,
    hint: `Valid tables: ${TABLE_NAMES.join(', ')}. GET ${FLAGS_BASE}/tables lists them with row counts.`,
    ...(field ? { field } : {}),
  };
}

export function unknownCompany(identifier: string, corruptIsin: boolean): ErrorSpec {
  return corruptIsin
    ? {
        status: 404,
        error: 'not_found',
        message: `'${identifier}' is not a valid ISIN: its check digit does not match; the identifier is corrupted and retrying will not help.`,
        hint: `Correct the ISIN, or find the company by symbol at GET ${FLAGS_BASE}/companies.`,
      }
    : {
        status: 404,
        error: 'not_found',
        message: `No company with symbol or ISIN '${identifier}'.`,
        hint: `GET ${FLAGS_BASE}/companies lists every company with its symbol and ISIN.`,
      };
}

function invalid(field: string, message: string, hint: string): Validated<never> {
  return { ok: false, error: { status: 422, error: 'unprocessable_entity', field, message, hint } };
}

/** One scalar value; a key repeated with different values is refused rather than guessed. */
function scalar(q: RawQuery, key: string): Validated<string | undefined> {
  const v = q[key];
  if (Array.isArray(v)) {
    const distinct = [...new Set(v)];
    if (distinct.length > 1) return invalid(key, `Parameter '${key}' was given more than once with different values.`, `Pass '${key}' once.`);
    return { ok: true, value: distinct[0] };
  }
  return { ok: true, value: v };
}

/** A misspelt parameter would otherwise be ignored and its default used without a word. */
function known(q: RawQuery, keys: readonly string[]): Validated<true> {
  const bad = Object.keys(q).find((k) => !keys.includes(k));
  if (bad === undefined) return { ok: true, value: true };
  return invalid(bad, `Unknown parameter '${bad}'.`, `This endpoint takes: ${keys.join(', ') || 'no parameters'}.`);
}

function integer(q: RawQuery, key: string, dflt: number, min: number, max: number): Validated<number> {
  const s = scalar(q, key);
  if (!s.ok) return s;
  if (s.value === undefined) return { ok: true, value: dflt };
  const hint = `'${key}' is an integer from ${min} to ${max}${key === 'limit' ? `; for whole tables use GET ${FLAGS_BASE}/download/{table_name}` : ''}.`;
  if (!/^\d+$/.test(s.value.trim())) return invalid(key, `Parameter '${key}' must be a whole number, got '${s.value}'.`, hint);
  const n = Number(s.value.trim());
  if (n < min || n > max) return invalid(key, `Parameter '${key}' must be between ${min} and ${max}, got ${n}.`, hint);
  return { ok: true, value: n };
}

function format(q: RawQuery): Validated<ResponseFormat> {
  const s = scalar(q, 'format');
  if (!s.ok) return s;
  const v = (s.value ?? 'json').trim().toLowerCase();
  if (v === 'json' || v === 'tsv') return { ok: true, value: v };
  return invalid('format', `Parameter 'format' must be json or tsv, got '${s.value}'.`, `Use format=json (default) or format=tsv; files are at ${FLAGS_BASE}/download/{table_name}.`);
}

export const NO_PARAMS: readonly string[] = [];
export const DATA_PARAMS = ['limit', 'offset', 'format'] as const;
export const COMPANY_PARAMS = ['tables', 'format'] as const;
export const SCORECARD_PARAMS = ['limit', 'offset', 'as_of'] as const;
export const COMPANY_SCORECARD_PARAMS = ['as_of'] as const;

/** For endpoints without parameters. */
export function validateNoParams(q: RawQuery): Validated<true> {
  return known(q, NO_PARAMS);
}

export function validateDataParams(tableName: string, q: RawQuery): Validated<DataParams> {
  if (!isFlagsTable(tableName)) return { ok: false, error: unknownTable(tableName) };
  const k = known(q, DATA_PARAMS);
  if (!k.ok) return k;
  const limit = integer(q, 'limit', DATA_DEFAULTS.limit, 1, FLAGS_LIMITS.maxPageSize);
  if (!limit.ok) return limit;
  const offset = integer(q, 'offset', DATA_DEFAULTS.offset, 0, Number.MAX_SAFE_INTEGER);
  if (!offset.ok) return offset;
  const f = format(q);
  if (!f.ok) return f;
  return { ok: true, value: { table: tableName, limit: limit.value, offset: offset.value, format: f.value } };
}

export function validateCompanyParams(identifier: string, q: RawQuery): Validated<CompanyParams> {
  const id = identifier.trim();
  if (id === '') return { ok: false, error: unknownCompany(identifier, false) };
  const k = known(q, COMPANY_PARAMS);
  if (!k.ok) return k;
  const t = scalar(q, 'tables');
  if (!t.ok) return t;
  let tables: FlagsTable[] = [...TABLE_NAMES];
  if (t.value !== undefined && t.value.trim() !== '') {
    const asked = t.value.split(',').map((s) => s.trim().toLowerCase()).filter((s) => s !== '');
    const bad = asked.find((s) => !isFlagsTable(s));
    if (bad !== undefined) return { ok: false, error: unknownTable(bad, 'tables') };
    tables = TABLE_NAMES.filter((n) => asked.includes(n));
  }
  const f = format(q);
  if (!f.ok) return f;
  return { ok: true, value: { identifier: id, tables, format: f.value } };
}

function asOf(q: RawQuery): Validated<string | null> {
  const a = scalar(q, 'as_of');
  if (!a.ok) return a;
  if (a.value === undefined || a.value.trim() === '') return { ok: true, value: null };
  const v = a.value.trim();
  const d = new Date(`${v}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v) {
    return invalid('as_of', `Parameter 'as_of' must be a date YYYY-MM-DD, got '${a.value}'.`, 'Omit as_of to score as of the latest date in the data.');
  }
  return { ok: true, value: v };
}

export function validateScorecardParams(q: RawQuery): Validated<ScorecardParams> {
  const k = known(q, SCORECARD_PARAMS);
  if (!k.ok) return k;
  const limit = integer(q, 'limit', SCORECARD_DEFAULTS.limit, 1, SCORECARD_MAX_LIMIT);
  if (!limit.ok) return limit;
  const offset = integer(q, 'offset', SCORECARD_DEFAULTS.offset, 0, Number.MAX_SAFE_INTEGER);
  if (!offset.ok) return offset;
  const a = asOf(q);
  if (!a.ok) return a;
  return { ok: true, value: { limit: limit.value, offset: offset.value, as_of: a.value } };
}

export interface CompanyScorecardParams {
  identifier: string;
  as_of: string | null;
}

export function validateCompanyScorecardParams(identifier: string, q: RawQuery): Validated<CompanyScorecardParams> {
  const id = identifier.trim();
  if (id === '') return { ok: false, error: unknownCompany(identifier, false) };
  const k = known(q, COMPANY_SCORECARD_PARAMS);
  if (!k.ok) return k;
  const a = asOf(q);
  if (!a.ok) return a;
  return { ok: true, value: { identifier: id, as_of: a.value } };
}

// ---------------------------------------------------------------------------------------------
// Payloads

export interface ColumnInfo {
  name: string;
  type: SqlType;
}

export type FlagsRow = Record<string, unknown>;

/** GET /data/{table_name} */
export interface DataResponse {
  table: FlagsTable;
  total_rows: number;
  limit: number;
  offset: number;
  returned: number;
  /** Offset of the next page; null on the last page. */
  next_offset: number | null;
  columns: ColumnInfo[];
  data: FlagsRow[];
}

export interface CompanyIdentity {
  symbol: string;
  isin: string;
  company_name: string;
}

/** GET /company/{identifier} */
export interface CompanyResponse extends CompanyIdentity {
  identifier: string;
  total_rows: number;
  /** Only the tables asked for, in the canonical order; a table with no rows is present and empty. */
  tables: Partial<Record<FlagsTable, { row_count: number; columns: ColumnInfo[]; data: FlagsRow[] }>>;
}

/** GET /companies */
export interface CompaniesResponse {
  count: number;
  companies: Array<CompanyIdentity & { tables: FlagsTable[] }>;
}

export interface TableInfo {
  name: FlagsTable;
  description: string;
  row_count: number;
  companies: number;
  date_column: string;
  first_date: string | null;
  last_date: string | null;
  last_synced_at: string | null;
}

/** GET /tables */
export interface TablesResponse {
  count: number;
  total_rows: number;
  tables: TableInfo[];
}

/** GET /freshness */
export interface FreshnessResponse {
  /** When this copy was last synced from the publisher; null when unknown (data loaded by other means). */
  last_synced_at: string | null;
  /** The publisher's `generated_at` of the data held; null when unknown. */
  generated_at: string | null;
  total_rows: number;
  tables: Array<{ table: FlagsTable; row_count: number; last_date: string | null; last_synced_at: string | null }>;
}

/** What the store knows about the last sync of the flags data; the freshness endpoints report it. */
export interface SyncInfo {
  last_synced_at: string | null;
  generated_at: string | null;
}

export interface ErrorBody extends ErrorEnvelope {
  hint: string;
  field?: string;
  retry_after_seconds?: number;
}

export function errorBody(spec: ErrorSpec, path: string, baseUrl: string): ErrorBody {
  return {
    error: spec.error,
    status: spec.status,
    path,
    message: spec.message,
    help: { catalog: `${baseUrl}${FLAGS_BASE}/`, docs: FLAGS_DOCS_URL },
    hint: spec.hint,
    ...(spec.field ? { field: spec.field } : {}),
  };
}

export function rateLimited(kind: 'queries' | 'downloads'): ErrorSpec & { retry_after_seconds: number } {
  const per = kind === 'queries' ? FLAGS_LIMITS.queriesPerMinute : FLAGS_LIMITS.downloadsPerMinute;
  return {
    status: 429,
    error: 'rate_limited',
    message: `Rate limit exceeded: ${per} ${kind} per minute per IP.`,
    hint: `Wait ${RETRY_AFTER_SECONDS} seconds. For full tables use the bulk files (GET ${FLAGS_BASE}/download/{table_name} or ${FLAGS_BASE}/download/all) instead of paging /data.`,
    retry_after_seconds: RETRY_AFTER_SECONDS,
  };
}

// ---------------------------------------------------------------------------------------------
// Catalog

export interface EndpointInfo {
  path: string;
  method: 'GET';
  description: string;
  parameters: Array<{ name: string; in: 'path' | 'query'; required: boolean; description: string }>;
  /** Not part of the hosted API; added by Almanac. */
  extension?: true;
}

export const ENDPOINTS: readonly EndpointInfo[] = [
  { path: '/', method: 'GET', description: 'Catalog of endpoints and tables', parameters: [] },
  { path: '/companies', method: 'GET', description: 'Unique list of all companies with symbol and ISIN across all tables', parameters: [] },
  {
    path: '/company/{identifier}',
    method: 'GET',
    description: 'Everything for one company across tables',
    parameters: [
      { name: 'identifier', in: 'path', required: true, description: 'Symbol or ISIN, case-insensitive' },
      { name: 'tables', in: 'query', required: false, description: 'Comma-separated table names; default all' },
      { name: 'format', in: 'query', required: false, description: 'json (default) or tsv' },
    ],
  },
  {
    path: '/data/{table_name}',
    method: 'GET',
    description: 'Paginated rows of one table',
    parameters: [
      { name: 'table_name', in: 'path', required: true, description: TABLE_NAMES.join(', ') },
      { name: 'limit', in: 'query', required: false, description: `Rows per page, 1–${FLAGS_LIMITS.maxPageSize}, default ${DATA_DEFAULTS.limit}` },
      { name: 'offset', in: 'query', required: false, description: `Row offset, default ${DATA_DEFAULTS.offset}` },
      { name: 'format', in: 'query', required: false, description: 'json (default) or tsv' },
    ],
  },
  {
    path: '/download/all',
    method: 'GET',
    description: 'All seven tables in one SQLite file',
    parameters: [{ name: 'format', in: 'query', required: false, description: 'sqlite (zip) or sqlite.gz' }],
  },
  {
    path: '/download/{table_name}',
    method: 'GET',
    description: 'Whole table as a pre-generated file',
    parameters: [
      { name: 'table_name', in: 'path', required: true, description: TABLE_NAMES.join(', ') },
      { name: 'format', in: 'query', required: false, description: Object.keys(TABLE_DOWNLOAD_FORMATS).join(', ') },
    ],
  },
  { path: '/downloads/manifest', method: 'GET', description: 'Pre-generated files with sizes and row counts', parameters: [] },
  { path: '/freshness', method: 'GET', description: 'Last sync time and record count per table', parameters: [] },
  { path: '/tables', method: 'GET', description: 'Table names with row counts and freshness', parameters: [] },
  {
    path: '/scorecard',
    method: 'GET',
    description: 'Companies ranked by a red-flag score over the seven tables (docs/flags.md)',
    extension: true,
    parameters: [
      { name: 'limit', in: 'query', required: false, description: `1–${SCORECARD_MAX_LIMIT}, default ${SCORECARD_DEFAULTS.limit}` },
      { name: 'offset', in: 'query', required: false, description: 'default 0' },
      { name: 'as_of', in: 'query', required: false, description: 'YYYY-MM-DD; default the latest date in the data' },
    ],
  },
  {
    path: '/company/{identifier}/scorecard',
    method: 'GET',
    description: "One company's red-flag score, its signals and rank",
    extension: true,
    parameters: [
      { name: 'identifier', in: 'path', required: true, description: 'Symbol or ISIN, case-insensitive' },
      { name: 'as_of', in: 'query', required: false, description: 'YYYY-MM-DD; default the latest date in the data' },
    ],
  },
];

/** GET / */
export interface Catalog {
  name: string;
  version: 'v1';
  base_path: string;
  description: string;
  docs: string;
  endpoints: readonly EndpointInfo[];
  tables: Array<{ name: FlagsTable; description: string; kind: TableSpec['kind']; date_column: string; columns: ColumnInfo[] }>;
  limits: { queries_per_minute: number; downloads_per_minute: number; max_page_size: number };
  download_formats: { table: string[]; all: string[] };
}

export function catalog(): Catalog {
  return {
    name: 'Corporate red-flag API (local mirror)',
    version: 'v1',
    base_path: FLAGS_BASE,
    description:
      'Seven datasets of corporate red-flag signals for listed Indian companies, answered locally. Prefer the bulk downloads over paging /data for full-table work.',
    docs: FLAGS_DOCS_URL,
    endpoints: ENDPOINTS,
    tables: TABLE_NAMES.map((n) => ({
      name: n,
      description: FLAGS_TABLES[n].description,
      kind: FLAGS_TABLES[n].kind,
      date_column: FLAGS_TABLES[n].dateColumn,
      columns: FLAGS_TABLES[n].columns.map((c) => ({ name: c.name, type: c.type })),
    })),
    limits: { queries_per_minute: FLAGS_LIMITS.queriesPerMinute, downloads_per_minute: FLAGS_LIMITS.downloadsPerMinute, max_page_size: FLAGS_LIMITS.maxPageSize },
    download_formats: { table: Object.keys(TABLE_DOWNLOAD_FORMATS), all: Object.keys(ALL_DOWNLOAD_FORMATS) },
  };
}

// ---------------------------------------------------------------------------------------------
// Scorecard (Almanac extension; the rules are in docs/flags.md and beside the SQL)

/** Months each event window reaches back from `as_of`. */
export const SCORECARD_WINDOW_MONTHS = 12;

export interface ScorecardSignals {
  /** Latest long-term grade (most recent non-withdrawn action; the worse grade on a tie). */
  latest_rating: string | null;
  latest_rating_agency: string | null;
  latest_rating_date: string | null;
  latest_rating_outlook: string | null;
  latest_rating_watch: string | null;
  rating_actions_12m: number;
  rating_downgrades_12m: number;
  pledge_quarter_end: string | null;
  pledged_pct_of_promoter: number | null;
  /** Percentage points since the quarter four quarters earlier; null when that quarter is missing. */
  pledge_change_pp_4q: number | null;
  encumbrance_invocations_12m: number;
  promoter_sell_value_inr_12m: number;
  surveillance_stage: string | null;
  rpt_period_end: string | null;
  rpt_amount_cr: number | null;
  half_year_revenue_cr: number | null;
  rpt_pct_of_revenue: number | null;
}

export interface ScorecardPoints {
  rating: number;
  downgrades: number;
  outlook: number;
  pledge: number;
  pledge_trend: number;
  invocations: number;
  promoter_selling: number;
  surveillance: number;
  rpt: number;
}

export interface ScorecardEntry extends CompanyIdentity {
  rank: number;
  score: number;
  points: ScorecardPoints;
  signals: ScorecardSignals;
}

/** GET /scorecard */
export interface ScorecardResponse {
  as_of: string | null;
  window_months: number;
  total: number;
  limit: number;
  offset: number;
  method: string;
  companies: ScorecardEntry[];
}

/** GET /company/{identifier}/scorecard */
export interface CompanyScorecardResponse extends ScorecardEntry {
  identifier: string;
  as_of: string | null;
  window_months: number;
  total_companies: number;
  method: string;
}
