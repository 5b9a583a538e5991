import type { Engine } from '../../engine/engine.js';
import { catalogPayload } from '../../contract/indicators.js';
import { categories } from './categories.js';

/** GET /v1/: the entry point; its category list carries live counts. */
export async function catalog(engine: Engine, p: { baseUrl: string }) {
  const menu = await categories(engine, p);
  return catalogPayload(p.baseUrl, menu.categories);
}
