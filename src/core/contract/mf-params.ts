/**
 * Mutual Fund NAV API (spec: mf-nav-api.md): the endpoints' parameters with their aliases and rules,
 * the limits, and the error envelope. The REST routes, the MCP tools and the catalog all read these.
 * Choices the spec leaves open are recorded in docs/decisions.md under "MF service".
 */
import { ApiError, type ErrorEnvelope } from './api-error.js';
import { ISIN_SHAPE, isValidIsin } from './isin.js';
import { isIsoDate } from './dates.js';

export const MF_BASE = '/mf/v1';

export const MF_LIMITS = {
  requestsPerMinute: 300,
  downloadsRangePerMinute: 3000,
  downloadsRangePerDay: 25000,
  downloadsWholePerMinute: 60,
  downloadsWholePerDay: 500,
  bulkSchemesMax: 50,
  searchLimitMax: 100,
  searchLimitDefault: 20,
} as const;

// ---------------------------------------------------------------------------------------------
// Errors

export type MfErrorSlug = 'bad_request' | 'not_found' | 'method_not_allowed' | 'service_unavailable';

/** What a validator or service knows about a 4xx; the front door adds path and help links. */
export interface MfErrorSpec {
  /** 400, 404, 405 or 503 from the service; any 4xx a request is refused with before it reaches one. */
  status: number;
  error: MfErrorSlug;
  message: string;
  /** Validation errors: a stable machine code (e.g. `unknown_parameter`) and the parameter at fault. */
  code?: string;
  field?: string;
  /** What to do instead (e.g. call /search). */
  hint?: string;
}

export class MfError extends ApiError {
  constructor(readonly spec: MfErrorSpec) {
    super(spec.message);
  }
  get status(): number {
    return this.spec.status;
  }
  get hint(): string | undefined {
    return this.spec.hint;
  }
  body(path: string, baseUrl: string): MfErrorBody {
    return mfErrorBody(this.spec, path, baseUrl);
  }
}

export interface MfErrorBody extends ErrorEnvelope {
  error: MfErrorSlug;
  code?: string;
  field?: string;
  docs_url?: string;
  hint?: string;
}

export function mfHelp(baseUrl: string): { catalog: string; docs: string } {
  return { catalog: `${baseUrl}${MF_BASE}/`, docs: `${baseUrl}/openapi.json` };
}

/**
 * The spec's `error` is a slug and also "carries error.{code, field, docs_url}"; both cannot hold,
 * so code, field and docs_url sit beside `error` at the top level (docs/decisions.md, MF service).
 */
export function mfErrorBody(spec: MfErrorSpec, path: string, baseUrl: string): MfErrorBody {
  const help = mfHelp(baseUrl);
  return {
    error: spec.error,
    status: spec.status,
    path,
    message: spec.message,
    ...(spec.code ? { code: spec.code } : {}),
    ...(spec.field ? { field: spec.field, docs_url: `${help.catalog}#parameters.${spec.field}` } : {}),
    ...(spec.hint ? { hint: spec.hint } : {}),
    help,
  };
}

function invalid(code: string, field: string, message: string, hint?: string): MfError {
  return new MfError({ status: 400, error: 'bad_request', code, field, message, ...(hint ? { hint } : {}) });
}

export const SEARCH_HINT = `Find schemes by name, AMC or category with GET ${MF_BASE}/search?q=... and use their scheme_code or ISIN.`;

// ---------------------------------------------------------------------------------------------
// Parameters

/**
 * text: a comma list of case-insensitive contains-matches (repeating the parameter extends the list);
 * ids: a comma list of scheme codes and ISINs; the rest are scalars (repeated with different values
 * is an error).
 */
export type ParamKind = 'text' | 'ids' | 'string' | 'date' | 'int' | 'bool' | 'active' | 'format';

export interface ParamSpec {
  name: string;
  /** Accepted but kept out of the catalog (spec: "Canonical parameter names ..."). */
  aliases: readonly string[];
  kind: ParamKind;
  description: string;
}

const p = (name: string, kind: ParamKind, description: string, aliases: readonly string[] = []): ParamSpec => ({
  name,
  kind,
  description,
  aliases,
});

export const SEARCH_PARAMS: readonly ParamSpec[] = [
  p('q', 'string', 'Text to find in the scheme name; an exact scheme code or ISIN ranks first. Blank is an error.', ['name', 'query']),
  p('category', 'text', 'Contains-match on the raw category as filed (e.g. "Debt Scheme - Liquid Fund").'),
  p('sub_category', 'text', 'Contains-match on the SEBI sub-category (e.g. "Liquid Fund").', ['category_sub']),
  p('group', 'text', 'Contains-match on the category group: the clean lens (Equity, Debt, Hybrid, Other) or the raw header.'),
  p('amc', 'text', 'Contains-match on the fund house (AMC) name.'),
  p('plan', 'text', 'Contains-match on the plan (Direct, Regular, Other).'),
  p('option', 'text', 'Contains-match on the option (Growth, IDCW, ...).'),
  p('scheme_type', 'text', 'Contains-match on the scheme type (Open Ended, Close Ended, Interval Fund).', ['type']),
  p('isin', 'text', 'Contains-match on either ISIN (isin or isin2); a full ISIN finds its scheme.'),
  p('txic_code', 'text', 'Contains-match on the sub-category taxonomy code (e.g. DT-LIQ, EQ-).', ['txic']),
  p('exclude', 'text', 'Drop schemes whose name or AMC contains any of these; never reads the category.'),
  p('active', 'active', 'true (live schemes only; the default when browsing without q), false (matured only) or all. With q the default is all.'),
  p('first_date_from', 'date', 'Launch (first NAV) date on or after, YYYY-MM-DD.'),
  p('first_date_to', 'date', 'Launch (first NAV) date on or before, YYYY-MM-DD.'),
  p('last_date_from', 'date', 'Last NAV date on or after, YYYY-MM-DD.'),
  p('last_date_to', 'date', 'Last NAV date on or before, YYYY-MM-DD.'),
  p('limit', 'int', `Rows per page, 1 to ${MF_LIMITS.searchLimitMax} (default ${MF_LIMITS.searchLimitDefault}).`),
  p('offset', 'int', 'Rows to skip (default 0).'),
];

const WINDOW_PARAMS: readonly ParamSpec[] = [
  p('since', 'date', 'First date of the window, YYYY-MM-DD.', ['from', 'start', 'start_date']),
  p('to', 'date', 'Last date of the window, YYYY-MM-DD.', ['end', 'end_date', 'until']),
  p('latest', 'bool', 'true: only the latest NAV (with `to`: the latest on or before that date).'),
];

export const NAV_PARAMS: readonly ParamSpec[] = [
  p('scheme', 'ids', 'One scheme code or ISIN, or a comma list of them (codes and ISINs may be mixed).', ['isin', 'isins', 'scheme_code']),
  p('schemes', 'ids', `Comma list of up to ${MF_LIMITS.bulkSchemesMax} codes or ISINs; always the wrapped shape.`),
  ...WINDOW_PARAMS,
];

/** `/schemes/{code}/nav`: the scheme is in the path. */
export const SCHEME_NAV_PARAMS: readonly ParamSpec[] = WINDOW_PARAMS;

export const DOWNLOAD_FORMATS = [
  'parquet', 'csv.gz', 'csv.zip', 'tsv.gz', 'tsv.zip', 'sqlite', 'sqlite.gz', 'sqlite.zip',
  'latest', 'latest.csv', 'latest.csv.gz', 'latest.csv.zip', 'latest.parquet',
] as const;
export type DownloadFormat = (typeof DOWNLOAD_FORMATS)[number];
/** The formats this local mirror answers itself (the snapshot, generated from mf.latest). */
export const LOCAL_DOWNLOAD_FORMATS: readonly DownloadFormat[] = ['latest', 'latest.csv'];

export const DOWNLOAD_PARAMS: readonly ParamSpec[] = [
  p('format', 'format', `One of ${DOWNLOAD_FORMATS.join(', ')} (default parquet).`),
];

/** Parameters that belong to /search; on /nav they get a 400 that points there. */
const SEARCH_ONLY_ON_NAV = ['category', 'amc'];

/** Raw query pairs in arrival order (URLSearchParams entries, or built from an MCP tool's input). */
export type QueryPairs = Iterable<readonly [string, string]>;

/**
 * Groups the pairs by canonical name. Unknown names, and scalars given twice with different values
 * (also through an alias), are errors; list kinds accumulate.
 */
function collect(specs: readonly ParamSpec[], pairs: QueryPairs, onUnknown?: (name: string) => void): Map<string, string[]> {
  const byName = new Map<string, ParamSpec>();
  for (const s of specs) for (const n of [s.name, ...s.aliases]) byName.set(n, s);
  const out = new Map<string, string[]>();
  for (const [rawName, value] of pairs) {
    const spec = byName.get(rawName);
    if (!spec) {
      onUnknown?.(rawName);
      const known = specs.map((s) => s.name).join(', ');
      throw invalid('unknown_parameter', rawName, `Unknown parameter '${rawName}'. Accepted: ${known}.`);
    }
    const seen = out.get(spec.name);
    if (!seen) out.set(spec.name, [value]);
    else if (spec.kind === 'text' || spec.kind === 'ids') seen.push(value);
    else if (seen[0] !== value) {
      throw invalid(
        'conflicting_values',
        spec.name,
        `Parameter '${spec.name}' was given more than once with different values ('${seen[0]}' and '${value}'); give it once.`,
      );
    }
  }
  return out;
}

/** A comma list across repeats: trimmed, empties dropped, first occurrence kept. */
function list(values: string[] | undefined): string[] | undefined {
  if (!values) return undefined;
  const items = [...new Set(values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== ''))];
  return items.length ? items : undefined;
}

function date(field: string, values: string[] | undefined): string | undefined {
  if (!values) return undefined;
  const v = values[0].trim();
  if (!isIsoDate(v)) throw invalid('invalid_date', field, `Parameter '${field}' must be a calendar date YYYY-MM-DD; got '${values[0]}'.`);
  return v;
}

function int(field: string, values: string[] | undefined, fallback: number, min: number, max: number): number {
  if (!values) return fallback;
  const v = values[0].trim();
  if (!/^\d+$/.test(v)) throw invalid('invalid_integer', field, `Parameter '${field}' must be a whole number; got '${values[0]}'.`);
  const n = Number(v);
  if (n < min || n > max) throw invalid('out_of_range', field, `Parameter '${field}' must be between ${min} and ${max}; got ${v}.`);
  return n;
}

function bool(field: string, values: string[] | undefined): boolean {
  if (!values) return false;
  const v = values[0].trim().toLowerCase();
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw invalid('invalid_boolean', field, `Parameter '${field}' must be true or false; got '${values[0]}'.`);
}

function window(from: [string, string | undefined], to: [string, string | undefined]): void {
  if (from[1] && to[1] && from[1] > to[1]) {
    throw invalid('impossible_window', from[0], `Impossible date window: ${from[0]}=${from[1]} is after ${to[0]}=${to[1]}.`);
  }
}

// ---------------------------------------------------------------------------------------------
// /search

export type ActiveFilter = 'active' | 'matured' | 'all';

/** The text filters and the snapshot column(s) each reads (service SQL binds them in this order). */
export const SEARCH_TEXT_FILTERS = [
  'category', 'sub_category', 'group', 'amc', 'plan', 'option', 'scheme_type', 'isin', 'txic_code', 'exclude',
] as const;
export type SearchTextFilter = (typeof SEARCH_TEXT_FILTERS)[number];

/** Filters whose valid values a zero-match browse lists (the vocabularies; ISINs and names are not). */
export const BROWSE_VOCABULARY_FILTERS = ['group', 'category', 'sub_category', 'plan', 'option', 'scheme_type', 'amc', 'txic_code'] as const;

export interface SearchParams {
  q?: string;
  /** Lower-cased items of each given text filter. */
  filters: Partial<Record<SearchTextFilter, string[]>>;
  active: ActiveFilter;
  first_date_from?: string;
  first_date_to?: string;
  last_date_from?: string;
  last_date_to?: string;
  limit: number;
  offset: number;
  /** Anything beyond q, limit and offset: the response is the rich, browse shape. */
  filtered: boolean;
}

export function parseSearchParams(pairs: QueryPairs): SearchParams {
  const raw = collect(SEARCH_PARAMS, pairs);
  let q: string | undefined;
  if (raw.has('q')) {
    q = raw.get('q')![0].trim().replace(/\s+/g, ' ');
    if (q === '') throw invalid('blank_query', 'q', 'Parameter q is blank; give text to search for, or leave q out and browse with filters.');
  }
  const filters: SearchParams['filters'] = {};
  for (const f of SEARCH_TEXT_FILTERS) {
    const items = list(raw.get(f));
    if (items) filters[f] = items.map((v) => v.toLowerCase());
  }
  const activeRaw = raw.get('active')?.[0].trim().toLowerCase();
  let active: ActiveFilter = q === undefined ? 'active' : 'all';
  if (activeRaw !== undefined) {
    if (['true', 'yes', '1', 'active'].includes(activeRaw)) active = 'active';
    else if (['false', 'no', '0', 'matured', 'inactive'].includes(activeRaw)) active = 'matured';
    else if (activeRaw === 'all') active = 'all';
    else throw invalid('invalid_active', 'active', `Parameter 'active' must be true, false or all; got '${raw.get('active')![0]}'.`);
  }
  const params: SearchParams = {
    q,
    filters,
    active,
    first_date_from: date('first_date_from', raw.get('first_date_from')),
    first_date_to: date('first_date_to', raw.get('first_date_to')),
    last_date_from: date('last_date_from', raw.get('last_date_from')),
    last_date_to: date('last_date_to', raw.get('last_date_to')),
    limit: int('limit', raw.get('limit'), MF_LIMITS.searchLimitDefault, 1, MF_LIMITS.searchLimitMax),
    offset: int('offset', raw.get('offset'), 0, 0, Number.MAX_SAFE_INTEGER),
    filtered: false,
  };
  window(['first_date_from', params.first_date_from], ['first_date_to', params.first_date_to]);
  window(['last_date_from', params.last_date_from], ['last_date_to', params.last_date_to]);
  params.filtered =
    Object.keys(filters).length > 0 ||
    raw.has('active') ||
    [params.first_date_from, params.first_date_to, params.last_date_from, params.last_date_to].some((d) => d !== undefined);
  if (q === undefined && !params.filtered) {
    throw invalid(
      'missing_query',
      'q',
      `Give q, or browse with at least one filter (${SEARCH_TEXT_FILTERS.join(', ')}, active, first_date_from/_to, last_date_from/_to).`,
    );
  }
  return params;
}

// ---------------------------------------------------------------------------------------------
// /nav and /schemes/{code}/nav

export interface NavWindow {
  since?: string;
  to?: string;
  latest: boolean;
}

export interface NavParams extends NavWindow {
  /** Identifiers as given (trimmed, de-duplicated, in order). */
  ids: string[];
  /** Several ids or `schemes=`: the `{schemes, not_found}` shape. */
  wrapped: boolean;
}

function parseWindow(raw: Map<string, string[]>): NavWindow {
  const w: NavWindow = { since: date('since', raw.get('since')), to: date('to', raw.get('to')), latest: bool('latest', raw.get('latest')) };
  window(['since', w.since], ['to', w.to]);
  return w;
}

const useSearch = (name: string): void => {
  if (SEARCH_ONLY_ON_NAV.includes(name)) {
    throw invalid(
      'use_search',
      name,
      `/nav does not filter by ${name}. Find the schemes with GET ${MF_BASE}/search?${name}=..., then call ${MF_BASE}/nav?schemes=<codes> with the codes you chose.`,
      SEARCH_HINT,
    );
  }
};

export function parseNavParams(pairs: QueryPairs): NavParams {
  const raw = collect(NAV_PARAMS, pairs, useSearch);
  const single = list(raw.get('scheme')) ?? [];
  const bulk = list(raw.get('schemes')) ?? [];
  const ids = [...new Set([...single, ...bulk])];
  if (ids.length === 0) {
    throw invalid('missing_scheme', raw.has('schemes') ? 'schemes' : 'scheme', 'Give scheme=<code or ISIN> or schemes=<comma list>.', SEARCH_HINT);
  }
  if (ids.length > MF_LIMITS.bulkSchemesMax) {
    throw invalid(
      'too_many_schemes',
      raw.has('schemes') ? 'schemes' : 'scheme',
      `At most ${MF_LIMITS.bulkSchemesMax} schemes per call; got ${ids.length}. Split the list, or download the whole history (GET ${MF_BASE}/download).`,
    );
  }
  return { ids, wrapped: ids.length > 1 || raw.has('schemes'), ...parseWindow(raw) };
}

export function parseSchemeNavParams(code: string, pairs: QueryPairs): NavParams {
  return { ids: [code.trim()], wrapped: false, ...parseWindow(collect(SCHEME_NAV_PARAMS, pairs)) };
}

export function parseDownloadParams(pairs: QueryPairs): DownloadFormat {
  const raw = collect(DOWNLOAD_PARAMS, pairs);
  const f = (raw.get('format')?.[0] ?? 'parquet').trim().toLowerCase();
  if (!(DOWNLOAD_FORMATS as readonly string[]).includes(f)) {
    throw invalid('invalid_format', 'format', `Unknown format '${raw.get('format')![0]}'. Formats: ${DOWNLOAD_FORMATS.join(', ')}.`);
  }
  return f as DownloadFormat;
}

// ---------------------------------------------------------------------------------------------
// Identifiers

export type SchemeId =
  | { kind: 'code'; code: number }
  | { kind: 'isin'; isin: string }
  /** Shaped like an ISIN, but the check digit fails: corrupted in transit or typed wrong. */
  | { kind: 'corrupt_isin' }
  | { kind: 'malformed' };

/** Codes are AMFI's positive integers (INTEGER locally); ISINs are auto-detected by shape. */
export function classifySchemeId(raw: string): SchemeId {
  const s = raw.trim().toUpperCase();
  if (/^\d{1,9}$/.test(s)) return Number(s) > 0 ? { kind: 'code', code: Number(s) } : { kind: 'malformed' };
  if (ISIN_SHAPE.test(s)) return isValidIsin(s) ? { kind: 'isin', isin: s } : { kind: 'corrupt_isin' };
  return { kind: 'malformed' };
}

export function schemeNotFound(id: string, kind: SchemeId['kind']): MfErrorSpec {
  if (kind === 'corrupt_isin') {
    return {
      status: 404,
      error: 'not_found',
      code: 'corrupted_isin',
      message: `'${id}' is not a valid ISIN: its check digit (12th character) does not match the first eleven. The identifier is corrupted; retrying will not help.`,
      hint: `Correct the ISIN at its source, or ${SEARCH_HINT.charAt(0).toLowerCase()}${SEARCH_HINT.slice(1)}`,
    };
  }
  return {
    status: 404,
    error: 'not_found',
    code: kind === 'malformed' ? 'malformed_identifier' : 'unknown_scheme',
    message:
      kind === 'malformed'
        ? `'${id}' is neither a scheme code (digits) nor an ISIN (12 characters, e.g. INF209K01YN0).`
        : `No scheme with code or ISIN '${id}' in the local data.`,
    hint: SEARCH_HINT,
  };
}
