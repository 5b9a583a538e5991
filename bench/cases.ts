/**
 * Indicator and flags benchmark cases over any Engine (the WASM store or the native reference), each
 * through the same service function the REST routes and MCP tools call.
 */
import type { Engine } from '../src/core/engine/engine.js';
import { series } from '../src/core/services/indicators/series.js';
import { find } from '../src/core/services/indicators/find.js';
import { companyData } from '../src/core/services/flags/company.js';
import { scorecard } from '../src/core/services/flags/scorecard.js';
import { TABLE_NAMES } from '../src/core/contract/flags.js';
import type { Stats } from './lib.js';

export interface EngineCase {
  name: string;
  target: string;
  check?: (warm: Stats, ref: Stats) => boolean;
  run: (engine: Engine) => Promise<unknown>;
}

/** Ten ids across every frequency plus market symbols, chosen from the data so any scale works. */
export const MIXED_IDS_SQL = `
SELECT indicator_id FROM indicators.indicator_config WHERE visible OR category = 'markets'
QUALIFY row_number() OVER (PARTITION BY frequency ORDER BY hash(indicator_id)) <= 2
ORDER BY frequency, indicator_id LIMIT 10`;

export function indicatorBenchCases(): EngineCase[] {
  let ids: string[] | null = null;
  return [
    {
      name: 'series, 10 mixed-frequency ids',
      target: '<= 20 ms warm',
      check: (w) => w.median <= 20,
      run: async (engine) => {
        ids ??= (await engine.all<{ indicator_id: string }>(MIXED_IDS_SQL)).map((r) => r.indicator_id);
        return series(engine, { ids, from: null, to: null, format: 'json' });
      },
    },
    {
      name: 'find across categories',
      target: '<= 2x native',
      check: (w, r) => w.median <= 2 * r.median,
      run: (engine) => find(engine, { query: 'rate', limit: 50 }),
    },
  ];
}

export function flagsBenchCases(): EngineCase[] {
  let symbol: string | null = null;
  return [
    {
      name: 'flags company across all tables',
      target: '<= 2x native',
      check: (w, r) => w.median <= 2 * r.median,
      run: async (engine) => {
        symbol ??= (await engine.all<{ symbol: string }>('SELECT symbol FROM flags.insider_trading GROUP BY 1 ORDER BY count(*) DESC LIMIT 1'))[0].symbol;
        return companyData(engine, { identifier: symbol, tables: [...TABLE_NAMES], format: 'json' });
      },
    },
    {
      name: 'flags ranked scorecard',
      target: '<= 2x native',
      check: (w, r) => w.median <= 2 * r.median,
      run: (engine) => scorecard(engine, { limit: 50, offset: 0, as_of: null }),
    },
  ];
}
