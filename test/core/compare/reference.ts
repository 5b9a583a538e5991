import fs from 'node:fs';
import path from 'node:path';
import type { Engine } from '../../../src/core/engine/engine.js';
import { CREATE_USER_PRICES } from '../../../src/core/services/compare/import.js';

/** The quantstats reference cases (development set), from the repository's sibling shared folder. */
export const REFERENCE_DIR = path.resolve(import.meta.dirname, '../../../../shared/reference/quantstats');

export interface ReferenceCase {
  id: string;
  symbols: string[];
  benchmark: string;
  start_date: string;
  end_date: string;
  risk_free_rate: number;
  prices_csv: string;
  results: Record<string, { trading_days: number; all_metrics: Record<string, number | string>; all_metrics_rounded: Record<string, number | string> }>;
}

/** Cases the `dev-NN` loop does not pick up: each is named here on purpose (issue #24). */
export const EXTRA_CASES = ['real-01'] as const;

export function referenceCase(id: string): ReferenceCase {
  return JSON.parse(fs.readFileSync(path.join(REFERENCE_DIR, `${id}.json`), 'utf8')) as ReferenceCase;
}

/** Every `dev-NN` case, then `extra` (e.g. EXTRA_CASES) by name. */
export function referenceCases(extra: readonly string[] = []): ReferenceCase[] {
  const dev = fs
    .readdirSync(REFERENCE_DIR)
    .filter((f) => /^dev-\d+\.json$/.test(f))
    .sort()
    .map((f) => f.replace(/\.json$/, ''));
  return [...dev, ...extra].map(referenceCase);
}

/** An in-memory `user` database holding one case's prices as user.prices. */
export async function loadUserPrices(engine: Engine, csvPath: string): Promise<void> {
  await engine.exec(`ATTACH IF NOT EXISTS ':memory:' AS "user"`);
  await engine.exec('DROP TABLE IF EXISTS "user".prices');
  await engine.exec(CREATE_USER_PRICES);
  const name = `ref-${path.basename(csvPath)}`;
  await engine.registerFile(name, csvPath);
  await engine.exec(
    `INSERT INTO "user".prices SELECT date, symbol, close FROM read_csv('${name}', header = true, columns = {'date': 'DATE', 'symbol': 'VARCHAR', 'close': 'DOUBLE'})`,
  );
}
