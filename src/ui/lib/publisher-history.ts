import { get, getMany, set, update, del } from 'idb-keyval';
import { publisherSchemeNav } from '../../core/services/mf/publisher-nav.js';
import { holdFetchedNavs, lightCopy } from '../../core/services/mf/fetched.js';
import { resolveSchemes } from '../../core/services/mf/resolve.js';
import type { SchemeNav } from '../../core/services/mf/nav.js';
import type { Engine } from '../../core/engine/engine.js';
import { errorText } from './call.svelte.js';
import { config } from './config.svelte.js';

/**
 * Fund histories fetched one at a time from the publisher's NAV endpoint, for a store that keeps the
 * light copy (no `mf.nav`, docs/mobile.md). Kept in IndexedDB, so a fund once opened still draws
 * offline; the most recently fetched KEEP of them, as a phone's storage is not the place for more.
 */
export interface KeptHistory {
  /** When the publisher gave it (ISO). */
  fetched_at: string;
  bytes: number;
  nav: SchemeNav;
}

const KEEP = 40;
const INDEX = 'almanac-publisher-nav';
const key = (schemeCode: number) => `almanac-publisher-nav:${schemeCode}`;

export async function keptHistory(schemeCode: number): Promise<KeptHistory | undefined> {
  return get<KeptHistory>(key(schemeCode));
}

/** Fetches `id`'s history from the MF source at `base` and keeps it, dropping the oldest beyond KEEP. */
export async function fetchHistory(base: string, id: string): Promise<KeptHistory> {
  const { nav, bytes } = await publisherSchemeNav(fetch, base, id);
  const kept: KeptHistory = { fetched_at: new Date().toISOString(), bytes, nav };
  await set(key(nav.scheme_code), kept);
  let dropped: number[] = [];
  await update<number[]>(INDEX, (codes = []) => {
    const next = [...codes.filter((c) => c !== nav.scheme_code), nav.scheme_code];
    dropped = next.slice(0, Math.max(0, next.length - KEEP));
    return next.slice(dropped.length);
  });
  await Promise.all(dropped.map((c) => del(key(c))));
  return kept;
}

/** Whether a kept copy is behind the snapshot's latest NAV date for its scheme (so worth fetching again). */
export function behind(kept: KeptHistory, snapshotDate: string | null): boolean {
  return snapshotDate !== null && kept.nav.latest_available_date < snapshotDate;
}

/**
 * On a light copy, holds every kept history for SQL as `mf_fetched.nav` (compare and the SQL workbench
 * read it there); on a full copy, nothing. Returns whether the store keeps the light copy.
 */
export async function holdKept(engine: Engine): Promise<boolean> {
  if (!(await lightCopy(engine))) return false;
  const codes = (await get<number[]>(INDEX)) ?? [];
  const kept = (await getMany<KeptHistory | undefined>(codes.map(key))).filter((k) => k !== undefined);
  await holdFetchedNavs(engine, kept.map((k) => k.nav));
  return true;
}

/** What bringing histories up to the snapshot did: fetched (and bytes moved), and why any could not be. */
export interface Brought {
  fetched: number;
  bytes: number;
  failed: string[];
}

/**
 * Brings the kept histories of the schemes `ids` name (codes or ISINs; other ids are not schemes and are
 * passed over) up to the snapshot's latest NAV, fetching from the MF source those missing or behind (one
 * request each, well inside the publisher's 300 a minute). A scheme that cannot be fetched keeps its
 * older copy, if it has one, and is named in `failed`.
 */
export async function bringUp(engine: Engine, ids: readonly string[]): Promise<Brought> {
  const out: Brought = { fetched: 0, bytes: 0, failed: [] };
  for (const r of await resolveSchemes(engine, [...ids])) {
    if (!r.ok) continue;
    const s = r.scheme;
    const kept = await keptHistory(s.scheme_code);
    if (kept && !behind(kept, s.nav_date)) continue;
    try {
      out.bytes += (await fetchHistory(config.value!.sources.mf, String(s.scheme_code))).bytes;
      out.fetched += 1;
    } catch (e) {
      out.failed.push(`${s.scheme_name} (${s.scheme_code}): ${errorText(e)}`);
    }
  }
  return out;
}
