/**
 * What one dataset's switch changed, in two steps on one engine: `readBefore` while the OLD
 * generation is attached under the service's own name (`mf`) keeps what the comparison needs of it
 * (temp tables, scores), then `diffAfter` with the NEW generation attached under that name compares.
 * Only one generation is attached at a time, under the names its own SQL (and views, such as a
 * refreshed history's `mf.nav` over `mf_base`) expect; recorder.ts says where each runs. Totals read
 * every row once through cheap aggregates; per-watch answers filter by key, so 100 watches cost what
 * a handful of point lookups do (docs/changes.md).
 */
import type { Engine, Param } from '../engine/engine.js';
import type { Service } from '../sync/datasets.js';
import type { DatasetState } from '../sync/metadata.js';
import type { HistoryChanges } from '../sync/progress.js';
import { TABLE_NAMES as FLAG_TABLES, FLAGS_TABLES as FLAG_SPECS } from '../contract/flags.js';
import { AS_OF_SQL, SCORED } from '../services/flags/scorecard.js';
import type { CompanyChange, IndicatorChange, Revision, SchemeChange } from './shape.js';

/** Temp tables holding the old generation's side (dropped by diffAfter). */
const T = {
  navCounts: '_chg_nav_counts',
  navRows: '_chg_nav_rows',
  latest: '_chg_latest',
  flags: (t: string) => `_chg_flags_${t}`,
  macro: '_chg_macro',
};

/** What readBefore kept beyond its temp tables. */
export interface Before {
  service: Service;
  /** Tables the old generation had. */
  tables: string[];
  /** Watched companies' scores (flags only). */
  scores: Record<string, number>;
}

/** One dataset's share of a sync's changes (merged into one record by recorder.ts). */
export interface ServiceChanges {
  schemes?: SchemeChange[];
  base_navs?: Record<string, number | null>;
  companies?: CompanyChange[];
  indicators?: IndicatorChange[];
  new_navs?: number;
  new_flag_rows?: Record<string, number>;
  new_indicator_points?: number;
  revised_indicator_points?: number;
  /** Every indicator value the sync replaced (watched or not): the revisions table's new rows. */
  indicator_revisions?: Array<Revision & { indicator_id: string }>;
}

const list = (n: number, cast = '') => Array(n).fill(`?${cast}`).join(', ');

/** Percent change from `base` to `last`, 4 places; one rule for a sync and for merged syncs. */
export function changePct(base: number | null, last: number | null): number | null {
  if (base === null || last === null || base === 0) return null;
  return Math.round(((last - base) * 100 * 10_000) / base) / 10_000;
}

/** A refresh of the MF history that says which keys it added and replaced (null lists: it came whole). */
type KeyedChanges = HistoryChanges & { appended: NonNullable<HistoryChanges['appended']>; revised: NonNullable<HistoryChanges['revised']> };

const keyed = (h: HistoryChanges | undefined): h is KeyedChanges => !!h && h.appended !== null && h.revised !== null;

/**
 * Whether comparing `service` reads its old generation at all: not when the refresh patched the MF
 * history and its key lists say what changed (the old rows are then the new ones less those keys).
 */
export function readsBefore(service: Service, history: HistoryChanges | undefined): boolean {
  return !(service === 'mf' && keyed(history));
}

export async function readBefore(engine: Engine, before: DatasetState, keys: string[], history?: HistoryChanges): Promise<Before> {
  const service = before.service;
  const tables = Object.keys(before.tables);
  const out: Before = { service, tables, scores: {} };
  if (service === 'mf' && tables.includes('nav') && readsBefore(service, history)) {
    await engine.exec(`CREATE OR REPLACE TEMP TABLE ${T.navCounts} AS SELECT scheme_code, count(*) AS n FROM mf.nav GROUP BY scheme_code`);
    // eslint-disable-next-line sql/no-interpolated-sql -- a fixed statement with one `?` per key; the keys are bound
    await engine.all(`CREATE OR REPLACE TEMP TABLE ${T.navRows} AS ${watchedNavSql(keys.length)}`, keys);
  }
  if (service === 'mf' && !tables.includes('nav') && tables.includes('latest')) {
    await engine.exec(`CREATE OR REPLACE TEMP TABLE ${T.latest} AS SELECT scheme_code, nav_date, nav FROM mf.latest`);
  }
  if (service === 'flags') {
    for (const t of FLAG_TABLES.filter((t) => tables.includes(t))) {
      // eslint-disable-next-line sql/no-interpolated-sql -- t is one of the contract's FLAG_TABLES, its columns the contract's
      await engine.exec(`CREATE OR REPLACE TEMP TABLE ${T.flags(t)} AS SELECT ${columns(t)} FROM flags.${t}`);
    }
    if (keys.length && FLAG_TABLES.every((t) => tables.includes(t))) out.scores = await scores(engine, keys);
  }
  if (service === 'indicators' && tables.includes('macro_indicators')) {
    await engine.exec(`CREATE OR REPLACE TEMP TABLE ${T.macro} AS SELECT indicator_id, date, value FROM indicators.macro_indicators`);
  }
  return out;
}

export async function diffAfter(engine: Engine, prev: Before, after: DatasetState, keys: string[], history?: HistoryChanges): Promise<ServiceChanges> {
  const had = (t: string) => prev.tables.includes(t);
  try {
    if (after.service === 'mf' && had('nav') && keyed(history)) return await diffMfByKeys(engine, keys, history);
    if (after.service === 'mf' && !had('nav') && !('nav' in after.tables) && had('latest')) return await diffMfLatest(engine, keys);
    if (after.service === 'mf') return await diffMf(engine, keys, had('nav'));
    if (after.service === 'flags') return await diffFlags(engine, keys, FLAG_TABLES.filter((t) => t in after.tables), prev);
    return await diffIndicators(engine, keys, had('macro_indicators'));
  } finally {
    const names = [T.navCounts, T.navRows, T.latest, T.macro, ...FLAG_TABLES.map(T.flags)];
    await engine.exec(names.map((n) => `DROP TABLE IF EXISTS ${n};`).join(' '));
  }
}

/**
 * Watched codes' rows. Codes are bound as text and cast in SQL, so the filter can use the column's
 * zone maps (see mf/resolve.ts); with no watches, no rows (an empty list is not valid SQL).
 */
const watchedNavSql = (n: number) =>
  `SELECT scheme_code, date, nav FROM mf.nav WHERE ${n ? `scheme_code IN (${list(n, '::INTEGER')})` : 'false'}`;

/**
 * Totals: per scheme, rows after minus rows before (never below 0). That is the count of new
 * (scheme, date) keys whenever the publisher removes no rows, which it does not (a NAV is published
 * once, then only revised); an anti-join of the whole history would cost a hash table of 38M keys.
 */
const NEW_NAV_TOTAL_SQL = `
WITH b AS (SELECT scheme_code, count(*) AS n FROM mf.nav GROUP BY scheme_code)
SELECT coalesce(sum(greatest(b.n - coalesce(a.n, 0), 0)), 0)::BIGINT AS n FROM b LEFT JOIN ${T.navCounts} a USING (scheme_code)`;

const schemeRowsSql = (n: number) => `
WITH x AS (${watchedNavSql(n)})
SELECT x.scheme_code, x.date, o.nav AS old, x.nav AS new
FROM x LEFT JOIN ${T.navRows} o USING (scheme_code, date)
WHERE o.nav IS NULL OR o.nav <> x.nav
ORDER BY x.scheme_code, x.date`;

const schemeLatestSql = (n: number) => `
WITH a AS (SELECT scheme_code, arg_max(nav, date) AS nav FROM ${T.navRows} GROUP BY scheme_code),
     b AS (SELECT scheme_code, max(date) AS last_date, arg_max(nav, date) AS nav FROM (${watchedNavSql(n)}) GROUP BY scheme_code)
SELECT b.scheme_code, b.last_date, b.nav AS last_nav, a.nav AS base_nav FROM b LEFT JOIN a USING (scheme_code)`;

const watchedRowsSql = (n: number) => `${watchedNavSql(n)} ORDER BY scheme_code, date`;

async function diffMf(engine: Engine, codes: string[], hadNav: boolean): Promise<ServiceChanges> {
  if (!hadNav) {
    const [{ n }] = await engine.all<{ n: number }>('SELECT count(*)::BIGINT AS n FROM mf.nav');
    return { new_navs: n, schemes: [], base_navs: {} };
  }
  const [{ n }] = await engine.all<{ n: number }>(NEW_NAV_TOTAL_SQL);
  if (codes.length === 0) return { new_navs: n, schemes: [], base_navs: {} };
  const params: Param[] = codes;
  const rows = await engine.all<{ scheme_code: number; date: string; old: number | null; new: number }>(schemeRowsSql(codes.length), params);
  const latest = await engine.all<{ scheme_code: number; last_date: string; last_nav: number; base_nav: number | null }>(schemeLatestSql(codes.length), params);
  const schemes: SchemeChange[] = [];
  const base_navs: Record<string, number | null> = {};
  for (const l of latest.sort((a, b) => a.scheme_code - b.scheme_code)) {
    const mine = rows.filter((r) => r.scheme_code === l.scheme_code);
    if (mine.length === 0) continue;
    const revisions = mine.filter((r) => r.old !== null).map((r) => ({ date: r.date, old: r.old!, new: r.new }));
    schemes.push({
      scheme_code: l.scheme_code,
      new_navs: mine.length - revisions.length,
      last_date: l.last_date,
      last_nav: l.last_nav,
      change_pct: changePct(l.base_nav, l.last_nav),
      revised_navs: revisions.length,
      revisions,
    });
    base_navs[l.scheme_code] = l.base_nav;
  }
  return { new_navs: n, schemes, base_navs };
}

/**
 * A light copy (no `mf.nav`, docs/mobile.md) takes in each scheme's latest NAV and nothing else, so its
 * new NAVs are the snapshot's: a scheme whose latest date moved has one new NAV, one whose NAV on the
 * same date changed has one revised. The percentage runs from the snapshot's NAV before to the one
 * now, as it does from the history's latest NAV before on a full copy (docs/changes.md).
 */
const LATEST_CHANGED_SQL = `
SELECT l.scheme_code, l.nav_date AS last_date, l.nav AS last_nav, o.nav_date AS old_date, o.nav AS old_nav
FROM mf.latest l LEFT JOIN ${T.latest} o USING (scheme_code)
WHERE l.nav_date IS NOT NULL AND (o.nav_date IS NULL OR l.nav_date > o.nav_date OR (l.nav_date = o.nav_date AND l.nav IS DISTINCT FROM o.nav))`;

async function diffMfLatest(engine: Engine, codes: string[]): Promise<ServiceChanges> {
  type Row = { scheme_code: number; last_date: string; last_nav: number | null; old_date: string | null; old_nav: number | null };
  const rows = await engine.all<Row>(LATEST_CHANGED_SQL);
  const isNew = (r: Row) => r.old_date === null || r.last_date > r.old_date;
  const watched = new Set(codes.map(Number));
  const schemes: SchemeChange[] = [];
  const base_navs: Record<string, number | null> = {};
  for (const r of rows.filter((r) => watched.has(r.scheme_code)).sort((a, b) => a.scheme_code - b.scheme_code)) {
    const revisions = isNew(r) || r.old_nav === null || r.last_nav === null ? [] : [{ date: r.last_date, old: r.old_nav, new: r.last_nav }];
    schemes.push({
      scheme_code: r.scheme_code,
      new_navs: isNew(r) ? 1 : 0,
      last_date: r.last_date,
      last_nav: r.last_nav,
      change_pct: changePct(r.old_nav, r.last_nav),
      revised_navs: revisions.length,
      revisions,
    });
    base_navs[r.scheme_code] = r.old_nav;
  }
  return { new_navs: rows.filter(isNew).length, schemes, base_navs };
}

/**
 * The same answer as diffMf from the new generation alone, for a patched history: its refresh knows the
 * keys it added (`appended`: new days, none held before) and replaced (`revised`, with the old NAV), and
 * left every other row as it was (the new `nav` is the old one's base and deltas plus this publish's
 * delta). So the total is the count of added keys, and the watched schemes' rows before are their rows
 * now less the added keys, revised ones at their old NAV: no scan of either generation's 38M rows.
 */
async function diffMfByKeys(engine: Engine, codes: string[], h: KeyedChanges): Promise<ServiceChanges> {
  const new_navs = h.appended.length;
  if (codes.length === 0) return { new_navs, schemes: [], base_navs: {} };
  const key = (r: { scheme_code: number; date: string }) => `${r.scheme_code} ${r.date}`;
  const appended = new Set(h.appended.map(key));
  const replaced = new Map(h.revised.map((r) => [key(r), r.old === null ? null : Number(r.old)]));
  type Row = { scheme_code: number; date: string; nav: number };
  /** `old`: the row's NAV before the sync; undefined: the key was not held. */
  const oldNav = (k: string, nav: number) => (appended.has(k) ? undefined : replaced.has(k) ? replaced.get(k) : nav);
  const rows = (await engine.all<Row>(watchedRowsSql(codes.length), codes)).map((r) => ({ ...r, old: oldNav(key(r), r.nav) }));
  const byCode = new Map<number, typeof rows>();
  for (const r of rows) {
    const mine = byCode.get(r.scheme_code);
    if (mine) mine.push(r);
    else byCode.set(r.scheme_code, [r]);
  }
  const schemes: SchemeChange[] = [];
  const base_navs: Record<string, number | null> = {};
  for (const [code, mine] of [...byCode].sort(([a], [b]) => a - b)) {
    // As diffMf's SQL: a row is new or revised where its NAV before is missing or another.
    const changed = mine.filter((r) => r.old == null || r.old !== r.nav);
    if (changed.length === 0) continue;
    const revisions = changed.filter((r) => r.old != null).map((r) => ({ date: r.date, old: r.old!, new: r.nav }));
    const last = mine[mine.length - 1];
    const held = mine.filter((r) => r.old !== undefined);
    const base = held.length ? (held[held.length - 1].old ?? null) : null;
    schemes.push({
      scheme_code: code,
      new_navs: changed.length - revisions.length,
      last_date: last.date,
      last_nav: last.nav,
      change_pct: changePct(base, last.nav),
      revised_navs: revisions.length,
      revisions,
    });
    base_navs[code] = base;
  }
  return { new_navs, schemes, base_navs };
}

/**
 * The columns a row is compared by. A snapshot table (surveillance_flags, pledge_data) is dated anew at
 * each publish, so its date is left out: a security still on the list is not news, one newly on it or
 * at another stage is (docs/changes.md).
 */
const columns = (t: (typeof FLAG_TABLES)[number]) => {
  const spec = FLAG_SPECS[t];
  return spec.columns.filter((c) => spec.kind !== 'snapshot' || c.name !== spec.dateColumn).map((c) => `"${c.name}"`).join(', ');
};

/** Rows present after that were not before, by symbol; a changed row is a new row (whole-row comparison). */
const newFlagRowsSql = (t: (typeof FLAG_TABLES)[number], had: boolean) => had
  ? `SELECT symbol, count(*)::BIGINT AS n FROM (SELECT ${columns(t)} FROM flags.${t} EXCEPT ALL SELECT ${columns(t)} FROM ${T.flags(t)}) GROUP BY symbol`
  : `SELECT symbol, count(*)::BIGINT AS n FROM flags.${t} GROUP BY symbol`;

const scoresSql = (n: number) => `SELECT symbol, max(score) AS score FROM (${SCORED}) WHERE symbol IN (${list(n)}) GROUP BY symbol`;

/** The scorecard of the watched companies in the generation attached as `flags`, at its own as-of date. */
async function scores(engine: Engine, symbols: string[]): Promise<Record<string, number>> {
  const [{ as_of }] = await engine.all<{ as_of: string | null }>(AS_OF_SQL, [null]);
  const rows = await engine.all<{ symbol: string; score: number }>(scoresSql(symbols.length), [as_of, ...symbols]);
  return Object.fromEntries(rows.map((r) => [r.symbol, r.score]));
}

async function diffFlags(engine: Engine, symbols: string[], tables: (typeof FLAG_TABLES)[number][], prev: Before): Promise<ServiceChanges> {
  const had = (t: string) => prev.tables.includes(t);
  const new_flag_rows: Record<string, number> = {};
  const perSymbol = new Map<string, Record<string, number>>();
  const watched = new Set(symbols);
  for (const t of tables) {
    const rows = await engine.all<{ symbol: string; n: number }>(newFlagRowsSql(t, had(t)));
    new_flag_rows[t] = rows.reduce((s, r) => s + r.n, 0);
    for (const r of rows) {
      if (!watched.has(r.symbol)) continue;
      const m = perSymbol.get(r.symbol) ?? {};
      m[t] = r.n;
      perSymbol.set(r.symbol, m);
    }
  }
  // The scorecard needs all seven tables; a side without them has no score.
  const after = symbols.length && tables.length === FLAG_TABLES.length ? await scores(engine, symbols) : {};
  const companies: CompanyChange[] = [];
  for (const symbol of [...symbols].sort()) {
    const new_rows = perSymbol.get(symbol) ?? {};
    const score_before = prev.scores[symbol] ?? null;
    const score_after = after[symbol] ?? null;
    if (Object.keys(new_rows).length === 0 && score_before === score_after) continue;
    companies.push({ symbol, new_rows, score_before, score_after });
  }
  return { new_flag_rows, companies };
}

const INDICATOR_COUNTS_SQL = `
SELECT x.indicator_id, count(*) FILTER (WHERE o.value IS NULL)::BIGINT AS new_points, count(*) FILTER (WHERE o.value IS NOT NULL)::BIGINT AS revised_points
FROM indicators.macro_indicators x LEFT JOIN ${T.macro} o USING (indicator_id, date)
WHERE o.value IS NULL OR o.value <> x.value
GROUP BY x.indicator_id`;

const INDICATOR_REVISIONS_SQL = `
SELECT x.indicator_id, x.date, o.value AS old, x.value AS new
FROM indicators.macro_indicators x JOIN ${T.macro} o USING (indicator_id, date)
WHERE o.value <> x.value
ORDER BY x.indicator_id, x.date`;

async function diffIndicators(engine: Engine, ids: string[], hadTable: boolean): Promise<ServiceChanges> {
  if (!hadTable) {
    const [{ n }] = await engine.all<{ n: number }>('SELECT count(*)::BIGINT AS n FROM indicators.macro_indicators');
    return { new_indicator_points: n, revised_indicator_points: 0, indicators: [], indicator_revisions: [] };
  }
  const counts = await engine.all<{ indicator_id: string; new_points: number; revised_points: number }>(INDICATOR_COUNTS_SQL);
  const revised = await engine.all<Revision & { indicator_id: string }>(INDICATOR_REVISIONS_SQL);
  const watched = new Set(ids);
  const indicators = counts
    .filter((c) => watched.has(c.indicator_id))
    .sort((a, b) => a.indicator_id.localeCompare(b.indicator_id))
    .map((c) => ({
      indicator_id: c.indicator_id,
      new_points: c.new_points,
      revised_points: c.revised_points,
      revisions: revised.filter((r) => r.indicator_id === c.indicator_id).map(({ date, old, new: v }) => ({ date, old, new: v })),
    }));
  return {
    new_indicator_points: counts.reduce((s, c) => s + c.new_points, 0),
    revised_indicator_points: counts.reduce((s, c) => s + c.revised_points, 0),
    indicators,
    indicator_revisions: revised,
  };
}
