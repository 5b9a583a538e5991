import { get, update } from 'idb-keyval';

/** Local query history (IndexedDB), newest first, deduplicated, bounded. */
export interface HistoryEntry {
  sql: string;
  at: string;
  rows?: number;
  ms?: number;
  error?: string;
}

const KEY = 'almanac-sql-history';
const MAX = 200;

export async function loadHistory(): Promise<HistoryEntry[]> {
  return (await get<HistoryEntry[]>(KEY)) ?? [];
}

export async function remember(entry: HistoryEntry): Promise<HistoryEntry[]> {
  let next: HistoryEntry[] = [];
  await update<HistoryEntry[]>(KEY, (old = []) => {
    next = [entry, ...old.filter((e) => e.sql !== entry.sql)].slice(0, MAX);
    return next;
  });
  return next;
}
