import type { Engine } from '../../engine/engine.js';
import { generationRecord, perGeneration, type OverlaidHistory } from '../../engine/generation.js';
import { isoDate } from '../../engine/rows.js';
import { toDay } from '../../contract/dates.js';

/** NAV rows as columns: scheme codes, dates (YYYY-MM-DD), values. */
export type NavColumns = [number[], string[], number[]];

/**
 * A refreshed history's rows beyond its base (`mf._nav_delta`: every day taken in since the last whole
 * download), held in memory for the generation as three typed columns in (scheme_code, date) order.
 *
 * Why: after a refresh, `mf.nav` is a view, base UNION ALL delta, and DuckDB-WASM pays a fixed ~0.3 ms
 * per statement for the union's second scan (docs/performance.md). On a one-scheme NAV history of
 * ~1 ms that was 1.3-1.5x a fresh store's. With the tail in memory, one scheme reads the base table
 * alone, as a fresh store reads its one table, and its few newer rows are found here by binary search.
 * The tail is read once per generation: at most 32 deltas (compacted after), ~450k rows at full scale,
 * 16 bytes a row.
 */
export interface NavTail {
  /** Where the base rows are read (a qualified table name from the store, not user input). */
  base: string;
  codes: Int32Array;
  /** Days since 1970-01-01. */
  days: Int32Array;
  navs: Float64Array;
}

const DAY_MS = 86_400_000;

/** The MF history's tail for this generation; null when `mf.nav` is one table (nothing to add) or the engine has no store. */
export async function navTail(engine: Engine): Promise<NavTail | null> {
  const overlaid = generationRecord(engine)?.overlaid.get('mf');
  return overlaid ? perGeneration(engine, 'mf:nav-tail', () => readTail(engine, overlaid)) : null;
}

async function readTail(engine: Engine, h: OverlaidHistory): Promise<NavTail | null> {
  // The delta is written sorted (overlay.ts) and a scan keeps that order, so no sort here; it is checked.
  // eslint-disable-next-line sql/no-interpolated-sql -- h.delta: the store's qualified table name
  const t = await engine.arrow(`SELECT scheme_code, (date - DATE '1970-01-01')::INTEGER AS day, nav::DOUBLE AS nav FROM ${h.delta}`);
  const codes = t.getChild('scheme_code')!.toArray() as Int32Array;
  const days = t.getChild('day')!.toArray() as Int32Array;
  const navs = t.getChild('nav')!.toArray() as Float64Array;
  for (let i = 1; i < codes.length; i++) {
    // Out of order after all: the view answers, as it always can.
    if (codes[i - 1] > codes[i] || (codes[i - 1] === codes[i] && days[i - 1] >= days[i])) return null;
  }
  return { base: h.base, codes, days, navs };
}

/** First index in `codes` (sorted) whose value is >= `code`. */
function lowerBound(codes: Int32Array, code: number): number {
  let lo = 0;
  let hi = codes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (codes[mid] < code) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The tail's rows of one scheme within [since, to], in date order, as navRows' columns. */
export function tailRows(tail: NavTail, code: number, since?: string, to?: string): NavColumns {
  const from = since ? toDay(since) : -Infinity;
  const until = to ? toDay(to) : Infinity;
  const out: NavColumns = [[], [], []];
  for (let i = lowerBound(tail.codes, code); i < tail.codes.length && tail.codes[i] === code; i++) {
    const d = tail.days[i];
    if (d < from || d > until) continue;
    out[0].push(code);
    // The same text the engine makes of a DATE column (rows.ts), so both halves of an answer agree.
    out[1].push(isoDate(d * DAY_MS));
    out[2].push(tail.navs[i]);
  }
  return out;
}
