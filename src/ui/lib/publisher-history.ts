import { get, set, update, del } from 'idb-keyval';
import { publisherSchemeNav } from '../../core/services/mf/publisher-nav.js';
import type { SchemeNav } from '../../core/services/mf/nav.js';

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
