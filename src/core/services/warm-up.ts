import type { Engine } from '../engine/engine.js';
import { parseNavParams, parseSearchParams } from '../contract/mf-params.js';
import { parseFindParams } from '../contract/indicators.js';
import { dataLastModified } from './mf/freshness.js';
import { navBatch, schemeNav } from './mf/nav.js';
import { browse } from './mf/search.js';
import { find } from './indicators/find.js';
import { series } from './indicators/series.js';

/** Rounds of the calls below: DuckDB-WASM's hot functions are recompiled optimised after tens of calls. */
const ROUNDS = 20;

/** How long the server must have had no new request or connection before the warm-up's next call. */
export const QUIET_MS = 250;

/** A few live schemes and indicator ids to ask about, from the data itself. */
const SCHEMES_SQL = 'SELECT scheme_code FROM mf.latest WHERE is_active ORDER BY scheme_code LIMIT 3';
const IDS_SQL = 'SELECT indicator_id FROM indicators.indicator_config WHERE visible ORDER BY indicator_id LIMIT 3';

/**
 * The calls a client makes first, made by the server itself once it answers, so that the first
 * client's call finds DuckDB-WASM's code paths compiled and tiered up, the files' metadata read and the
 * answers kept per generation (engine/generation.ts) filled. It never delays readiness: it starts after
 * the server listens, and yields to the event loop between calls, so a request that arrives waits at
 * most for the one statement in progress. And it runs no statement, its own lookups included, until
 * the server has had no client for QUIET_MS (`quiet()`): each statement blocks the event loop for its
 * whole wall time, which on a loaded machine is many times its CPU, and new connections would wait
 * behind it (the load case of docs/performance.md: the probe's p99 came from the warm-up's
 * statements); and a script that starts the server and asks at once would wait behind a cold call
 * (the first NAV request, docs/performance.md). A service with no data, or any failure, just ends its
 * part: clients get their own errors. `stopped()` is asked between calls (the server closing). The
 * calls are the cheap, common ones (MF and indicators); not the flags scorecard, which reads whole
 * tables: memory every server would then hold, asked or not.
 */
export async function warmUp(engine: Engine, stopped: () => boolean, quiet: () => boolean = () => true): Promise<void> {
  const quietly = async <T>(f: () => Promise<T>): Promise<T | null> => f().catch(() => null);
  /** Yields to the event loop, then waits for quiet; false once the server is closing. */
  const turn = async () => {
    await new Promise((r) => setTimeout(r, 0));
    while (!quiet() && !stopped()) await new Promise((r) => setTimeout(r, QUIET_MS));
    return !stopped();
  };
  if (!(await turn())) return;
  const schemes = (await quietly(() => engine.all<{ scheme_code: number }>(SCHEMES_SQL)))?.map((r) => String(r.scheme_code)) ?? [];
  if (!(await turn())) return;
  const ids = (await quietly(() => engine.all<{ indicator_id: string }>(IDS_SQL)))?.map((r) => r.indicator_id) ?? [];
  const calls: (() => Promise<unknown>)[] = [
    ...(schemes.length
      ? [
          () => dataLastModified(engine),
          () => schemeNav(engine, parseNavParams([['scheme', schemes[0]]])),
          () => navBatch(engine, parseNavParams([['schemes', schemes.join(',')], ['latest', 'true']])),
          () => browse(engine, parseSearchParams([['group', 'equity'], ['plan', 'direct']])),
        ]
      : []),
    ...(ids.length
      ? [() => series(engine, { ids, from: null, to: null, format: 'json' }), () => find(engine, parseFindParams({ query: 'rate' }))]
      : []),
  ];
  const failed = new Set<number>();
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < calls.length; i++) {
      if (failed.has(i)) continue;
      if (!(await turn())) return;
      if ((await quietly(async () => (await calls[i](), true))) === null) failed.add(i);
    }
  }
}
