import type { Engine } from '../../engine/engine.js';
import { perGeneration } from '../../engine/generation.js';
import { LATEST_COLUMNS } from '../../contract/mf.js';
import {
  DOWNLOAD_PARAMS,
  LOCAL_DOWNLOAD_FORMATS,
  MF_BASE,
  MF_LIMITS,
  NAV_PARAMS,
  SCHEME_NAV_PARAMS,
  SEARCH_PARAMS,
  type ParamSpec,
} from '../../contract/mf-params.js';
import { ACTIVE_BONUS, RELEVANCE_TIERS } from './search.js';
import { loadedSchema } from './loaded-schema.js';

export const TERMS = {
  license: 'CC0 1.0 Universal (public domain dedication)',
  license_url: 'https://creativecommons.org/publicdomain/zero/1.0/',
  data_source: 'Daily NAV files published by the industry body (AMFI), republished as a compilation.',
  disclaimer:
    'Underlying NAV data is a public record. This is not an authoritative source; it is provided as is, without warranty. Check figures with the fund house before acting on them.',
  text:
    'The compilation is released under CC0 1.0: copy, modify and redistribute it, even commercially, without asking. ' +
    'Matured schemes stay in the data with their final NAV, so there is no survivorship bias. ' +
    'This local mirror answers from data synced to this machine; it may lag the publisher by up to one sync.',
} as const;

/** What each snapshot column means (spec: latest-snapshot row). */
export const LATEST_COLUMN_NOTES: Record<(typeof LATEST_COLUMNS)[number], string> = {
  scheme_code: "Scheme code. One code is one plan-and-option variant, not a whole fund; a fund's size is the sum over its code family.",
  isin: 'Payout or growth ISIN.',
  isin2: 'Reinvestment ISIN where one exists; same scheme and same NAV row as isin. Nullable.',
  scheme_name: 'Name as filed.',
  amc: 'Fund house.',
  scheme_type: 'Open Ended, Close Ended or Interval Fund.',
  category: 'Raw category as filed.',
  category_sub: 'SEBI sub-category; blank on some older schemes, deliberately.',
  category_group: 'Raw header as filed; 20+ coexisting values.',
  category_group_clean: 'Stable lens with exactly 4 values: Equity, Debt, Hybrid, Other.',
  scheme_plan: 'Plan. The oldest code of a family can carry Other: it predates the Direct/Regular split.',
  scheme_option: 'Option (Growth, IDCW, ...).',
  txic_code: 'Taxonomy code of the SEBI sub-category; stable across label renames.',
  first_date: 'First NAV date.',
  last_date: 'Last NAV date.',
  is_active: 'True when a NAV was published within the last 45 days.',
  is_stale: 'Staleness flag.',
  nav: 'Latest NAV. A final NAV of exactly 0.00 on an inactive row means end of life, not a price: exclude such rows before averaging.',
  nav_date: 'Date of the latest NAV.',
  aaum_cr_quarterly_avg: 'Average of daily net assets over a quarter, in Crores; blank for matured schemes; low for schemes launched mid-quarter.',
  aaum_quarter: 'Text label of the quarter; not chronologically sortable.',
  aaum_quarter_end: 'ISO quarter-end date; sort quarters on this.',
};

const params = (specs: readonly ParamSpec[]) => specs.map(({ name, kind, description }) => ({ name, kind, description }));

/** Counts of the local data, so a client sees what this mirror holds. */
export const CATALOG_DATA_SQL = `
SELECT count(*) AS schemes, count(*) FILTER (WHERE is_active) AS active_schemes,
       count(*) FILTER (WHERE NOT is_active) AS matured_schemes, max(nav_date) AS latest_nav_date
FROM mf.latest`;

/**
 * The catalog holds only the data's counts and loaded schema (four statements, one a count over
 * mf.latest, one over duckdb_columns()): built once per data generation. Callers only serialise it.
 */
export function catalog(engine: Engine): ReturnType<typeof buildCatalog> {
  return perGeneration(engine, 'mf:catalog', () => buildCatalog(engine));
}

async function buildCatalog(engine: Engine) {
  const [data] = await engine.all(CATALOG_DATA_SQL);
  const loaded = await loadedSchema(engine);
  const names = (table: string) => (loaded.tables[table] ?? []).map((c) => c.name);
  return {
    name: 'Mutual Fund NAV API (local mirror)',
    base: MF_BASE,
    terms: `${MF_BASE}/terms`,
    endpoints: [
      { path: `${MF_BASE}/`, method: 'GET', description: 'This catalog.', parameters: [] },
      { path: `${MF_BASE}/terms`, method: 'GET', description: 'License and terms.', parameters: [] },
      {
        path: `${MF_BASE}/search`,
        method: 'GET',
        description:
          'Find (q) or browse (filters) schemes. Plain q: compact rows with relevance. Any filter: rich rows and total_matches; zero matches list valid_values for the filters used.',
        parameters: params(SEARCH_PARAMS),
      },
      {
        path: `${MF_BASE}/nav`,
        method: 'GET',
        description: `NAV history, unpaged. One id: the single shape; several ids or schemes=: {schemes, not_found, not_found_reasons}. Max ${MF_LIMITS.bulkSchemesMax} ids.`,
        parameters: params(NAV_PARAMS),
      },
      {
        path: `${MF_BASE}/schemes/{code}/nav`,
        method: 'GET',
        description: 'NAV history of one scheme; {code} is a scheme code or an ISIN.',
        parameters: params(SCHEME_NAV_PARAMS),
      },
      {
        path: `${MF_BASE}/download`,
        method: 'GET',
        description: `Files. This local mirror generates ${LOCAL_DOWNLOAD_FORMATS.join(' and ')} (the snapshot CSV) from its own data; other formats are the publisher's.`,
        parameters: params(DOWNLOAD_PARAMS),
      },
    ],
    search_relevance: {
      tiers: RELEVANCE_TIERS,
      active_bonus: ACTIVE_BONUS,
      rule: 'relevance = tier + active_bonus for live schemes; sorted by relevance, then name, then code.',
    },
    // The schema actually loaded: columns as attached (a drifted file's extra columns included), the
    // version the local tables hold, the publisher's notes and what the syncs accepted or refused.
    schema: {
      schema_version: loaded.schema_version,
      publisher_schema_version: loaded.publisher_schema_version,
      schema_changed: loaded.schema_changed,
      schema_notes: loaded.schema_notes,
      drift: loaded.drift,
      full_history: {
        columns: names('nav'),
        notes: ['date is YYYY-MM-DD', 'nav is an exact decimal (4 places)', 'columns beyond the five of the spec came with a drifted file; the endpoints ignore them'],
      },
      latest_snapshot: { columns: names('latest'), column_notes: LATEST_COLUMN_NOTES },
      tables: loaded.tables,
    },
    limits: MF_LIMITS,
    data,
    examples: [
      { description: 'Find a scheme by name', request: `GET ${MF_BASE}/search?q=bluechip` },
      { description: 'Browse live direct-growth liquid funds', request: `GET ${MF_BASE}/search?sub_category=liquid&plan=direct&option=growth` },
      { description: 'Two AMCs, excluding index funds', request: `GET ${MF_BASE}/search?amc=hdfc,sbi&exclude=index` },
      { description: 'Full NAV history of one scheme', request: `GET ${MF_BASE}/nav?scheme=119551` },
      { description: 'A window, by ISIN', request: `GET ${MF_BASE}/schemes/INF209K01YN0/nav?since=2024-01-01&to=2024-12-31` },
      { description: 'Latest NAV of several schemes as of a date', request: `GET ${MF_BASE}/nav?schemes=119551,INF209K01YN0&latest=true&to=2025-03-31` },
      { description: 'The whole snapshot as CSV', request: `GET ${MF_BASE}/download?format=latest` },
    ],
  };
}

export function terms() {
  return { ...TERMS, catalog: `${MF_BASE}/` };
}
