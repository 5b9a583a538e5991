import type { Engine } from '../../engine/engine.js';
import { importedNavsSql } from '../mf/imported.js';
import { FETCHED_DATABASE } from '../mf/fetched.js';

/**
 * Where compare reads prices: whichever local price tables are attached. A symbol is a market ticker
 * (indicators.stock_prices, close), a scheme code or ISIN (mf.nav, or on a light copy the histories
 * fetched from the publisher, mf_fetched.nav; NAV as price, extended by the
 * user's AMFI imports newer than the publisher's data), or an imported symbol (user.prices). When several sources hold the same name, the lowest `prio` wins: the user's
 * own import first, then market data, then NAVs. Market and imported closes of 0 or below are prices
 * (WTI closed at -36.98); only a close that is no number is left out. A NAV of 0.00 marks a scheme's
 * end of life and is not a price (see docs/compare.md).
 */
export interface PriceSource {
  /** A validated identifier: a view of every price row (`symbol, date, close, prio`), for listing names. */
  relation: string;
  /**
   * The price rows (`symbol, date, close, prio`) of the names in `wanted`, a relation with a VARCHAR
   * column `symbol`. Each source is read on its own key (a scheme code as the integer it is), so DuckDB
   * reads only those names' rows: a full NAV history is tens of millions of rows, and the view's
   * computed symbol column would make it read them all.
   */
  rowsOf(wanted: string): string;
  /** The tables behind it, for error messages and the catalog. */
  tables: string[];
}

const VIEW = 'compare_prices';

interface SourceDef {
  database: string;
  table: string;
  /** What the rows are read from, when not the table itself. */
  from?: string;
  /** Used only when this other table is attached too (`needs`), or only when it is not (`unless`). */
  needs?: string;
  unless?: string;
  /** `symbol, date, close, prio`, in that order. */
  columns: string;
  /** Rows that are prices at all. */
  where: string;
  /** The source's own key for a name, and that key computed from a VARCHAR `symbol`. */
  key: string;
  keyOf: string;
}

/** NAVs as prices of their scheme code and ISIN; a 0.00 end-of-life NAV is no price. */
const SOURCES_OF_NAV: readonly SourceDef[] = [
  {
    database: 'mf', table: 'nav', key: 'scheme_code', keyOf: 'TRY_CAST(symbol AS INTEGER)', where: 'nav > 0',
    columns: 'CAST(scheme_code AS VARCHAR) AS symbol, CAST(date AS DATE) AS date, CAST(nav AS DOUBLE) AS close, 3 AS prio',
  },
  {
    database: 'mf', table: 'nav', key: 'isin', keyOf: 'symbol', where: 'nav > 0 AND isin IS NOT NULL',
    columns: 'isin AS symbol, CAST(date AS DATE) AS date, CAST(nav AS DOUBLE) AS close, 3 AS prio',
  },
];

/** Identifiers here are constants, never input. */
const SOURCES: readonly SourceDef[] = [
  {
    database: 'user', table: 'prices', key: 'symbol', keyOf: 'symbol', where: 'isfinite(CAST(close AS DOUBLE))',
    columns: 'CAST(symbol AS VARCHAR) AS symbol, CAST(date AS DATE) AS date, CAST(close AS DOUBLE) AS close, 1 AS prio',
  },
  {
    database: 'indicators', table: 'stock_prices', key: 'symbol', keyOf: 'symbol', where: 'isfinite(CAST(close AS DOUBLE))',
    columns: 'symbol, CAST(date AS DATE) AS date, CAST(close AS DOUBLE) AS close, 2 AS prio',
  },
  ...SOURCES_OF_NAV,
  // On a light copy (no mf.nav), the fund histories fetched from the publisher (held by holdFetchedNavs).
  ...SOURCES_OF_NAV.map((s) => ({ ...s, database: FETCHED_DATABASE, unless: 'mf.nav' })),
  ...amfiSources(true),
  ...amfiSources(false),
];

/**
 * AMFI NAVs as prices of their scheme code and ISIN, at the NAVs' priority: they extend that history
 * (importedNavsSql keeps only days after the publisher's, which needs mf.latest when it is attached).
 */
function amfiSources(withPublisher: boolean): SourceDef[] {
  const base = {
    database: 'user', table: 'amfi_nav', from: `(${importedNavsSql(withPublisher)})`,
    ...(withPublisher ? { needs: 'mf.latest' } : { unless: 'mf.latest' }),
  };
  return [
    { ...base, key: 'scheme_code', keyOf: 'TRY_CAST(symbol AS INTEGER)', where: 'true', columns: 'CAST(scheme_code AS VARCHAR) AS symbol, date, CAST(nav AS DOUBLE) AS close, 3 AS prio' },
    { ...base, key: 'isin', keyOf: 'symbol', where: 'isin IS NOT NULL', columns: 'isin AS symbol, date, CAST(nav AS DOUBLE) AS close, 3 AS prio' },
  ];
}

const NONE = 'SELECT NULL::VARCHAR AS symbol, NULL::DATE AS date, NULL::DOUBLE AS close, NULL::INTEGER AS prio WHERE false';

function select(s: SourceDef, filter = ''): string {
  return `SELECT ${s.columns} FROM ${s.from ?? `"${s.database}".${s.table}`} WHERE ${s.where}${filter}`;
}

function union(parts: string[]): string {
  return parts.length ? parts.join('\nUNION ALL\n') : NONE;
}

/** Sources whose symbols can serve as a benchmark (NAV schemes are too many to list). */
const BENCHMARK_TABLES = new Set(['user.prices', 'indicators.stock_prices']);

/** Tables and views: a refreshed MF history is the view mf.nav (docs/storage.md). */
const SQL_ATTACHED = `
SELECT DISTINCT CASE WHEN schema_name = 'main' THEN database_name ELSE schema_name END AS db, table_name
FROM (SELECT database_name, schema_name, table_name FROM duckdb_tables()
      UNION ALL SELECT database_name, schema_name, view_name FROM duckdb_views() WHERE NOT internal)`;

const views = new WeakMap<Engine, string>();

/** (Re)creates the view over the tables attached right now; cheap, so each request calls it. */
export async function openPriceSource(engine: Engine): Promise<PriceSource> {
  const attached = new Set((await engine.all<{ db: string; table_name: string }>(SQL_ATTACHED)).map((r) => `${r.db}.${r.table_name}`));
  const present = SOURCES.filter(
    (s) => attached.has(`${s.database}.${s.table}`) && (!s.needs || attached.has(s.needs)) && (!s.unless || !attached.has(s.unless)),
  );
  const body = union(present.map((s) => select(s)));
  // replaced only when it changes: a catalog change makes DuckDB re-plan every kept statement over it
  if (views.get(engine) !== body) {
    // eslint-disable-next-line sql/no-interpolated-sql -- the view's body is built from the fixed source relations above, no user value
    await engine.exec(`CREATE OR REPLACE TEMP VIEW ${VIEW} AS\n${body}`);
    views.set(engine, body);
  }
  return {
    relation: VIEW,
    rowsOf: (wanted) => union(present.map((s) => select(s, ` AND ${s.key} IN (SELECT ${s.keyOf} FROM ${wanted})`))),
    tables: [...new Set(present.map((s) => `${s.database}.${s.table}`))],
  };
}

export interface ListedSymbol {
  symbol: string;
  origin: 'imported' | 'market';
}

/** Imported and market symbols, sorted; these can serve as a benchmark (NAV schemes are too many to list). */
export async function listedSymbols(engine: Engine, source: PriceSource): Promise<ListedSymbol[]> {
  if (!source.tables.some((t) => BENCHMARK_TABLES.has(t))) return [];
  const rows = await engine.all<{ symbol: string; prio: number }>(
    // eslint-disable-next-line sql/no-interpolated-sql -- the relation is one of the fixed price sources above
    `SELECT symbol, min(prio) AS prio FROM ${source.relation} WHERE prio <= 2 GROUP BY symbol ORDER BY symbol LIMIT 200`,
  );
  return rows.map((r) => ({ symbol: r.symbol, origin: r.prio === 1 ? 'imported' : 'market' }));
}

export async function availableBenchmarks(engine: Engine, source: PriceSource): Promise<string[]> {
  return (await listedSymbols(engine, source)).map((s) => s.symbol);
}

export interface PricePoint {
  symbol: string;
  date: string;
  close: number;
}

/** `symbols`' closes in [from, to] as compare reads them: each name's best source, the lowest close should a day repeat. */
function pricePointsSql(source: PriceSource): string {
  return `WITH wanted AS (SELECT unnest(string_split(?, ',')) AS symbol),
best AS (SELECT * FROM (${source.rowsOf('wanted')}) QUALIFY prio = min(prio) OVER (PARTITION BY symbol))
SELECT symbol, date, min(close) AS close FROM best
WHERE date BETWEEN ?::DATE AND ?::DATE GROUP BY symbol, date ORDER BY date`;
}

/** The prices behind a comparison, for its charts (the view draws what compare computed from). */
export async function pricePoints(engine: Engine, source: PriceSource, symbols: readonly string[], from: string, to: string): Promise<PricePoint[]> {
  return engine.all<PricePoint>(pricePointsSql(source), [symbols.join(','), from, to]);
}
