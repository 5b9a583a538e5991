import { tableFromIPC } from 'apache-arrow';
import type { DatabaseHost } from '../host.js';

/** One scheme's line of the latest snapshot, as much as the refresh plan needs. */
export interface SnapshotLine {
  /** YYYY-MM-DD of the scheme's latest NAV. */
  date: string;
  /** SEBI sub-category code (DT-LIQ, DT-ON publish NAVs on weekends and holidays). */
  txic: string | null;
}

/** Scheme code → its latest NAV date, read from a snapshot parquet in the store. */
export async function readSnapshot(host: DatabaseHost, store: string): Promise<Map<number, SnapshotLine>> {
  const file = await host.rowGroups(store);
  const out = new Map<number, SnapshotLine>();
  try {
    for (let i = 0; i < file.rows.length; i++) {
      const t = tableFromIPC(await file.read(i));
      const code = t.getChild('scheme_code');
      const date = t.getChild('nav_date');
      const txic = t.getChild('txic_code');
      if (!code || !date) throw new Error('the snapshot has no scheme_code or nav_date column');
      for (let r = 0; r < t.numRows; r++) {
        const d = isoDate(date.get(r));
        if (d !== null) out.set(Number(code.get(r)), { date: d, txic: (txic?.get(r) as string | null) ?? null });
      }
    }
  } finally {
    await file.close();
  }
  return out;
}

/** A parquet date as YYYY-MM-DD: MF publishes dates as text, a DATE column arrives as epoch milliseconds. */
function isoDate(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : null;
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'number' || typeof v === 'bigint') return new Date(Number(v)).toISOString().slice(0, 10);
  return null;
}

/** Days from `a` to `b` (YYYY-MM-DD, UTC). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/** What the new snapshot says the history gained, against the snapshot of the publish held locally. */
export interface SnapshotDiff {
  /** Schemes whose latest NAV is newer than the local last date (or new schemes): one row each. */
  appended: { scheme_code: number; date: string }[];
  /** Schemes with more than one calendar day between their local last date and their new one, liquid first. */
  gaps: { scheme_code: number; after: string; before: string }[];
}

/** Weekend and holiday NAVs come from these sub-categories (liquid and overnight funds). */
const DAILY = new Set(['DT-LIQ', 'DT-ON']);

export function diffSnapshots(old: Map<number, SnapshotLine>, now: Map<number, SnapshotLine>): SnapshotDiff {
  const appended: SnapshotDiff['appended'] = [];
  const gaps: (SnapshotDiff['gaps'][number] & { daily: boolean })[] = [];
  for (const [code, line] of now) {
    const before = old.get(code);
    if (before && line.date <= before.date) continue;
    appended.push({ scheme_code: code, date: line.date });
    // A new scheme's earlier days, if any, are not in the snapshot either: a gap from its first day.
    if (!before || daysBetween(before.date, line.date) > 1) {
      gaps.push({ scheme_code: code, after: before?.date ?? '0000-01-01', before: line.date, daily: DAILY.has(line.txic ?? '') });
    }
  }
  gaps.sort((a, b) => Number(b.daily) - Number(a.daily) || a.scheme_code - b.scheme_code);
  return { appended, gaps: gaps.map(({ daily: _daily, ...g }) => g) };
}
