import type { Engine } from '../../engine/engine.js';
import { CATEGORIES, type CategoriesMenu, type CategoryId } from '../../contract/indicators.js';

/** Visible indicators per category (market symbols are rows of the dictionary too). */
export const CATEGORY_COUNTS_SQL = `
SELECT category, count(*)::INTEGER AS n
FROM indicators.indicator_config
WHERE visible
GROUP BY category`;

export async function categoryCounts(engine: Engine): Promise<Map<string, number>> {
  const rows = await engine.all<{ category: string; n: number }>(CATEGORY_COUNTS_SQL);
  return new Map(rows.map((r) => [r.category, r.n]));
}

/** GET /v1/categories: the 8 categories in the spec's order, each with its one-liner and size. */
export async function categories(engine: Engine, p: { baseUrl: string }): Promise<CategoriesMenu> {
  const counts = await categoryCounts(engine);
  const items = CATEGORIES.map((c) => ({
    category: c.category,
    one_liner: c.one_liner,
    count: counts.get(c.category) ?? 0,
    indicators_url: `${p.baseUrl}/v1/categories/${c.category satisfies CategoryId}/indicators`,
  }));
  return { count: items.length, categories: items };
}
