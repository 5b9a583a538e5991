/**
 * What the nav's "What's new" badge shows, and the desktop's notification. "Seen" is the end time of
 * the newest kept sync the user has looked at (What's new view), kept in this browser profile; the
 * badge counts the watched items changed by the syncs after it (docs/changes.md).
 */
import { backend, desktopBackend } from './backend.js';
import { savingData } from './config.svelte.js';
import { getEngine } from './engine.svelte.js';
import { bringUp } from './publisher-history.js';
import { lightCopy } from '../../core/services/mf/fetched.js';
import type { Changes } from '../../core/changes/shape.js';
import type { Watch, WatchKind } from '../../core/changes/watches.js';

const SEEN_KEY = 'almanac-news-seen';

export const news = $state<{ unread: number; fresh: boolean; watches: Watch[] }>({ unread: 0, fresh: false, watches: [] });

/** The first instant after the newest sync seen (the changes since it are unread). */
export function unseenSince(): string {
  const seen = localStorage.getItem(SEEN_KEY);
  return seen ? new Date(Date.parse(seen) + 1).toISOString() : '1970-01-01';
}

const watchedCount = (c: Changes) => c.watched.schemes.length + c.watched.companies.length + c.watched.indicators.length;
const anyChange = (c: Changes) =>
  c.totals.new_navs + c.totals.new_indicator_points + c.totals.revised_indicator_points + Object.values(c.totals.new_flag_rows).reduce((a, b) => a + b, 0) > 0;

/** Recounts what is unread: watched items changed since the last look, or data that changed at all. */
export async function refreshNews(): Promise<Changes> {
  const c = await backend().changes(unseenSince());
  news.unread = watchedCount(c);
  news.fresh = anyChange(c);
  return c;
}

/** The user looked: everything kept so far is seen. */
export async function markSeen(): Promise<void> {
  const last = await backend().changes();
  if (last.to.synced_at) localStorage.setItem(SEEN_KEY, last.to.synced_at);
  news.unread = 0;
  news.fresh = false;
}

export async function loadWatches(): Promise<void> {
  news.watches = await backend().watchList();
}

/** The page's first load of the list, shared by the nav and every toggle mounted before it answered. */
let firstLoad: Promise<void> | null = null;

/**
 * Loads the list once per page. A promise kept outside state, not the list's length: an empty list
 * must not read as "not loaded" (every toggle would reload it forever), and toggles mounted together
 * share one request. A failed load may be tried again.
 */
export function ensureWatches(): void {
  firstLoad ??= loadWatches().catch(() => {
    firstLoad = null;
  });
}

export function isWatched(kind: WatchKind, key: string): boolean {
  const k = key.toUpperCase();
  return news.watches.some((w) => w.kind === kind && (w.key?.toUpperCase() === k || w.id.toUpperCase() === k));
}

/** On the desktop, a sync that changed watched items says so with a native notification (own origin only). */
async function notify(): Promise<void> {
  if (!desktopBackend() || typeof Notification === 'undefined') return;
  const last = await backend().changes();
  const n = watchedCount(last);
  if (n === 0) return;
  if (Notification.permission === 'default') await Notification.requestPermission();
  if (Notification.permission !== 'granted') return;
  const note = new Notification('Almanac: what\u2019s new', { body: `The sync changed ${n} watched item${n > 1 ? 's' : ''}.` });
  note.onclick = () => (location.hash = '#/news');
}

/**
 * On a light copy, after a sync: the watched funds' kept histories are brought up to the new snapshot,
 * so a followed fund's page draws its latest NAVs later, offline too (a few small requests, one per
 * watched fund not yet current). Not when the browser asks to save data; a fund's page fetches then.
 */
export async function keepWatchedCurrent(): Promise<number> {
  const ids = news.watches.filter((w) => w.kind === 'scheme').map((w) => w.key ?? w.id);
  if (!ids.length || !navigator.onLine || savingData()) return 0;
  const engine = await getEngine();
  if (!(await lightCopy(engine))) return 0;
  return (await bringUp(engine, ids)).fetched;
}

/** Started once by the nav: counts at start, and again after each recorded sync. */
export function watchNews(): () => void {
  void refreshNews().catch(() => undefined);
  ensureWatches();
  return backend().subscribe((e) => {
    if (e.type !== 'changes') return;
    void refreshNews().catch(() => undefined);
    void notify().catch(() => undefined);
    void keepWatchedCurrent().catch(() => undefined);
  });
}
