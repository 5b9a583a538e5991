/**
 * MF service benchmark cases, for `npm run bench` to time over any Engine holding the `mf` schema
 * (the runner decides cold/warm and repeats). Each case goes through the same parse + service path
 * the REST routes and MCP tools use.
 */
import type { Engine } from '../src/core/engine/engine.js';
import { parseNavParams, parseSearchParams } from '../src/core/contract/mf-params.js';
import { navBatch, schemeNav } from '../src/core/services/mf/nav.js';
import { browse } from '../src/core/services/mf/search.js';

export interface MfBenchCase {
  name: string;
  run: () => Promise<unknown>;
  /**
   * The same request for other schemes, spread over the table and not read before by this engine:
   * each the first call for data not yet in the engine's buffers (the engine itself warm).
   */
  unread?: (() => Promise<unknown>)[];
}

/** The schemes the cases ask for: live codes spread over the universe, chosen from the data itself. */
export const PICK_SQL = `
SELECT scheme_code, nav_date FROM mf.latest WHERE is_active
QUALIFY row_number() OVER (ORDER BY hash(scheme_code)) <= 50
ORDER BY scheme_code`;

export async function mfBenchCases(engine: Engine): Promise<MfBenchCase[]> {
  const picked = await engine.all<{ scheme_code: number; nav_date: string }>(PICK_SQL);
  if (picked.length === 0) throw new Error('mf bench: no live schemes in mf.latest');
  const one = String(picked[0].scheme_code);
  const unreadCodes = [10, 20, 30, 40, 49].map((i) => String(picked[Math.min(i, picked.length - 1)].scheme_code));
  const fifty = picked.map((p) => p.scheme_code).join(',');
  const asOf = picked[0].nav_date.slice(0, 8) + '01';
  return [
    {
      name: 'mf nav history, one scheme',
      run: () => schemeNav(engine, parseNavParams([['scheme', one]])),
      unread: unreadCodes.map((code) => () => schemeNav(engine, parseNavParams([['scheme', code]]))),
    },
    { name: 'mf nav bulk, 50 schemes', run: () => navBatch(engine, parseNavParams([['schemes', fifty]])) },
    {
      name: 'mf latest as of a date, 50 schemes',
      run: () => navBatch(engine, parseNavParams([['schemes', fifty], ['latest', 'true'], ['to', asOf]])),
    },
    {
      name: 'mf search, three filters',
      run: () => browse(engine, parseSearchParams([['group', 'equity'], ['plan', 'direct'], ['option', 'growth']])),
    },
    {
      name: 'mf zero-match browse',
      run: () => browse(engine, parseSearchParams([['amc', 'no such house'], ['plan', 'direct'], ['sub_category', 'liquid']])),
    },
  ];
}
