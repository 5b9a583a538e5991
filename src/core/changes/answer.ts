/**
 * The one answer behind `changes --json`, GET /almanac/v1/changes and the MCP tool `whats_new`: the
 * same parameters, checked here, and the same JSON (front doors only carry it).
 */
import type { Storage } from '../storage/storage.js';
import type { StateStore } from '../sync/state.js';
import { ChangesError, changesSince } from './log.js';
import type { Changes } from './shape.js';

export const CHANGES_PATH = '/almanac/v1/changes';
export const WHATS_NEW_TOOL = 'whats_new';
export const CHANGES_DESCRIPTION =
  "What changed at the last sync for the user's watched schemes, companies and indicators (new and revised NAVs, new red-flag rows and the scorecard before and after, new and revised indicator points), with totals over all data; with since=DATE every kept sync since then, merged.";

/** Almanac's own error body (its endpoints have no hosted counterpart whose envelope to copy). */
export interface AlmanacErrorBody {
  error: 'bad_request';
  status: 400;
  message: string;
  hint: string;
}

export type ChangesReply = { status: 200; body: Changes } | { status: 400; body: AlmanacErrorBody };

const HINT = `GET ${CHANGES_PATH}[?since=YYYY-MM-DD]: the last sync's changes, or every kept sync (the last 30) since that date`;

export async function changesReply(storage: Storage, state: StateStore, query: Record<string, unknown>): Promise<ChangesReply> {
  try {
    const unknown = Object.keys(query).filter((k) => k !== 'since');
    if (unknown.length) throw new ChangesError(`unknown parameter ${unknown.join(', ')}; the only one is since`);
    const since = query.since;
    if (since !== undefined && since !== null && typeof since !== 'string') throw new ChangesError('since must be given once, as a date');
    return { status: 200, body: await changesSince(storage, await state.read(), since ?? null) };
  } catch (e) {
    if (!(e instanceof ChangesError)) throw e;
    return { status: 400, body: { error: 'bad_request', status: 400, message: e.message, hint: HINT } };
  }
}
