/**
 * The one answer behind `changes --json`, GET /almanac/v1/changes and the MCP tool `whats_new`: the
 * same parameters, checked here, and the same JSON (front doors only carry it). Bad input is an
 * AlmanacError (400), which each door renders in Almanac's envelope.
 */
import { ALMANAC_BASE, AlmanacError } from '../contract/almanac.js';
import type { Storage } from '../storage/storage.js';
import type { StateStore } from '../sync/metadata.js';
import { ChangesError, changesSince } from './log.js';
import type { Changes } from './shape.js';

/** Where the answer lives under Almanac's own prefix (ALMANAC_BASE), and its tool. */
export const CHANGES_ENDPOINT = '/changes';
export const WHATS_NEW_TOOL = 'whats_new';
export const CHANGES_DESCRIPTION =
  "What changed at the last sync for the user's watched schemes, companies and indicators (new and revised NAVs, new red-flag rows and the scorecard before and after, new and revised indicator points), with totals over all data; with since=DATE every kept sync since then, merged.";

const HINT = `GET ${ALMANAC_BASE}${CHANGES_ENDPOINT}[?since=YYYY-MM-DD]: the last sync's changes, or every kept sync (the last 30) since that date`;

export async function changesAnswer(storage: Storage, state: StateStore, query: Record<string, unknown>): Promise<Changes> {
  try {
    const unknown = Object.keys(query).filter((k) => k !== 'since');
    if (unknown.length) throw new ChangesError(`unknown parameter ${unknown.join(', ')}; the only one is since`);
    const since = query.since;
    if (since !== undefined && since !== null && typeof since !== 'string') throw new ChangesError('since must be given once, as a date');
    return await changesSince(storage, await state.read(), since ?? null);
  } catch (e) {
    if (e instanceof ChangesError) throw new AlmanacError(400, e.message, HINT);
    throw e;
  }
}
