import type { Engine, Param } from '../../engine/engine.js';
import { INDICATOR_LIMITS, type SeriesParams, type SeriesResponse, type SeriesRow } from '../../contract/indicators.js';

/** Which catalog each requested id belongs to; ids compare case-insensitively. */
const RESOLVE_SQL = (n: number) => `
SELECT indicator_id, category = 'markets' AS is_market, visible
FROM indicators.indicator_config
WHERE lower(indicator_id) IN (${Array(n).fill('lower(?)').join(', ')})`;

/**
 * Observations of the resolved ids in [from, to]: macro values and market closes, one shape. The ids
 * are matched with list_contains, a filter the scan applies itself (skipping the dates and values of
 * vectors without a match); DuckDB turns `IN (?, …)` of more than a few values into a join that
 * probes every scanned row after decoding all its columns: ~16 against ~19 ms CPU for 10 mixed ids
 * at full scale (docs/performance.md).
 */
function observationsSql(macro: number, market: number, from: boolean, to: boolean): string {
  const range = `${from ? ' AND date >= CAST(? AS DATE)' : ''}${to ? ' AND date <= CAST(? AS DATE)' : ''}`;
  const ids = (n: number) => `[${Array(n).fill('?').join(', ')}]`;
  const parts: string[] = [];
  if (macro) parts.push(`SELECT indicator_id AS id, date, value FROM indicators.macro_indicators WHERE list_contains(${ids(macro)}, indicator_id)${range}`);
  if (market) parts.push(`SELECT symbol AS id, date, close AS value FROM indicators.stock_prices WHERE list_contains(${ids(market)}, symbol)${range}`);
  return parts.join('\nUNION ALL\n');
}

/**
 * The first `limit` dates of the range (one more than the cap tells us whether it was cut), preceded
 * by one marker row (date NULL) per id with any observation in range: one round trip, and DuckDB
 * shares the one scan of `obs` between the page and the markers (half the CPU of two statements).
 * Ordered by date alone: widen() needs each date's rows together, not in id order, and sorting on
 * the text id too cost ~2 of the statement's ~14 ms.
 */
const PAGE_SQL = (obs: string) => `
WITH obs AS (${obs}),
     page AS (SELECT DISTINCT date FROM obs ORDER BY date LIMIT ?)
SELECT obs.id, obs.date, obs.value FROM obs JOIN page USING (date)
UNION ALL
SELECT DISTINCT id, NULL, NULL FROM obs
ORDER BY date NULLS FIRST`;

/**
 * GET /v1/series: wide rows, one per date, one column per id that has data in range. Unknown ids
 * and ids without rows are diagnostics, never errors. Above `maxRows` dates the earliest are
 * returned with `truncated` and `next_from`.
 */
export async function series(engine: Engine, p: SeriesParams, opts: { maxRows?: number } = {}): Promise<SeriesResponse> {
  const maxRows = opts.maxRows ?? INDICATOR_LIMITS.max_rows_per_response;
  const found = await engine.all<{ indicator_id: string; is_market: boolean; visible: boolean }>(RESOLVE_SQL(p.ids.length), p.ids);
  const byLower = new Map(found.map((r) => [r.indicator_id.toLowerCase(), r]));
  const known = p.ids.map((id) => byLower.get(id.toLowerCase())).filter((r) => r !== undefined);
  const unknown_ids = p.ids.filter((id) => !byLower.has(id.toLowerCase()));
  const macro = known.filter((r) => r.visible && !r.is_market).map((r) => r.indicator_id);
  const market = known.filter((r) => r.visible && r.is_market).map((r) => r.indicator_id);

  let rows: SeriesRow[] = [];
  let present = new Set<string>();
  let truncated = false;
  let next_from: string | null = null;
  if (macro.length + market.length > 0) {
    const range: Param[] = [...(p.from ? [p.from] : []), ...(p.to ? [p.to] : [])];
    const obs = observationsSql(macro.length, market.length, p.from !== null, p.to !== null);
    const obsParams: Param[] = [...(macro.length ? [...macro, ...range] : []), ...(market.length ? [...market, ...range] : [])];
    const page = (await engine.columns(PAGE_SQL(obs), [...obsParams, maxRows + 1])) as [string[], (string | null)[], (number | null)[]];
    const [ids, dates] = page;
    const first = dates.findIndex((d) => d !== null);
    const split = first < 0 ? dates.length : first;
    present = new Set(ids.slice(0, split));
    rows = widen(page, split, known.map((r) => r.indicator_id).filter((id) => present.has(id)));
    if (rows.length > maxRows) {
      truncated = true;
      next_from = rows[maxRows].date;
      rows = rows.slice(0, maxRows);
    }
  }
  const columns = known.map((r) => r.indicator_id).filter((id) => present.has(id));
  const empty_ids = known.map((r) => r.indicator_id).filter((id) => !present.has(id));
  return {
    ids: known.map((r) => r.indicator_id),
    from: p.from,
    to: p.to,
    columns,
    count: rows.length,
    rows,
    meta: { unknown_ids, empty_ids, count: rows.length, max_rows: maxRows, truncated, next_from },
  };
}

/**
 * One row per date from the long (id, date, value) columns, ordered by date, starting at `from`. Every
 * row is a copy of one template with the date and all columns (null), so all share one shape.
 */
function widen([ids, dates, values]: [string[], (string | null)[], (number | null)[]], from: number, columns: string[]): SeriesRow[] {
  const template: Record<string, string | number | null> = { date: null };
  for (const c of columns) template[c] = null;
  // An id named "date" blanks the date, as when each row was built key by key.
  const dateIsColumn = columns.includes('date');
  const rows: SeriesRow[] = [];
  let current: SeriesRow | null = null;
  for (let i = from; i < ids.length; i++) {
    const date = dates[i]!;
    if (!current || current.date !== date) {
      current = { ...template, date: dateIsColumn ? null : date } as SeriesRow;
      rows.push(current);
    }
    current[ids[i]] = values[i];
  }
  return rows;
}

/**
 * Ids echo user input into a header and a comment line: anything outside visible ASCII, and the
 * separators `%`, `,`, `[`, `]`, is percent-encoded so neither can be split or injected.
 */
export function safeId(id: string): string {
  let out = '';
  for (const ch of id) {
    if (/^[\x21-\x7e]$/.test(ch) && !'%,[]'.includes(ch)) out += ch;
    else for (const b of new TextEncoder().encode(ch)) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export function seriesMetaLine(r: SeriesResponse): string {
  const list = (ids: string[]) => `[${ids.map(safeId).join(',')}]`;
  const cut = r.meta.truncated ? ` truncated=true next_from=${r.meta.next_from}` : '';
  return `# meta: count=${r.count} unknown=${list(r.meta.unknown_ids)} empty=${list(r.meta.empty_ids)}${cut}`;
}

/** TSV: the meta comment, the header, one line per date; an empty cell where a column has no value. */
export function seriesTsv(r: SeriesResponse): string {
  const lines = [seriesMetaLine(r), ['date', ...r.columns].join('\t')];
  for (const row of r.rows) lines.push([row.date, ...r.columns.map((c) => (row[c] === null ? '' : String(row[c])))].join('\t'));
  return `${lines.join('\n')}\n`;
}

/** The diagnostics as response headers (REST only; MCP results are body-only). */
export function seriesHeaders(r: SeriesResponse): Record<string, string> {
  return {
    'x-v2-unknown-ids': r.meta.unknown_ids.map(safeId).join(','),
    'x-v2-empty-ids': r.meta.empty_ids.map(safeId).join(','),
    'x-v2-count': String(r.count),
  };
}
