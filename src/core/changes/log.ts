/**
 * The kept changes: one record per sync, the last 30 (`changes.json` in the store), and the answer
 * `changes` gives from them: the last sync's, or every kept one since a date, merged. Indicator values
 * a sync replaced go to `revisions.json`, the revisions table vintages will be read from.
 */
import type { Storage } from '../storage/storage.js';
import { SERVICES } from '../sync/datasets.js';
import type { StoreState } from '../sync/metadata.js';
import { changePct } from './diff.js';
import { emptyTotals, type Changes, type KeptChanges, type Revision, type SyncPoint } from './shape.js';

export const CHANGES_FILE = 'changes.json';
export const REVISIONS_FILE = 'revisions.json';
export const KEEP_SYNCS = 30;

export class ChangesError extends Error {}

export async function readLog(storage: Storage): Promise<KeptChanges[]> {
  const text = await storage.readText(CHANGES_FILE);
  return text ? ((JSON.parse(text) as { syncs: KeptChanges[] }).syncs ?? []) : [];
}

export async function appendLog(storage: Storage, rec: KeptChanges): Promise<void> {
  const syncs = [...(await readLog(storage)), rec].slice(-KEEP_SYNCS);
  await storage.writeTextAtomic(CHANGES_FILE, JSON.stringify({ version: 1, syncs }));
}

/** A row of the revisions table: an indicator value a sync replaced, and when. */
export interface RevisionRow extends Revision {
  indicator_id: string;
  /** When the sync that replaced it ended, and the generation that holds the new value. */
  replaced_at: string;
  generation: number;
}

export async function readRevisions(storage: Storage): Promise<RevisionRow[]> {
  const text = await storage.readText(REVISIONS_FILE);
  return text ? (JSON.parse(text) as { rows: RevisionRow[] }).rows : [];
}

export async function appendRevisions(storage: Storage, rows: RevisionRow[]): Promise<void> {
  if (rows.length === 0) return;
  await storage.writeTextAtomic(REVISIONS_FILE, JSON.stringify({ version: 1, rows: [...(await readRevisions(storage)), ...rows] }));
}

/** Where the store stands: its last sync and each dataset's generation. */
export function pointOf(state: StoreState): SyncPoint {
  const generations = Object.fromEntries(SERVICES.map((s) => [s, state.datasets[s]?.generation ?? null])) as SyncPoint['generations'];
  const times = SERVICES.flatMap((s) => (state.datasets[s] ? [state.datasets[s]!.last_sync] : [])).sort();
  return { synced_at: times.at(-1) ?? null, generations };
}

const DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/;

/** Checks `--since` / `?since=`: a date (YYYY-MM-DD) or an ISO time. */
export function parseSince(since: string | null | undefined): string | null {
  if (since === null || since === undefined || since === '') return null;
  if (!DATE.test(since) || Number.isNaN(Date.parse(since))) {
    throw new ChangesError(`since must be a date (YYYY-MM-DD) or an ISO time, got '${since}'`);
  }
  return new Date(Date.parse(since.length === 10 ? `${since}T00:00:00Z` : since)).toISOString();
}

/** The last sync's changes, or all kept since `since` merged; with none kept, where the store stands. */
export async function changesSince(storage: Storage, state: StoreState, since?: string | null): Promise<Changes> {
  const from = parseSince(since);
  const log = await readLog(storage);
  const picked = from === null ? log.slice(-1) : log.filter((r) => r.to.synced_at !== null && r.to.synced_at >= from);
  if (picked.length === 0) {
    const here = pointOf(state);
    return { from: here, to: here, watched: { schemes: [], companies: [], indicators: [] }, totals: emptyTotals() };
  }
  return publicShape(merge(picked));
}

/** Drops what only the log needs, so every front door answers the shape exactly. */
export function publicShape(c: KeptChanges | Changes): Changes {
  return { from: c.from, to: c.to, watched: c.watched, totals: c.totals };
}

/** Revisions of one date across syncs: the first sync's old value, the last one's new. */
function mergeRevisions(lists: Revision[][]): Revision[] {
  const byDate = new Map<string, Revision>();
  for (const r of lists.flat()) {
    const held = byDate.get(r.date);
    byDate.set(r.date, held ? { date: r.date, old: held.old, new: r.new } : r);
  }
  return [...byDate.values()].sort((a, b) => a.date.localeCompare(b.date));
}

function sumInto(into: Record<string, number>, add: Record<string, number>) {
  for (const [k, v] of Object.entries(add)) into[k] = (into[k] ?? 0) + v;
}

/** Several consecutive syncs as one: counts add up, the first sync's "before" meets the last one's "after". */
export function merge(recs: KeptChanges[]): KeptChanges {
  if (recs.length === 1) return recs[0];
  const totals = emptyTotals();
  const schemes = new Map<number, KeptChanges['watched']['schemes']>();
  const companies = new Map<string, KeptChanges['watched']['companies']>();
  const indicators = new Map<string, KeptChanges['watched']['indicators']>();
  const base_navs: Record<string, number | null> = {};
  for (const r of recs) {
    totals.new_navs += r.totals.new_navs;
    totals.new_indicator_points += r.totals.new_indicator_points;
    totals.revised_indicator_points += r.totals.revised_indicator_points;
    sumInto(totals.new_flag_rows, r.totals.new_flag_rows);
    for (const s of r.watched.schemes) {
      schemes.set(s.scheme_code, [...(schemes.get(s.scheme_code) ?? []), s]);
      if (!(s.scheme_code in base_navs)) base_navs[s.scheme_code] = r.base_navs[s.scheme_code] ?? null;
    }
    for (const c of r.watched.companies) companies.set(c.symbol, [...(companies.get(c.symbol) ?? []), c]);
    for (const i of r.watched.indicators) indicators.set(i.indicator_id, [...(indicators.get(i.indicator_id) ?? []), i]);
  }
  return {
    from: recs[0].from,
    to: recs.at(-1)!.to,
    base_navs,
    totals,
    watched: {
      schemes: [...schemes.entries()].sort(([a], [b]) => a - b).map(([code, list]) => {
        const last = list.at(-1)!;
        const revisions = mergeRevisions(list.map((s) => s.revisions));
        return {
          scheme_code: code,
          new_navs: list.reduce((n, s) => n + s.new_navs, 0),
          last_date: last.last_date,
          last_nav: last.last_nav,
          change_pct: changePct(base_navs[code], last.last_nav),
          revised_navs: revisions.length,
          revisions,
        };
      }),
      companies: [...companies.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([symbol, list]) => {
        const new_rows: Record<string, number> = {};
        for (const c of list) sumInto(new_rows, c.new_rows);
        return { symbol, new_rows, score_before: list[0].score_before, score_after: list.at(-1)!.score_after };
      }),
      indicators: [...indicators.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([indicator_id, list]) => {
        const revisions = mergeRevisions(list.map((i) => i.revisions));
        return { indicator_id, new_points: list.reduce((n, i) => n + i.new_points, 0), revised_points: revisions.length, revisions };
      }),
    },
  };
}
