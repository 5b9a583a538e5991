import type { Engine } from '../../engine/engine.js';
import {
  CATEGORIES,
  CATEGORY_IDS,
  ServiceError,
  isCategoryId,
  type CategoryListing,
  type CompactIndicatorRow,
  type IndicatorRow,
} from '../../contract/indicators.js';

export const CATEGORY_INDICATORS_SQL = `
SELECT indicator_id, name, country, source_category, frequency, unit, source, source_series_id,
       seasonally_adjusted, first_date, last_date, record_count, notes
FROM indicators.indicator_config
WHERE visible AND category = ?
ORDER BY source_category, indicator_id`;

export const CATEGORY_INDICATORS_COMPACT_SQL = `
SELECT indicator_id, name, frequency, last_date
FROM indicators.indicator_config
WHERE visible AND category = ?
ORDER BY source_category, indicator_id`;

/** GET /v1/categories/{category}/indicators: the full rows. An unknown category is a 404 naming the valid ones. */
export function categoryIndicators(engine: Engine, category: string): Promise<CategoryListing<IndicatorRow>> {
  return listing<IndicatorRow>(engine, category, false);
}

/** The same with `compact=true`: id, name, frequency and last date only. */
export function compactCategoryIndicators(engine: Engine, category: string): Promise<CategoryListing<CompactIndicatorRow>> {
  return listing<CompactIndicatorRow>(engine, category, true);
}

async function listing<Row extends IndicatorRow | CompactIndicatorRow>(engine: Engine, category: string, compact: boolean): Promise<CategoryListing<Row>> {
  if (!isCategoryId(category)) {
    throw new ServiceError(404, `Unknown category '${category}'. Valid categories: ${CATEGORY_IDS.join(', ')}.`, {
      valid_categories: [...CATEGORY_IDS],
      hint: 'GET /v1/categories lists them with one-line summaries; GET /v1/find searches across all of them.',
    });
  }
  const meta = CATEGORIES.find((c) => c.category === category)!;
  const indicators = await engine.all<Row>(compact ? CATEGORY_INDICATORS_COMPACT_SQL : CATEGORY_INDICATORS_SQL, [category]);
  return { ...meta, count: indicators.length, compact, indicators };
}
