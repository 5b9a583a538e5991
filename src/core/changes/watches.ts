/**
 * The user's watchlist: schemes, companies and indicators whose changes each sync reports (issue 21).
 *
 * Kept as one small JSON document in the store (`watches.json`, replaced atomically by the storage
 * adapter: a file in Node, an OPFS file in the browser), not in the user database, whose write path
 * builds a new file and takes seconds (docs/storage.md): a toggle writes a few hundred bytes. The name
 * belongs to no dataset, so syncs, deletes and full rebuilds leave it alone.
 */
import type { Engine } from '../engine/engine.js';
import type { Storage } from '../storage/storage.js';
import { resolveSchemes } from '../services/mf/resolve.js';
import { resolveCompany } from '../services/flags/identity.js';
import { findSuccessors } from '../services/mf/lineage.js';
import { FlagsError } from '../contract/flags.js';
import type { Service } from '../sync/datasets.js';

export const WATCHES_FILE = 'watches.json';
export const WATCH_KINDS = ['scheme', 'company', 'indicator'] as const;
export type WatchKind = (typeof WATCH_KINDS)[number];

/** Which dataset answers for each kind of watch. */
export const WATCH_SERVICE: Record<WatchKind, Service> = { scheme: 'mf', company: 'flags', indicator: 'indicators' };

export interface Watch {
  kind: WatchKind;
  /** As the user gave it: a scheme code or ISIN, a symbol or ISIN, an indicator id. */
  id: string;
  /** What the local data knows it as (scheme code, symbol, indicator id); null while pending. */
  key: string | null;
  name: string | null;
}

export interface WatchList {
  version: 1;
  watches: Watch[];
}

/** A watch as `watch list` shows it: with where it stands in the local data now. */
export interface WatchStatus extends Watch {
  /** pending: not in the local data (imported, or its dataset is not synced); ended: a scheme no longer published. */
  status: 'active' | 'pending' | 'ended';
  /** A sentence for people when the status is not plain `active`. */
  note: string | null;
  /** For an ended scheme: the codes its fund continues under (services/mf/lineage.ts). */
  successors?: number[];
}

export class WatchError extends Error {}

export function isWatchKind(s: string): s is WatchKind {
  return (WATCH_KINDS as readonly string[]).includes(s);
}

export async function readWatches(storage: Storage): Promise<WatchList> {
  const text = await storage.readText(WATCHES_FILE);
  if (!text) return { version: 1, watches: [] };
  return parseWatchList(text, 'watches.json');
}

async function write(storage: Storage, list: WatchList): Promise<void> {
  await storage.writeTextAtomic(WATCHES_FILE, JSON.stringify(list, null, 1));
}

/** Checks a list (a stored one or one being imported): every entry a known kind and a short id. */
export function parseWatchList(text: string, what: string): WatchList {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new WatchError(`${what} is not JSON: ${(e as Error).message}`);
  }
  const entries = Array.isArray(raw) ? raw : (raw as { watches?: unknown })?.watches;
  if (!Array.isArray(entries)) throw new WatchError(`${what}: expected {"watches": [{"kind", "id"}, ...]}`);
  const watches = entries.map((e: unknown, i): Watch => {
    const w = e as Partial<Watch> | null;
    if (!w || typeof w.kind !== 'string' || !isWatchKind(w.kind)) throw new WatchError(`${what}: entry ${i + 1} has no kind of ${WATCH_KINDS.join(', ')}`);
    const id = checkId(w.id, `${what}: entry ${i + 1}`);
    const key = typeof w.key === 'string' && w.key ? w.key : null;
    return { kind: w.kind, id, key, name: typeof w.name === 'string' ? w.name : null };
  });
  return { version: 1, watches };
}

function checkId(id: unknown, where: string): string {
  if (typeof id !== 'string' || !id.trim() || id.length > 100) throw new WatchError(`${where}: the id must be a non-empty string of at most 100 characters`);
  return id.trim();
}

/** The datasets attached to `engine` (a watch on a dataset not synced cannot resolve). */
async function attached(engine: Engine): Promise<Set<string>> {
  const rows = await engine.all<{ name: string }>('SELECT database_name AS name FROM duckdb_databases()');
  return new Set(rows.map((r) => r.name));
}

/** What the local data calls `id`, or null when it holds no such thing. */
export async function resolveWatch(engine: Engine, kind: WatchKind, id: string, have?: Set<string>): Promise<{ key: string; name: string } | null> {
  if (!(have ?? (await attached(engine))).has(WATCH_SERVICE[kind])) return null;
  if (kind === 'scheme') {
    const [r] = await resolveSchemes(engine, [id]);
    return r.ok ? { key: String(r.scheme.scheme_code), name: r.scheme.scheme_name } : null;
  }
  if (kind === 'company') {
    try {
      const c = await resolveCompany(engine, id);
      return { key: c.symbol, name: c.company_name };
    } catch (e) {
      if (e instanceof FlagsError) return null;
      throw e;
    }
  }
  const [row] = await engine.all<{ key: string; name: string }>(
    'SELECT indicator_id AS key, name FROM indicators.indicator_config WHERE indicator_id = ? LIMIT 1',
    [id],
  );
  return row ?? null;
}

const KIND_WORDS: Record<WatchKind, string> = {
  scheme: 'no scheme with that code or ISIN',
  company: 'no company with that symbol or ISIN',
  indicator: 'no indicator with that id',
};

const same = (w: Watch, kind: WatchKind, key: string) => w.kind === kind && w.key !== null && w.key.toUpperCase() === key.toUpperCase();

/** Adds a watch on something the local data holds; anything else is refused by name and nothing is saved. */
export async function addWatch(storage: Storage, engine: Engine, kind: WatchKind, rawId: string): Promise<{ watch: Watch; added: boolean }> {
  const id = checkId(rawId, `watch ${kind}`);
  const hit = await resolveWatch(engine, kind, id);
  if (!hit) throw new WatchError(`unknown ${kind} '${id}': ${KIND_WORDS[kind]} in the local data (sync it first, or check the spelling)`);
  const list = await readWatches(storage);
  const held = list.watches.find((w) => same(w, kind, hit.key));
  if (held) return { watch: held, added: false };
  const watch: Watch = { kind, id, key: hit.key, name: hit.name };
  await write(storage, { version: 1, watches: [...list.watches, watch] });
  return { watch, added: true };
}

/** Removes the watch given by the id it was added with or by its key (case-insensitive). */
export async function removeWatch(storage: Storage, kind: WatchKind, rawId: string): Promise<Watch> {
  const id = checkId(rawId, `watch ${kind}`).toUpperCase();
  const list = await readWatches(storage);
  const gone = list.watches.find((w) => w.kind === kind && (w.id.toUpperCase() === id || w.key?.toUpperCase() === id));
  if (!gone) throw new WatchError(`${kind} '${rawId}' is not on the watchlist`);
  await write(storage, { version: 1, watches: list.watches.filter((w) => w !== gone) });
  return gone;
}

/** The list as a portable JSON document (what `import` reads back). */
export async function exportWatches(storage: Storage): Promise<string> {
  return `${JSON.stringify(await readWatches(storage), null, 1)}\n`;
}

export interface ImportResult {
  added: Watch[];
  /** Entries the local data does not hold: kept, and reported each sync until they resolve. */
  pending: Watch[];
  /** Already on the list. */
  kept: number;
}

/** Merges an exported list into this one; unknown entries are kept as pending rather than refused. */
export async function importWatches(storage: Storage, engine: Engine, text: string): Promise<ImportResult> {
  const incoming = parseWatchList(text, 'the imported list');
  const list = await readWatches(storage);
  const have = await attached(engine);
  const out: ImportResult = { added: [], pending: [], kept: 0 };
  for (const w of incoming.watches) {
    const hit = await resolveWatch(engine, w.kind, w.id, have);
    const dup = hit
      ? list.watches.find((x) => same(x, w.kind, hit.key))
      : list.watches.find((x) => x.kind === w.kind && x.key === null && x.id.toUpperCase() === w.id.toUpperCase());
    if (dup) {
      out.kept++;
      continue;
    }
    const watch: Watch = { kind: w.kind, id: w.id, key: hit?.key ?? null, name: hit?.name ?? w.name };
    list.watches.push(watch);
    (hit ? out.added : out.pending).push(watch);
  }
  await write(storage, list);
  return out;
}

/** Resolves pending entries whose dataset `engine` now holds, saving what resolved; the list after. */
export async function resolvePending(storage: Storage, engine: Engine): Promise<WatchList> {
  const list = await readWatches(storage);
  const have = await attached(engine);
  let resolved = false;
  for (const w of list.watches) {
    if (w.key !== null) continue;
    const hit = await resolveWatch(engine, w.kind, w.id, have);
    if (!hit) continue;
    Object.assign(w, hit);
    resolved = true;
  }
  if (resolved) await write(storage, list);
  return list;
}

/**
 * Where each watch stands in the local data (pending ones resolved first): a watched scheme that
 * stopped publishing stays on the list, marked ended, with the codes its fund continues under.
 */
export async function settleWatches(storage: Storage, engine: Engine): Promise<WatchStatus[]> {
  const list = await resolvePending(storage, engine);
  const have = await attached(engine);
  const codes = list.watches.filter((w) => w.kind === 'scheme' && w.key !== null && have.has('mf')).map((w) => Number(w.key));
  const ended = new Map<number, { last_date: string }>();
  if (codes.length) {
    const rows = await engine.all<{ scheme_code: number; last_date: string }>(
      `SELECT scheme_code, max(last_date) AS last_date FROM mf.latest WHERE scheme_code IN (${codes.map(() => '?::INTEGER').join(', ')})
       GROUP BY scheme_code HAVING NOT bool_or(is_active)`,
      codes.map(String),
    );
    for (const r of rows) ended.set(r.scheme_code, r);
  }
  const successors = await findSuccessors(engine, [...ended.keys()]);
  return list.watches.map((w): WatchStatus => {
    if (w.key === null) return { ...w, status: 'pending', note: `pending: ${KIND_WORDS[w.kind]} in the local data yet` };
    const end = w.kind === 'scheme' ? ended.get(Number(w.key)) : undefined;
    if (!end) return { ...w, status: 'active', note: null };
    const next = (successors.get(Number(w.key)) ?? []).map((s) => s.scheme_code);
    const note = next.length
      ? `ended ${end.last_date}: merged, continues as scheme ${next.join(', ')}`
      : `ended ${end.last_date}: matured or wound up (no NAVs after that date)`;
    return { ...w, status: 'ended', note, successors: next };
  });
}

/** The keys each sync compares, by kind (pending entries have none yet). */
export function watchedKeys(list: WatchList): Record<WatchKind, string[]> {
  const out: Record<WatchKind, string[]> = { scheme: [], company: [], indicator: [] };
  for (const w of list.watches) if (w.key !== null) out[w.kind].push(w.key);
  return out;
}
