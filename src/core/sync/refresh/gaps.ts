import { MF_BASE, MF_LIMITS } from '../../contract/mf-params.js';
import { isIsoDate } from '../../contract/dates.js';
import { Refused, send, type Exchange } from '../request.js';
import { readCapped } from '../fetch-manifest.js';
import type { SnapshotDiff } from './snapshot.js';

/** One NAV the endpoint gave for a missing day; `nav` as the JSON carried it, turned to DECIMAL in SQL. */
export interface GapRow {
  scheme_code: number;
  date: string;
  nav: string;
}

/**
 * Query requests one refresh may spend on gaps: a sixth of the published minute (300), so a refresh
 * never waits on the limit and leaves the rest of the minute to the user's own queries. More schemes
 * than this covers (a skipped weekday at full scale: every scheme misses a day) go whole.
 */
export const GAP_REQUESTS = 50;

/** Largest answer accepted from the endpoint: 50 schemes × a few days is kilobytes. */
const MAX_ANSWER = 16 * 1024 * 1024;

type Gap = SnapshotDiff['gaps'][number];

/**
 * The gaps in requests of at most `bulkSchemesMax` schemes that share their local last day (`after`),
 * in the order given (liquid and overnight funds first). A request asks `since` one day for all its
 * schemes, so a scheme silent for months, or new (its whole history), batched with fifty liquid funds
 * missing a weekend fetched all fifty histories back to its day: 5.4 MB for 938 rows on a demo-scale
 * Monday (bench, 2026-11-26), against ~0.1 MB on the others.
 */
export function gapBatches(gaps: Gap[]): Gap[][] {
  const byAfter = new Map<string, Gap[]>();
  for (const g of gaps) {
    const same = byAfter.get(g.after);
    if (same) same.push(g);
    else byAfter.set(g.after, [g]);
  }
  return [...byAfter.values()].flatMap((same) =>
    Array.from({ length: Math.ceil(same.length / MF_LIMITS.bulkSchemesMax) }, (_, i) => same.slice(i * MF_LIMITS.bulkSchemesMax, (i + 1) * MF_LIMITS.bulkSchemesMax)),
  );
}

export interface GapFill {
  rows: GapRow[];
  requests: number;
  body_bytes: number;
}

/**
 * Asks the NAV endpoint (bulk `schemes=`, `since`, `to`) for the days the snapshot cannot carry, liquid
 * and overnight funds first, until `missing` rows are found. Returns null when that takes more than
 * the budget; the rows found otherwise (the caller checks the count again).
 */
export async function fillGaps(x: Exchange, base: string, gaps: SnapshotDiff['gaps'], missing: number): Promise<GapFill | null> {
  const out: GapFill = { rows: [], requests: 0, body_bytes: 0 };
  for (const batch of gapBatches(gaps)) {
    if (out.rows.length >= missing) break;
    if (out.requests >= GAP_REQUESTS) return null;
    const since = batch[0].after;
    const to = batch.reduce((m, g) => (g.before > m ? g.before : m), batch[0].before);
    const q = new URLSearchParams({ schemes: batch.map((g) => g.scheme_code).join(','), to });
    if (since !== '0000-01-01') q.set('since', since);
    const res = await send(x, `${base}${MF_BASE}/nav?${q}`, { Accept: 'application/json' }, 'query');
    out.requests++;
    const text = await readCapped(res, MAX_ANSWER, 'NAV endpoint answer');
    out.body_bytes += new TextEncoder().encode(text).length;
    if (res.status !== 200) throw new Refused(`NAV endpoint: HTTP ${res.status}`);
    const body = JSON.parse(text) as { schemes?: Record<string, { scheme_code?: unknown; data?: unknown }> };
    const want = new Map(batch.map((g) => [g.scheme_code, g]));
    for (const entry of Object.values(body.schemes ?? {})) {
      const g = want.get(Number(entry.scheme_code));
      if (!g || !Array.isArray(entry.data)) continue;
      want.delete(g.scheme_code);
      for (const p of entry.data as { date?: unknown; nav?: unknown }[]) {
        if (typeof p.date !== 'string' || !isIsoDate(p.date) || typeof p.nav !== 'number' || !Number.isFinite(p.nav)) {
          throw new Refused('NAV endpoint: a point without a date or a number');
        }
        // Only the days strictly between the local last NAV and the snapshot's: those are the gap.
        if (p.date > g.after && p.date < g.before) out.rows.push({ scheme_code: g.scheme_code, date: p.date, nav: String(p.nav) });
      }
    }
  }
  return out;
}
