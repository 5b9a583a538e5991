/**
 * Core service calls run by both sides of the parity test (test/e2e/worker.test.ts): in Node over
 * openStore(dir), and in a Chromium worker over the browser store. Each call finds its own inputs in
 * the data (first category, first ids, first scheme), so both sides ask exactly the same questions.
 */
import type { Engine } from '../../../src/core/engine/engine.js';
import { categories } from '../../../src/core/services/indicators/categories.js';
import { compactCategoryIndicators } from '../../../src/core/services/indicators/category-indicators.js';
import { find } from '../../../src/core/services/indicators/find.js';
import { series } from '../../../src/core/services/indicators/series.js';
import { parseFindParams, parseSeriesParams } from '../../../src/core/contract/indicators.js';
import { quickSearch } from '../../../src/core/services/mf/search.js';
import { schemeNav } from '../../../src/core/services/mf/nav.js';
import { parseNavParams, parseSearchParams } from '../../../src/core/contract/mf-params.js';
import { companyScorecard, scorecard } from '../../../src/core/services/flags/scorecard.js';
import { companyData } from '../../../src/core/services/flags/company.js';
import { validateCompanyParams, validateCompanyScorecardParams, validateScorecardParams, type Validated } from '../../../src/core/contract/flags.js';

function ok<T>(v: Validated<T>): T {
  if (!v.ok) throw new Error(`invalid parameters: ${JSON.stringify(v.error)}`);
  return v.value;
}

/** Two indicators from each category in turn (mixed frequencies and sources), `n` in all. */
async function someIds(e: Engine, n: number): Promise<string[]> {
  const menu = await categories(e, { baseUrl: 'http://local' });
  const ids: string[] = [];
  for (const c of menu.categories) {
    const listing = await compactCategoryIndicators(e, c.category);
    ids.push(...listing.indicators.slice(0, 2).map((i) => i.indicator_id));
    if (ids.length >= n) break;
  }
  return ids.slice(0, n);
}

async function firstScheme(e: Engine): Promise<string> {
  const r = await quickSearch(e, parseSearchParams([['q', 'Fund'], ['limit', '1']]));
  return String(r.results[0].scheme_code);
}

async function topCompany(e: Engine): Promise<string> {
  const r = await scorecard(e, ok(validateScorecardParams({ limit: '1' })));
  return (r.companies[0] as unknown as { symbol: string }).symbol;
}

export const CALLS: Record<string, (engine: Engine) => Promise<unknown>> = {
  'indicators categories': (e) => categories(e, { baseUrl: 'http://local' }),
  'indicators find': (e) => find(e, parseFindParams({ q: 'rate', limit: 20 })),
  'indicators series (mixed ids)': async (e) => series(e, parseSeriesParams({ ids: (await someIds(e, 6)).join(',') })),
  'indicators series (range, tsv)': async (e) =>
    series(e, parseSeriesParams({ ids: (await someIds(e, 3)).join(','), from: '2015-01-01', to: '2020-12-31', format: 'tsv' })),
  'mf search': (e) => quickSearch(e, parseSearchParams([['q', 'HDFC'], ['limit', '25']])),
  'mf nav': async (e) => schemeNav(e, parseNavParams([['scheme', await firstScheme(e)]])),
  'flags scorecard': (e) => scorecard(e, ok(validateScorecardParams({ limit: '20' }))),
  'flags company': async (e) => companyData(e, ok(validateCompanyParams(await topCompany(e), {}))),
  'flags company scorecard': async (e) => companyScorecard(e, ok(validateCompanyScorecardParams(await topCompany(e), {}))),
};

/** Plain data, as it would cross postMessage or a JSON response. */
export async function runCalls(engine: Engine): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [name, call] of Object.entries(CALLS)) {
    try {
      out[name] = JSON.parse(JSON.stringify(await call(engine)));
    } catch (e) {
      out[name] = { threw: e instanceof Error ? e.message : String(e) };
    }
  }
  return out;
}
