/**
 * Document 1 (indicator-api.md): the unified indicator data service, as data. The server, the MCP
 * tools, the generator, sync/ingest and the docs all read this module; nothing here touches I/O.
 * Choices where the spec says "not shown" are recorded in docs/decisions.md under "Indicators".
 */
import { ApiError, type ErrorEnvelope } from './api-error.js';
import type { ColumnSpec, TableSpec as BaseTableSpec } from './tables.js';
import { isIsoDate } from './dates.js';

// ---------------------------------------------------------------------------------------------
// Categories

export const CATEGORY_IDS = [
  'us_macro',
  'us_credit',
  'us_valuation',
  'us_insurance',
  'india_macro',
  'global_macro',
  'markets',
  'currencies',
] as const;
export type CategoryId = (typeof CATEGORY_IDS)[number];

/** The local table a category's series are read from (the listing envelope's `backend`). */
export type CategoryBackend = 'macro_indicators' | 'stock_prices';

export interface Category {
  category: CategoryId;
  one_liner: string;
  backend: CategoryBackend;
}

export const CATEGORIES: readonly Category[] = [
  {
    category: 'us_macro',
    one_liner: 'US macro: monetary, labor, inflation, GDP, consumer sentiment, housing, financial conditions',
    backend: 'macro_indicators',
  },
  {
    category: 'us_credit',
    one_liner: 'US credit stress: delinquency and charge-offs, credit-union aggregates, household debt, bank aggregates',
    backend: 'macro_indicators',
  },
  {
    category: 'us_valuation',
    one_liner: 'US equity valuation: cyclically adjusted P/E, market-cap-to-GDP ratio, nominal GDP, US Treasury yields',
    backend: 'macro_indicators',
  },
  {
    category: 'us_insurance',
    one_liner:
      'US insurance industry: invested-asset breakdown for life and property/casualty insurers (general account, separate account, by asset class)',
    backend: 'macro_indicators',
  },
  {
    category: 'india_macro',
    one_liner:
      'India macro and credit: policy rates, FX reserves, money supply, industrial production, CPI, WPI, GDP, capital formation, Nifty-type index P/E, P/B, dividend yield',
    backend: 'macro_indicators',
  },
  {
    category: 'global_macro',
    one_liner:
      'Global macro: business confidence for 37 countries, European sovereign bond yields (Germany, UK, euro-area AAA curve and all-issuer curve)',
    backend: 'macro_indicators',
  },
  {
    category: 'markets',
    one_liner:
      'Daily market prices, 16 symbols: equity indices (US, India, Japan, Hong Kong, Germany, Shanghai), US 10Y yield, dollar index, USD/INR, USD/JPY, gold, silver, copper, WTI, Brent, natural gas',
    backend: 'stock_prices',
  },
  { category: 'currencies', one_liner: 'Daily FX rates: USDINR, USDJPY, USDKRW, USDTWD', backend: 'macro_indicators' },
];

export function isCategoryId(s: string): s is CategoryId {
  return (CATEGORY_IDS as readonly string[]).includes(s);
}

// ---------------------------------------------------------------------------------------------
// Market symbols (category `markets`, table stock_prices). Ids are Yahoo Finance tickers, the
// convention of the daily market feed; they cannot collide with macro ids (which never hold ^ or =).

export interface MarketSymbol {
  symbol: string;
  name: string;
  country: string;
  unit: string;
  source: string;
  /** Futures and ETF-like instruments carry volume; index levels, yields and FX do not. */
  hasVolume: boolean;
}

export const MARKET_SYMBOLS: readonly MarketSymbol[] = [
  { symbol: '^GSPC', name: 'S&P 500 index', country: 'US', unit: 'index points', source: 'S&P Dow Jones Indices', hasVolume: true },
  { symbol: '^NSEI', name: 'NIFTY 50 index', country: 'IN', unit: 'index points', source: 'NSE Indices', hasVolume: true },
  { symbol: '^N225', name: 'Nikkei 225 index', country: 'JP', unit: 'index points', source: 'Nikkei Inc.', hasVolume: true },
  { symbol: '^HSI', name: 'Hang Seng Index', country: 'HK', unit: 'index points', source: 'Hang Seng Indexes', hasVolume: true },
  { symbol: '^GDAXI', name: 'DAX performance index', country: 'DE', unit: 'index points', source: 'Deutsche Boerse', hasVolume: true },
  { symbol: '000001.SS', name: 'SSE Composite index (Shanghai)', country: 'CN', unit: 'index points', source: 'Shanghai Stock Exchange', hasVolume: true },
  { symbol: '^TNX', name: 'US 10-year Treasury yield', country: 'US', unit: 'percent', source: 'Cboe', hasVolume: false },
  { symbol: 'DX-Y.NYB', name: 'US Dollar Index (DXY)', country: 'US', unit: 'index points', source: 'ICE Futures US', hasVolume: false },
  { symbol: 'INR=X', name: 'USD/INR spot', country: 'IN', unit: 'INR per USD', source: 'ICE Data Services', hasVolume: false },
  { symbol: 'JPY=X', name: 'USD/JPY spot', country: 'JP', unit: 'JPY per USD', source: 'ICE Data Services', hasVolume: false },
  { symbol: 'GC=F', name: 'Gold (COMEX front month)', country: 'US', unit: 'USD per troy ounce', source: 'CME Group', hasVolume: true },
  { symbol: 'SI=F', name: 'Silver (COMEX front month)', country: 'US', unit: 'USD per troy ounce', source: 'CME Group', hasVolume: true },
  { symbol: 'HG=F', name: 'Copper (COMEX front month)', country: 'US', unit: 'USD per pound', source: 'CME Group', hasVolume: true },
  { symbol: 'CL=F', name: 'WTI crude oil', country: 'US', unit: 'USD per barrel', source: 'EIA', hasVolume: true },
  { symbol: 'BZ=F', name: 'Brent crude oil (ICE front month)', country: 'GB', unit: 'USD per barrel', source: 'ICE Futures Europe', hasVolume: true },
  { symbol: 'NG=F', name: 'Henry Hub natural gas (NYMEX front month)', country: 'US', unit: 'USD per MMBtu', source: 'CME Group', hasVolume: true },
];

// ---------------------------------------------------------------------------------------------
// Resources (field names are the spec's)

export const FREQUENCIES = ['daily', 'weekly', 'monthly', 'quarterly', 'annual'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/** Indicator, full row (category listing). */
export interface IndicatorRow {
  indicator_id: string;
  name: string;
  country: string;
  source_category: string;
  frequency: Frequency;
  unit: string;
  source: string;
  source_series_id: string;
  seasonally_adjusted: boolean;
  first_date: string | null;
  last_date: string | null;
  record_count: number;
  notes: string;
}

/** Listing row with `compact=true`: no notes. */
export type CompactIndicatorRow = Pick<IndicatorRow, 'indicator_id' | 'name' | 'frequency' | 'last_date'>;

export const COMPACT_FIELDS = ['indicator_id', 'name', 'frequency', 'last_date'] as const;
export const FULL_FIELDS = [
  'indicator_id',
  'name',
  'country',
  'source_category',
  'frequency',
  'unit',
  'source',
  'source_series_id',
  'seasonally_adjusted',
  'first_date',
  'last_date',
  'record_count',
  'notes',
] as const;

export interface SearchHit {
  indicator_id: string;
  name: string;
  category: CategoryId;
  country: string;
  frequency: Frequency;
  first_date: string | null;
  last_date: string | null;
}

/** GET /v1/categories/{category}/indicators: full rows, or with `compact=true` the compact ones. */
export interface CategoryListing<Row extends IndicatorRow | CompactIndicatorRow = IndicatorRow | CompactIndicatorRow> {
  category: CategoryId;
  one_liner: string;
  backend: CategoryBackend;
  count: number;
  compact: boolean;
  indicators: Row[];
}

/** One item of GET /v1/categories ("not shown"; see decisions). */
export interface CategoryMenuItem {
  category: CategoryId;
  one_liner: string;
  count: number;
  indicators_url: string;
}

export interface CategoriesMenu {
  count: number;
  categories: CategoryMenuItem[];
}

export interface FindEnvelope {
  query: string;
  limit: number;
  count: number;
  matches: SearchHit[];
}

export interface SeriesMeta {
  unknown_ids: string[];
  empty_ids: string[];
  count: number;
  max_rows: number;
  /** True when the range held more than `max_rows` dates; continue from `next_from`. */
  truncated: boolean;
  next_from: string | null;
}

/** One wide row: `date` plus one key per returned column; null where that indicator has no value. */
export type SeriesRow = { date: string } & Record<string, string | number | null>;

/** JSON response of /v1/series (top-level layout "not shown"; see decisions). */
export interface SeriesResponse {
  ids: string[];
  from: string | null;
  to: string | null;
  columns: string[];
  count: number;
  rows: SeriesRow[];
  meta: SeriesMeta;
}

// ---------------------------------------------------------------------------------------------
// Local tables (schema `indicators`): the generator writes them, sync/ingest creates them from this.

export type ColumnType = 'VARCHAR' | 'DATE' | 'DOUBLE' | 'BIGINT' | 'INTEGER' | 'BOOLEAN';

export interface TableSpec extends BaseTableSpec<TableName, ColumnSpec<ColumnType>> {
  primaryKey: readonly string[];
  description: string;
}

export const TABLE_NAMES = ['macro_indicators', 'stock_prices', 'indicator_config'] as const;
export type TableName = (typeof TABLE_NAMES)[number];

export const INDICATOR_TABLES: Record<TableName, TableSpec> = {
  macro_indicators: {
    name: 'macro_indicators',
    description: 'Long-format time series of the visible indicators: one row per indicator and observation date',
    primaryKey: ['indicator_id', 'date'],
    columns: [
      { name: 'indicator_id', type: 'VARCHAR', required: true },
      { name: 'date', type: 'DATE', required: true },
      { name: 'value', type: 'DOUBLE', required: true },
    ],
  },
  stock_prices: {
    name: 'stock_prices',
    description: 'Daily OHLCV for the 16 market symbols; volume is empty for index levels, yields and FX',
    primaryKey: ['symbol', 'date'],
    columns: [
      { name: 'symbol', type: 'VARCHAR', required: true },
      { name: 'date', type: 'DATE', required: true },
      { name: 'open', type: 'DOUBLE', required: false },
      { name: 'high', type: 'DOUBLE', required: false },
      { name: 'low', type: 'DOUBLE', required: false },
      { name: 'close', type: 'DOUBLE', required: true },
      { name: 'volume', type: 'BIGINT', required: false },
    ],
  },
  indicator_config: {
    name: 'indicator_config',
    description: 'Data dictionary: one row per indicator (market symbols included), visible or not',
    primaryKey: ['indicator_id'],
    columns: [
      { name: 'indicator_id', type: 'VARCHAR', required: true },
      { name: 'name', type: 'VARCHAR', required: true },
      { name: 'category', type: 'VARCHAR', required: true },
      { name: 'country', type: 'VARCHAR', required: true },
      { name: 'source_category', type: 'VARCHAR', required: true },
      { name: 'frequency', type: 'VARCHAR', required: true },
      { name: 'unit', type: 'VARCHAR', required: true },
      { name: 'source', type: 'VARCHAR', required: true },
      { name: 'source_series_id', type: 'VARCHAR', required: true },
      { name: 'seasonally_adjusted', type: 'BOOLEAN', required: true },
      { name: 'first_date', type: 'DATE', required: false },
      { name: 'last_date', type: 'DATE', required: false },
      { name: 'record_count', type: 'INTEGER', required: true },
      { name: 'notes', type: 'VARCHAR', required: true },
      { name: 'visible', type: 'BOOLEAN', required: true },
    ],
  },
};

/** The schema the store ATTACHes the indicator database as. */
export const SCHEMA = 'indicators';

/** `CREATE TABLE` for one table, optionally qualified by schema; identifiers come only from INDICATOR_TABLES. */
export function createTableSql(table: TableName, schema?: string): string {
  const t = INDICATOR_TABLES[table];
  const cols = t.columns.map((c) => `"${c.name}" ${c.type}${c.required ? ' NOT NULL' : ''}`);
  const qualified = schema ? `${schema}.${t.name}` : t.name;
  return `CREATE TABLE ${qualified} (${cols.join(', ')}, PRIMARY KEY (${t.primaryKey.map((k) => `"${k}"`).join(', ')}))`;
}

// ---------------------------------------------------------------------------------------------
// Files and the manifest

/** Suffixes of the per-table files, in manifest order. */
export const TABLE_FILE_FORMATS = ['parquet', 'csv.zip', 'csv.gz', 'tsv.zip', 'tsv.gz', 'db.zip', 'db.gz', 'duckdb.zip', 'duckdb.gz'] as const;
export type TableFileFormat = (typeof TABLE_FILE_FORMATS)[number];
export const ALL_FILE_FORMATS = ['db.zip', 'db.gz', 'duckdb.zip', 'duckdb.gz'] as const;
export type AllFileFormat = (typeof ALL_FILE_FORMATS)[number];
export const ALL_BASENAME = 'indicators_all';

/** `format` query values of /v1/download/{table_name} → file suffix. */
export const TABLE_DOWNLOAD_FORMATS: Record<string, TableFileFormat> = {
  parquet: 'parquet',
  csv: 'csv.zip',
  'csv.gz': 'csv.gz',
  tsv: 'tsv.zip',
  'tsv.gz': 'tsv.gz',
  sqlite: 'db.zip',
  'sqlite.gz': 'db.gz',
  duckdb: 'duckdb.zip',
  'duckdb.gz': 'duckdb.gz',
};
/** `format` query values of /v1/download/all → file suffix. */
export const ALL_DOWNLOAD_FORMATS: Record<string, AllFileFormat> = {
  sqlite: 'db.zip',
  'sqlite.gz': 'db.gz',
  duckdb: 'duckdb.zip',
  'duckdb.gz': 'duckdb.gz',
};

export function tableFileName(table: TableName, format: TableFileFormat): string {
  return `${table}.${format}`;
}
export function allFileName(format: AllFileFormat): string {
  return `${ALL_BASENAME}.${format}`;
}

/** Manifest entry ("not shown": MF's entry plus `table`, `all` for the whole-dataset files). */
export interface IndicatorsManifestFile {
  format: string;
  size_bytes: number;
  size_human: string;
  row_count: number;
  table: TableName | 'all';
}

export interface IndicatorsManifest {
  generated_at: string;
  total_rows: number;
  files: Record<string, IndicatorsManifestFile>;
}

// ---------------------------------------------------------------------------------------------
// Limits and parameters

export const INDICATOR_LIMITS = {
  per_ip_per_minute: 60,
  per_ip_downloads_per_minute: 10,
  max_ids_per_series_call: 10,
  max_rows_per_response: 10_000,
  find_limit_min: 1,
  find_limit_max: 200,
  find_limit_default: 50,
  find_query_min_length: 2,
  find_query_max_length: 60,
  legacy_per_ip_per_minute: '10-30',
} as const;

export const SERIES_FORMATS = ['json', 'tsv'] as const;
export type SeriesFormat = (typeof SERIES_FORMATS)[number];

/**
 * Each endpoint's parameters as JSON Schema: Fastify validates with these, the MCP tools mirror
 * them and /openapi.json publishes them. Rules that JSON Schema cannot state (a real calendar date,
 * at most 10 ids, from ≤ to) are checked by the parse functions below.
 */
export const PARAMS = {
  categoryIndicators: {
    params: {
      type: 'object',
      required: ['category'],
      properties: { category: { type: 'string', description: `One of: ${CATEGORY_IDS.join(', ')}` } },
    },
    querystring: {
      type: 'object',
      properties: {
        compact: { type: 'boolean', default: false, description: 'Rows carry only indicator_id, name, frequency, last_date' },
      },
    },
  },
  find: {
    querystring: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          minLength: INDICATOR_LIMITS.find_query_min_length,
          maxLength: INDICATOR_LIMITS.find_query_max_length,
          description: 'Case-insensitive substring of indicator_id or name, across all categories',
        },
        q: { type: 'string', minLength: INDICATOR_LIMITS.find_query_min_length, maxLength: INDICATOR_LIMITS.find_query_max_length, description: 'Alias of query' },
        limit: {
          type: 'integer',
          minimum: INDICATOR_LIMITS.find_limit_min,
          maximum: INDICATOR_LIMITS.find_limit_max,
          default: INDICATOR_LIMITS.find_limit_default,
        },
      },
    },
  },
  series: {
    querystring: {
      type: 'object',
      properties: {
        ids: { type: 'string', description: `Comma-separated indicator ids or market symbols, at most ${INDICATOR_LIMITS.max_ids_per_series_call}` },
        // Dates are checked by parseSeriesParams (a real calendar date), so one rule gives one error type.
        from: { type: 'string', description: 'Start date YYYY-MM-DD, inclusive' },
        to: { type: 'string', description: 'End date YYYY-MM-DD, inclusive' },
        format: { type: 'string', enum: [...SERIES_FORMATS], default: 'json' },
      },
    },
  },
  downloadAll: {
    querystring: {
      type: 'object',
      properties: { format: { type: 'string', enum: Object.keys(ALL_DOWNLOAD_FORMATS), default: 'sqlite' } },
    },
  },
  downloadTable: {
    params: {
      type: 'object',
      required: ['table_name'],
      properties: { table_name: { type: 'string', enum: [...TABLE_NAMES] } },
    },
    querystring: {
      type: 'object',
      properties: { format: { type: 'string', enum: Object.keys(TABLE_DOWNLOAD_FORMATS), default: 'parquet' } },
    },
  },
} as const;

export interface FindParams {
  query: string;
  limit: number;
}

export interface SeriesParams {
  ids: string[];
  from: string | null;
  to: string | null;
  format: SeriesFormat;
}

// ---------------------------------------------------------------------------------------------
// Error envelopes

/** One item of a 422 `detail` array (FastAPI/pydantic shape). */
export interface ValidationItem {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

export interface ValidationErrorBody {
  detail: ValidationItem[];
}

/** Thrown by the parse functions; front doors turn it into a 422 (REST) or a tool error (MCP). */
export class ValidationError extends ApiError {
  readonly status = 422;
  readonly hint = undefined;
  constructor(readonly detail: ValidationItem[]) {
    super(detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; '));
  }
  body(): ValidationErrorBody {
    return { detail: this.detail };
  }
}

export interface ErrorBody extends ErrorEnvelope {
  hint?: string;
  [extra: string]: unknown;
}

const SLUGS: Record<number, string> = {
  400: 'bad_request',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable_entity',
  429: 'too_many_requests',
};

export function help(baseUrl: string): { catalog: string; docs: string } {
  return { catalog: `${baseUrl}/v1/`, docs: `${baseUrl}/openapi.json` };
}

export function errorBody(
  baseUrl: string,
  status: number,
  path: string,
  message: string,
  extra: { hint?: string; [k: string]: unknown } = {},
): ErrorBody {
  return { error: SLUGS[status] ?? 'bad_request', status, path, message, help: help(baseUrl), ...extra };
}

/** Thrown by services for a deliberate 4xx (e.g. unknown category). */
export class ServiceError extends ApiError {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: { hint?: string; [k: string]: unknown } = {},
  ) {
    super(message);
  }
  get hint(): string | undefined {
    return this.extra.hint;
  }
  /** The envelope names the path without its query string. */
  body(path: string, baseUrl: string): ErrorBody {
    return errorBody(baseUrl, this.status, path.split('?')[0], this.message, this.extra);
  }
}

export interface RateLimitBody {
  detail: string;
  limit: string;
  retry_after_seconds: number;
  suggestion: string;
  limits_doc: string;
}

export function rateLimitBody(baseUrl: string, kind: 'requests' | 'downloads'): RateLimitBody {
  const limit =
    kind === 'requests'
      ? `${INDICATOR_LIMITS.per_ip_per_minute} requests per minute per IP`
      : `${INDICATOR_LIMITS.per_ip_downloads_per_minute} downloads per minute per IP`;
  return {
    detail: `Rate limit exceeded: ${limit}.`,
    limit,
    retry_after_seconds: 60,
    suggestion: `For many indicators or long history, download the whole dataset once: ${baseUrl}/v1/download/all (see ${baseUrl}/v1/downloads/manifest).`,
    limits_doc: `${baseUrl}/v1/`,
  };
}

// ---------------------------------------------------------------------------------------------
// Endpoints, catalog, legacy map

export interface EndpointInfo {
  methods: string[];
  path: string;
  summary: string;
}

export const ENDPOINTS: readonly EndpointInfo[] = [
  { methods: ['GET'], path: '/v1/', summary: 'Catalog: categories, tool summary and limits' },
  { methods: ['GET'], path: '/v1/categories', summary: 'Menu of the 8 categories with one-line summaries' },
  { methods: ['GET'], path: '/v1/categories/{category}/indicators', summary: 'Indicators of one category (compact=true for id, name, frequency, last_date)' },
  { methods: ['GET'], path: '/v1/find', summary: 'Cross-category search by id or name (query, limit)' },
  { methods: ['GET'], path: '/v1/series', summary: 'Wide-format time series for up to 10 ids (ids, from, to, format=json|tsv)' },
  { methods: ['GET', 'HEAD'], path: '/v1/downloads/manifest', summary: 'Manifest of the bulk files (sizes, row counts, generated_at)' },
  { methods: ['GET', 'HEAD'], path: '/v1/download/all', summary: 'Whole dataset in one file (format=sqlite|sqlite.gz|duckdb|duckdb.gz)' },
  { methods: ['GET', 'HEAD'], path: '/v1/download/{table_name}', summary: 'One table as a file (macro_indicators, stock_prices, indicator_config)' },
];

export const MCP_TOOLS = ['list_categories', 'list_indicators_in_category', 'find_indicator', 'v2_get_series'] as const;

export const API_VERSION = '3.1.0';

export function endpointsList(baseUrl: string): { endpoints: EndpointInfo[]; docs: string } {
  return { endpoints: [...ENDPOINTS], docs: `${baseUrl}/openapi.json` };
}

/** GET /v1/ ("exact keys beyond categories, tools and limits: not shown"; see decisions). */
export function catalogPayload(baseUrl: string, categories: CategoryMenuItem[]) {
  return {
    name: 'Unified Indicator Data Service (local mirror)',
    version: API_VERSION,
    description:
      'About 330 curated indicators in 8 categories from 17+ public publishers. List categories, list one category, then pull series by id. Read each indicator\'s notes before computing anything.',
    categories,
    tools: {
      rest: ENDPOINTS.map((e) => ({ ...e, url: `${baseUrl}${e.path}` })),
      mcp: { endpoint: `${baseUrl}/mcp`, transport: 'streamable-http', tools: [...MCP_TOOLS] },
      workflow: ['GET /v1/categories', 'GET /v1/categories/{category}/indicators', 'GET /v1/series?ids=a,b'],
    },
    limits: {
      per_ip_per_minute: INDICATOR_LIMITS.per_ip_per_minute,
      per_ip_downloads_per_minute: INDICATOR_LIMITS.per_ip_downloads_per_minute,
      max_ids_per_series_call: INDICATOR_LIMITS.max_ids_per_series_call,
      max_rows_per_response: INDICATOR_LIMITS.max_rows_per_response,
    },
    bulk: { manifest: `${baseUrl}/v1/downloads/manifest`, all: `${baseUrl}/v1/download/all` },
    docs: `${baseUrl}/openapi.json`,
    legacy: `${baseUrl}/legacy/v1/`,
    license: 'CC0-1.0',
    disclaimer:
      'Republished public records; not an authoritative source. Each indicator names its publisher in `source`. Provided as is, with no guarantee of accuracy, completeness or availability.',
  };
}

export const LEGACY_MAP: Record<string, string> = {
  '/legacy/v1/indicators': '/v1/categories or /v1/find',
  '/legacy/v1/directory': '/v1/categories',
  '/legacy/v1/markets': '/v1/find',
  '/legacy/v1/market_series': '/v1/series',
  '/legacy/v1/series': '/v1/series',
  '/legacy/v1/download/all': '/v1/download/all',
  '/legacy/v1/download/{table}': '/v1/download/{table}',
  '/legacy/v1/downloads/manifest': '/v1/downloads/manifest',
};

/** GET /legacy/v1/: the migration map. */
export function legacyPayload(baseUrl: string) {
  return {
    surface: 'legacy',
    frozen: true,
    message: 'The legacy surface is frozen. Use the /v1 endpoints; this map gives the current equivalent of each legacy path.',
    unified_endpoint_map: LEGACY_MAP,
    catalog: `${baseUrl}/v1/`,
    mcp: `${baseUrl}/legacy/v1/mcp/http`,
  };
}

// ---------------------------------------------------------------------------------------------
// Parameter rules that JSON Schema cannot express (shared by REST, MCP and the CLI)

/** Splits `ids` on commas, trims, drops blanks and repeats (first spelling wins). */
export function splitIds(raw: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of raw.split(',')) {
    const id = part.trim();
    if (id && !seen.has(id.toLowerCase())) {
      seen.add(id.toLowerCase());
      out.push(id);
    }
  }
  return out;
}

/** Validates /v1/series input (already type-checked by the schema, or raw from MCP/CLI). */
export function parseSeriesParams(q: { ids?: string; from?: string; to?: string; format?: string }): SeriesParams {
  const detail: ValidationItem[] = [];
  const ids = splitIds(q.ids ?? '');
  if (q.ids === undefined) {
    detail.push({ loc: ['query', 'ids'], msg: 'Field required', type: 'missing', input: null });
  } else if (ids.length === 0) {
    detail.push({ loc: ['query', 'ids'], msg: 'ids must name at least one indicator id', type: 'value_error', input: q.ids });
  } else if (ids.length > INDICATOR_LIMITS.max_ids_per_series_call) {
    detail.push({
      loc: ['query', 'ids'],
      msg: `At most ${INDICATOR_LIMITS.max_ids_per_series_call} ids per call; got ${ids.length}. Split into batches or use /v1/download/all`,
      type: 'too_long',
      input: q.ids,
      ctx: { max_length: INDICATOR_LIMITS.max_ids_per_series_call, actual_length: ids.length },
    });
  }
  for (const key of ['from', 'to'] as const) {
    const v = q[key];
    if (v !== undefined && !isIsoDate(v)) {
      detail.push({ loc: ['query', key], msg: 'Input should be a valid date in the format YYYY-MM-DD', type: 'date_parsing', input: v });
    }
  }
  const format = q.format ?? 'json';
  if (!(SERIES_FORMATS as readonly string[]).includes(format)) {
    detail.push({ loc: ['query', 'format'], msg: "Input should be 'json' or 'tsv'", type: 'enum', input: format, ctx: { expected: "'json' or 'tsv'" } });
  }
  if (detail.length === 0 && q.from && q.to && q.from > q.to) {
    detail.push({ loc: ['query', 'from'], msg: 'from must be on or before to', type: 'value_error', input: q.from, ctx: { to: q.to } });
  }
  if (detail.length) throw new ValidationError(detail);
  return { ids, from: q.from ?? null, to: q.to ?? null, format: format as SeriesFormat };
}

/** Validates /v1/find input; `q` is the alias of `query` (query wins when both are given). */
export function parseFindParams(q: { query?: string; q?: string; limit?: number | string }): FindParams {
  const detail: ValidationItem[] = [];
  const key = q.query !== undefined ? 'query' : 'q';
  const text = q.query ?? q.q;
  if (text === undefined) {
    detail.push({ loc: ['query', 'query'], msg: 'Field required', type: 'missing', input: null });
  } else if (text.length < INDICATOR_LIMITS.find_query_min_length) {
    detail.push({
      loc: ['query', key],
      msg: `String should have at least ${INDICATOR_LIMITS.find_query_min_length} characters`,
      type: 'string_too_short',
      input: text,
      ctx: { min_length: INDICATOR_LIMITS.find_query_min_length },
    });
  } else if (text.length > INDICATOR_LIMITS.find_query_max_length) {
    detail.push({
      loc: ['query', key],
      msg: `String should have at most ${INDICATOR_LIMITS.find_query_max_length} characters`,
      type: 'string_too_long',
      input: text,
      ctx: { max_length: INDICATOR_LIMITS.find_query_max_length },
    });
  }
  const limit = q.limit === undefined ? INDICATOR_LIMITS.find_limit_default : Number(q.limit);
  if (!Number.isInteger(limit)) {
    detail.push({ loc: ['query', 'limit'], msg: 'Input should be a valid integer', type: 'int_parsing', input: q.limit });
  } else if (limit < INDICATOR_LIMITS.find_limit_min) {
    detail.push({ loc: ['query', 'limit'], msg: `Input should be greater than or equal to ${INDICATOR_LIMITS.find_limit_min}`, type: 'greater_than_equal', input: q.limit, ctx: { ge: INDICATOR_LIMITS.find_limit_min } });
  } else if (limit > INDICATOR_LIMITS.find_limit_max) {
    detail.push({ loc: ['query', 'limit'], msg: `Input should be less than or equal to ${INDICATOR_LIMITS.find_limit_max}`, type: 'less_than_equal', input: q.limit, ctx: { le: INDICATOR_LIMITS.find_limit_max } });
  }
  if (detail.length) throw new ValidationError(detail);
  return { query: text as string, limit };
}

/** Human-readable size for manifests (1024-based, one decimal). */
export function sizeHuman(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${bytes} B` : `${v.toFixed(1)} ${units[i]}`;
}
