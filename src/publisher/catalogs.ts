/**
 * Catalog payloads the publisher serves. Indicators and flags come from their contract modules. The
 * MF catalog of the local server (services/mf/catalog.ts) reads the synced data through an engine,
 * which the publisher does not have, so its publisher form is built here from the same parts.
 */
import { readFile } from 'node:fs/promises';
import { tableFromIPC } from 'apache-arrow';
import { readParquet } from 'parquet-wasm/node';
import { catalog as flagsCatalog } from '../core/contract/flags.js';
import * as ind from '../core/contract/indicators.js';
import { LATEST_COLUMNS, NAV_FILE_COLUMNS, SCHEMA_CHANGED, SCHEMA_NOTES, SCHEMA_VERSION } from '../core/contract/mf.js';
import { DOWNLOAD_FORMATS, MF_BASE, MF_LIMITS, NAV_PARAMS, SEARCH_PARAMS } from '../core/contract/mf-params.js';
import { LATEST_COLUMN_NOTES, terms as mfTerms } from '../core/services/mf/catalog.js';

export { flagsCatalog, mfTerms };

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
