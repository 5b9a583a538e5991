/**
 * Catalog payloads the publisher serves. Indicators and flags come from their contract modules; the
 * MF contract has no catalog payload yet, so the MF catalog and terms are built here from it.
 */
import { readFile } from 'node:fs/promises';
import { tableFromIPC } from 'apache-arrow';
import { readParquet } from 'parquet-wasm/node';
import { catalog as flagsCatalog } from '../core/contract/flags.js';
import * as ind from '../core/contract/indicators.js';
import { LATEST_COLUMNS, NAV_FILE_COLUMNS, SCHEMA_CHANGED, SCHEMA_NOTES, SCHEMA_VERSION } from '../core/contract/mf.js';
import { DOWNLOAD_FORMATS, MF_BASE, MF_LIMITS, NAV_PARAMS, SEARCH_PARAMS } from '../core/contract/mf-params.js';

export { flagsCatalog };

/** GET /v1/: the contract's catalog, with category counts read from the published indicator_config. */
export async function indicatorsCatalog(baseUrl: string, indicatorConfigParquet: string): Promise<object> {
  const counts = await visibleByCategory(indicatorConfigParquet);
  const menu: ind.CategoryMenuItem[] = ind.CATEGORIES.map((c) => ({
    category: c.category,
    one_liner: c.one_liner,
    count: counts.get(c.category) ?? 0,
    indicators_url: `${baseUrl}/v1/categories/${c.category}/indicators`,
  }));
  return ind.catalogPayload(baseUrl, menu);
}

async function visibleByCategory(file: string): Promise<Map<string, number>> {
  const table = tableFromIPC(readParquet(await readFile(file)).intoIPCStream());
  const category = table.getChild('category');
  const visible = table.getChild('visible');
  const counts = new Map<string, number>();
  for (let i = 0; i < table.numRows; i++) {
    if (visible && visible.get(i) !== true) continue;
    const c = String(category?.get(i));
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  return counts;
}

const LATEST_COLUMN_NOTES: Record<string, string> = {
  scheme_code: 'One code is one plan-and-option variant, not a whole fund; a fund is the sum over its code family.',
  isin2: 'Reinvestment ISIN where one exists; same scheme and NAV row as isin. Nullable.',
  category_sub: 'SEBI sub-category; blank on some older schemes, deliberately.',
  category_group: 'Raw header as filed; 20+ coexisting values.',
  category_group_clean: 'Stable lens with exactly 4 values: Equity, Debt, Hybrid, Other.',
  scheme_plan: 'The oldest code of a family can carry plan Other (it predates the Direct/Regular split).',
  is_active: 'A NAV was published within the last 45 days.',
  nav: 'A final NAV of exactly 0.00 on an inactive row means end of life, not a price; exclude such rows before averaging.',
  aaum_cr_quarterly_avg: 'Average daily net assets over a quarter, in Crores; blank for matured schemes; low for schemes launched mid-quarter.',
  aaum_quarter: 'Text label; not chronologically sortable.',
  aaum_quarter_end: 'ISO quarter-end date; sort quarters on this.',
};

/** GET /mf/v1/ ("exact keys: not shown"; docs/decisions.md, Publisher). */
export function mfCatalog(baseUrl: string): object {
  const b = `${baseUrl}${MF_BASE}`;
  return {
    name: 'Mutual Fund NAV API (stand-in publisher)',
    version: 'v1',
    endpoints: {
      search: { path: `${MF_BASE}/search`, parameters: SEARCH_PARAMS.map((p) => ({ name: p.name, description: p.description })) },
      nav: { path: `${MF_BASE}/nav`, parameters: NAV_PARAMS.map((p) => ({ name: p.name, description: p.description })) },
      scheme_nav: { path: `${MF_BASE}/schemes/{code}/nav` },
      download: { path: `${MF_BASE}/download`, formats: [...DOWNLOAD_FORMATS], default: 'parquet' },
      datasets: { scheme_details_latest: ['parquet', 'csv.gz'], data_quality: ['csv', 'json'] },
      manifest: { path: `${MF_BASE}/downloads/manifest` },
      terms: { path: `${MF_BASE}/terms` },
    },
    schema: {
      version: SCHEMA_VERSION,
      changed: SCHEMA_CHANGED,
      notes: SCHEMA_NOTES,
      full_history: { columns: [...NAV_FILE_COLUMNS] },
      latest_snapshot: { columns: [...LATEST_COLUMNS], column_notes: LATEST_COLUMN_NOTES },
    },
    limits: {
      requests_per_minute: MF_LIMITS.requestsPerMinute,
      downloads_range_per_minute: MF_LIMITS.downloadsRangePerMinute,
      downloads_range_per_day: MF_LIMITS.downloadsRangePerDay,
      downloads_whole_file_per_minute: MF_LIMITS.downloadsWholePerMinute,
      downloads_whole_file_per_day: MF_LIMITS.downloadsWholePerDay,
      schemes_per_bulk_nav_call: MF_LIMITS.bulkSchemesMax,
      search_limit_max: MF_LIMITS.searchLimitMax,
    },
    examples: [
      `${b}/downloads/manifest`,
      `${b}/download?format=parquet`,
      `${b}/download?format=latest`,
      `${b}/download/scheme_details_latest?format=csv.gz`,
    ],
    terms: `${b}/terms`,
    license: 'CC0-1.0',
  };
}

export const MF_TERMS = `Terms of use (stand-in publisher)

The compilation is released under CC0 1.0 (https://creativecommons.org/publicdomain/zero/1.0/).
The underlying NAV data is a public record republished from the industry body's public NAV feed.
This service is not an authoritative source. Data is provided as is, without any guarantee of
accuracy, completeness or availability. The data served here is generated sample data.
`;
