import type { Engine, Param } from '../../engine/engine.js';
import { MfError, schemeNotFound, type NavParams, type NavWindow } from '../../contract/mf-params.js';
import { resolveSchemes, type ResolvedScheme } from './resolve.js';
import { findSuccessors, type Successor } from './lineage.js';
import { navTail, tailRows, type NavColumns } from './nav-tail.js';

export interface NavPoint {
  date: string;
  nav: number;
}

/** The spec's single-scheme shape, plus what the data says about how the series ends. */
export interface SchemeNav {
  scheme_code: number;
  scheme_name: string;
  isin: string | null;
  isin2: string | null;
  first_available_date: string;
  latest_available_date: string;
  count: number;
  data: NavPoint[];
  is_active: boolean;
  /** The final NAV is exactly 0.00 on a matured scheme: end of life, not a price; never average it. */
  end_of_life: boolean;
  /** The series ended while the fund continues under these codes (an AMC merger split). */
  continued_as?: Successor[];
  /** Plain-language caveats for this response (empty window, end of life, merger split). */
  notes?: string[];
}

export interface NavBatch {
  /** Keyed by each identifier as given. */
  schemes: Record<string, SchemeNav>;
  not_found: string[];
  /** Why each not_found entry did not resolve: unknown_scheme, corrupted_isin or malformed_identifier. */
  not_found_reasons: Record<string, string>;
}

/**
 * The codes arrive as one bound comma list and are joined in: DuckDB pushes the join's keys (up to 50
 * values) into the scan of the scheme_code-ordered table at run time, so only the wanted schemes' row
 * groups are read. Measured at full scale (37M rows, CPU): 50 schemes ~52 ms joined against ~68 ms as
 * `IN (?, …)` with a placeholder per code. One code is a plain equality, and its rows need no sort
 * (navRows): on a fresh engine the join, the list's unnesting and the sort were code DuckDB-WASM
 * compiles on its first call, 66-79 against 26-30 ms for the longest scheme (native: 17 ms either
 * way), and the sort of its 7.5k rows ~3-5 ms of every later call (docs/performance.md). A code is
 * bound as text and cast in SQL: a JS number reaches DuckDB-WASM as a DOUBLE, and `scheme_code =
 * <double>` cannot use the column's zone maps. Only the date bounds the request gives are written:
 * `date >= coalesce(?::DATE, DATE '0001-01-01')` evaluated on every row of the wanted schemes was half
 * the statement's CPU for one scheme's whole history (7.5k rows: 13 -> 6.5 ms).
 */
const wantedRows = (one: boolean, since: boolean, to: boolean, table: string) => {
  const dates = [...(since ? ['n.date >= ?::DATE'] : []), ...(to ? ['n.date <= ?::DATE'] : [])];
  const from = one
    ? `SELECT n.scheme_code, n.date, n.nav FROM ${table} n WHERE n.scheme_code = ?::INTEGER`
    : `WITH wanted AS (SELECT unnest(string_split(?, ','))::INTEGER AS scheme_code)\n` +
      `SELECT n.scheme_code, n.date, n.nav FROM mf.nav n JOIN wanted w ON n.scheme_code = w.scheme_code`;
  return dates.length ? `${from}\n${one ? 'AND' : 'WHERE'} ${dates.join(' AND ')}` : from;
};

/**
 * Dates leave as text and NAVs as DOUBLE: DuckDB's DATE → VARCHAR is cheaper than formatting each
 * Arrow DATE in JS, and DECIMAL(18,4) → DOUBLE divides the unscaled integer by 10^4, as rows.ts does.
 */
const OUT = (t: string) => `${t}.scheme_code, ${t}.date::VARCHAR AS date, ${t}.nav::DOUBLE AS nav`;

/**
 * The rows in the window, or with `latest` each scheme's last row in it: (scheme_code, date, nav) by
 * code and date when `ordered`; else (one scheme) as the table holds them, put in date order by navRows.
 * `table`: where one scheme's rows are read (a refreshed history's base table, see navRows).
 */
export function navStatement(codes: number[], w: NavWindow, table = 'mf.nav'): { sql: string; params: Param[]; ordered: boolean } {
  const one = codes.length === 1;
  const rows = wantedRows(one, Boolean(w.since), Boolean(w.to), table);
  const params: Param[] = [codes.join(','), ...(w.since ? [w.since] : []), ...(w.to ? [w.to] : [])];
  // One scheme's rows are put in date order by navRows; its latest is one row.
  if (!w.latest) return { sql: `SELECT ${OUT('r')} FROM (${rows}) r${one ? '' : '\nORDER BY r.scheme_code, r.date'}`, params, ordered: !one };
  // A grouped arg_max, not a row_number() window: the window sorted every row of every history just to keep one per scheme.
  const sql = `SELECT ${OUT('r')} FROM (
  SELECT scheme_code, max(date) AS date, arg_max(nav, date) AS nav FROM (${rows}) GROUP BY scheme_code
) r${one ? '' : '\nORDER BY r.scheme_code'}`;
  return { sql, params, ordered: !one };
}

/** Days before a latest window's end that hold the last NAV of every scheme that publishes at all often. */
const LATEST_LOOKBACK_DAYS = 31;

const daysBefore = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

/**
 * The NAV service's data statements: navStatement's rows for `codes` in the window. With `latest`,
 * DuckDB reads the wanted schemes' row groups whole whatever the window, but joining and grouping
 * every row of their histories was a third of the work (full scale, 50 schemes as of a date: 39.8
 * against 27.4 ms in DuckDB-WASM, 25.0 against 22.4 ms native; docs/performance.md). So it first asks
 * only the LATEST_LOOKBACK_DAYS before the window's end (`to`, else `newest`: the latest last NAV date
 * of the schemes asked for), then, for the schemes with no row there (ended, not yet launched, or
 * publishing rarely), the whole window again. Exact either way: a scheme with a row in the short
 * window has its last row of the whole window there. The second statement's rows come after the
 * first's; each statement's are by code and date. One scheme's history on a refreshed store reads
 * the base table and the newer days kept in memory (nav-tail.ts), not the view over both.
 */
export async function navRows(engine: Engine, codes: number[], w: NavWindow, newest?: string): Promise<NavColumns> {
  const rows = async (c: number[], win: NavWindow, table?: string) => {
    const { sql, params, ordered } = navStatement(c, win, table);
    return { cols: (await engine.columns(sql, params)) as NavColumns, ordered };
  };
  const run = async (c: number[], win: NavWindow) => {
    const { cols, ordered } = await rows(c, win);
    return ordered ? cols : byDate(cols);
  };
  if (codes.length === 1 && !w.latest) {
    // A refreshed history: its base table, then the newer days kept in memory (nav-tail.ts).
    const tail = await navTail(engine);
    if (tail) return byDate(joined([(await rows(codes, w, tail.base)).cols, tailRows(tail, codes[0], w.since, w.to)]));
  }
  const end = w.to ?? newest;
  const from = w.latest && end ? daysBefore(end, LATEST_LOOKBACK_DAYS) : null;
  if (!from || (w.since && w.since >= from)) return run(codes, w);
  const near = await run(codes, { ...w, since: from });
  const seen = new Set(near[0]);
  const rest = codes.filter((c) => !seen.has(c));
  if (rest.length === 0) return near;
  return joined([near, await run(rest, w)]);
}

/** `b`'s rows after `a`'s, in `a` (each a statement's own new columns). */
function joined([a, b]: [NavColumns, NavColumns]): NavColumns {
  for (let i = 0; i < b[0].length; i++) {
    a[0].push(b[0][i]);
    a[1].push(b[1][i]);
    a[2].push(b[2][i]);
  }
  return a;
}

/**
 * One scheme's rows in date order. Its statement sorts nothing (wantedRows): DuckDB's scan of the table,
 * written by code and date, and of the view over it keeps that order here, but SQL promises none, so it
 * is checked, and the rows sorted when it does not hold.
 */
function byDate(cols: NavColumns): NavColumns {
  const [code, date, nav] = cols;
  let ordered = true;
  for (let i = 1; i < date.length && ordered; i++) ordered = date[i - 1] < date[i];
  if (ordered) return cols;
  const order = date.map((_, i) => i).sort((a, b) => (date[a] < date[b] ? -1 : date[a] > date[b] ? 1 : 0));
  return [order.map((i) => code[i]), order.map((i) => date[i]), order.map((i) => nav[i])];
}

/** GET /nav with one id in `scheme`: that scheme's series; an id that names no scheme is a 404. */
export async function schemeNav(engine: Engine, params: NavParams): Promise<SchemeNav> {
  const [r] = await resolveSchemes(engine, params.ids);
  if (!r.ok) throw new MfError(schemeNotFound(r.id, r.kind));
  return (await navSeries(engine, [r.scheme], params)).get(r.scheme.scheme_code)!;
}

/** GET /nav with `schemes` (the wrapped shape): each id's series, and the ids not found with why. */
export async function navBatch(engine: Engine, params: NavParams): Promise<NavBatch> {
  const resolved = await resolveSchemes(engine, params.ids);
  const schemes = [...new Map(resolved.flatMap((r) => (r.ok ? [[r.scheme.scheme_code, r.scheme] as const] : []))).values()];
  const series = await navSeries(engine, schemes, params);
  const batch: NavBatch = { schemes: {}, not_found: [], not_found_reasons: {} };
  for (const r of resolved) {
    if (r.ok) batch.schemes[r.id] = series.get(r.scheme.scheme_code)!;
    else {
      batch.not_found.push(r.id);
      batch.not_found_reasons[r.id] = schemeNotFound(r.id, r.kind).code!;
    }
  }
  return batch;
}

async function navSeries(engine: Engine, schemes: ResolvedScheme[], w: NavParams): Promise<Map<number, SchemeNav>> {
  const out = new Map<number, SchemeNav>();
  if (schemes.length === 0) return out;
  const codes = schemes.map((s) => s.scheme_code);
  const points = new Map<number, NavPoint[]>(codes.map((c) => [c, []]));
  // Straight from the columns into the response's points: no row object per NAV in between.
  const newest = schemes.reduce((d, s) => (s.last_date > d ? s.last_date : d), '');
  const [code, date, value] = await navRows(engine, codes, w, newest || undefined);
  for (let i = 0; i < code.length; i++) points.get(code[i])!.push({ date: date[i], nav: value[i] });
  const successors = await findSuccessors(engine, schemes.filter((s) => !s.is_active).map((s) => s.scheme_code));
  for (const s of schemes) {
    const data = points.get(s.scheme_code)!;
    const endOfLife = !s.is_active && s.nav === 0;
    const next = successors.get(s.scheme_code);
    const notes: string[] = [];
    if (data.length === 0) notes.push(emptyWindowNote(s, w));
    if (endOfLife) {
      notes.push(`The final NAV of 0.00 on ${s.nav_date} marks the end of the scheme's life, not a price; exclude it before averaging or computing returns.`);
    }
    if (next?.length) {
      const list = next.map((n) => `${n.scheme_code} (${n.scheme_name}, NAVs from ${n.first_date})`).join('; ');
      notes.push(`This code's series ends on ${s.last_date}; the fund appears to continue under ${list}, as after an AMC merger.`);
    }
    out.set(s.scheme_code, {
      scheme_code: s.scheme_code,
      scheme_name: s.scheme_name,
      isin: s.isin,
      isin2: s.isin2,
      first_available_date: s.first_date,
      latest_available_date: s.last_date,
      count: data.length,
      data,
      is_active: s.is_active,
      end_of_life: endOfLife,
      ...(next?.length ? { continued_as: next } : {}),
      ...(notes.length ? { notes } : {}),
    });
  }
  return out;
}

function emptyWindowNote(s: ResolvedScheme, w: NavParams): string {
  const asked = [w.since && `from ${w.since}`, w.to && `to ${w.to}`].filter(Boolean).join(' ');
  const late = w.since && w.since > s.last_date ? ' (no NAV published for those dates yet, or the scheme has ended)' : '';
  return `No NAV ${asked || 'in the window'}${late}; this scheme has NAVs from ${s.first_date} to ${s.last_date}.`;
}
