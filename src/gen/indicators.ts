/**
 * Sample data for the indicator service (Document 1): macro_indicators (long format, visible
 * indicators), stock_prices (16 market symbols, daily OHLCV) and indicator_config (the dictionary),
 * each in every published format, the indicators_all bundles and manifest.json.
 */
import { DuckDBInstance, dateValue, type DuckDBConnection } from '@duckdb/node-api';
import {
  ALL_BASENAME,
  CATEGORY_IDS,
  MARKET_SYMBOLS,
  TABLE_FILE_FORMATS,
  INDICATOR_TABLES,
  createTableSql,
  sizeHuman,
  type IndicatorsManifest,
  type IndicatorsManifestFile,
  type TableName,
} from '../core/contract/indicators.js';
import { toDay } from './calendar.js';
import { writeDatabaseFiles, writeManifest, writeTableFiles, type FileFormat } from './formats.js';
import { INDICATOR_DEFS, type IndicatorDef } from './indicator-catalog.js';
import { macroSeries, type Observation } from './indicator-series.js';
import { MARKET_MODELS, marketBars, type Bar } from './market-prices.js';
import type { GenOptions, Scale } from './options.js';
import { FIRST_AS_OF, stateOf, timeline, type Timeline } from './timeline.js';

/** History kept per scale, counted back from generation 1's as-of date so later generations only append. */
const HISTORY_YEARS: Record<Scale, number | null> = { tiny: 2, demo: 12, full: null };
/** At tiny scale: this many visible indicators per category, plus the ones named here. */
const TINY_PER_CATEGORY = 3;
const TINY_EXTRA = ['VIXCLS', 'DGS10', 'TEDRATE', 'USDEUR'];

export function selectDefs(scale: Scale): IndicatorDef[] {
  if (scale !== 'tiny') return [...INDICATOR_DEFS];
  const picked = new Set<string>(TINY_EXTRA);
  for (const c of CATEGORY_IDS) {
    INDICATOR_DEFS.filter((d) => d.category === c && d.visible)
      .slice(0, TINY_PER_CATEGORY)
      .forEach((d) => picked.add(d.id));
  }
  return INDICATOR_DEFS.filter((d) => picked.has(d.id));
}

function windowStart(scale: Scale): number {
  const years = HISTORY_YEARS[scale];
  if (years === null) return -Infinity;
  const first = new Date(`${FIRST_AS_OF}T00:00:00Z`);
  first.setUTCFullYear(first.getUTCFullYear() - years);
  return toDay(first.toISOString().slice(0, 10));
}

function marketGroup(symbol: string): string {
  if (/^\^(GSPC|NSEI|N225|HSI|GDAXI)$|\.SS$/.test(symbol)) return 'equity_indices';
  if (symbol === '^TNX') return 'rates';
  if (['DX-Y.NYB', 'INR=X', 'JPY=X'].includes(symbol)) return 'fx';
  return 'commodities';
}

interface ConfigRow {
  indicator_id: string;
  name: string;
  category: string;
  country: string;
  source_category: string;
  frequency: string;
  unit: string;
  source: string;
  source_series_id: string;
  seasonally_adjusted: boolean;
  first_date: number | null;
  last_date: number | null;
  record_count: number;
  notes: string;
  visible: boolean;
}

export async function generate(opts: GenOptions): Promise<IndicatorsManifest> {
  const t = await timeline(opts);
  const from = windowStart(opts.scale);
  const defs = selectDefs(opts.scale);
  const macro = new Map<string, Observation[]>();
  for (const d of defs) if (d.visible) macro.set(d.id, macroSeries(d, opts.seed, t.dates).filter((o) => o.day >= from));
  const market = new Map<string, Bar[]>();
  for (const [sym, bars] of marketBars(opts.seed, t.asOf)) market.set(sym, bars.filter((b) => b.day >= from));

  const config: ConfigRow[] = [
    ...defs.map((d) => {
      const obs = macro.get(d.id) ?? [];
      return {
        indicator_id: d.id,
        name: d.name,
        category: d.category,
        country: d.country,
        source_category: d.source_category,
        frequency: d.frequency,
        unit: d.unit,
        source: d.source,
        source_series_id: d.source_series_id,
        seasonally_adjusted: d.sa,
        first_date: obs.length ? obs[0].day : null,
        last_date: obs.length ? obs[obs.length - 1].day : null,
        record_count: obs.length,
        notes: d.notes,
        visible: d.visible,
      };
    }),
    ...MARKET_SYMBOLS.map((s) => {
      const bars = market.get(s.symbol)!;
      return {
        indicator_id: s.symbol,
        name: s.name,
        category: 'markets',
        country: s.country,
        source_category: marketGroup(s.symbol),
        frequency: 'daily',
        unit: s.unit,
        source: s.source,
        source_series_id: s.symbol,
        seasonally_adjusted: false,
        first_date: bars.length ? bars[0].day : null,
        last_date: bars.length ? bars[bars.length - 1].day : null,
        record_count: bars.length,
        notes: MARKET_MODELS[s.symbol].notes,
        visible: true,
      };
    }),
  ].sort((a, b) => (a.indicator_id < b.indicator_id ? -1 : 1));

  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    for (const t of Object.keys(INDICATOR_TABLES) as TableName[]) await conn.run(createTableSql(t));
    await fillMacro(conn, macro);
    await fillMarket(conn, market);
    await fillConfig(conn, config);
    return await writeFiles(conn, opts, t);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

async function fillMacro(conn: DuckDBConnection, macro: Map<string, Observation[]>): Promise<void> {
  const app = await conn.createAppender('macro_indicators');
  for (const id of [...macro.keys()].sort()) {
    for (const o of macro.get(id)!) {
      app.appendVarchar(id);
      app.appendDate(dateValue(o.day));
      app.appendDouble(o.value);
      app.endRow();
    }
  }
  app.closeSync();
}

async function fillMarket(conn: DuckDBConnection, market: Map<string, Bar[]>): Promise<void> {
  const app = await conn.createAppender('stock_prices');
  for (const sym of [...market.keys()].sort()) {
    for (const b of market.get(sym)!) {
      app.appendVarchar(sym);
      app.appendDate(dateValue(b.day));
      app.appendDouble(b.open);
      app.appendDouble(b.high);
      app.appendDouble(b.low);
      app.appendDouble(b.close);
      if (b.volume === null) app.appendNull();
      else app.appendBigInt(BigInt(b.volume));
      app.endRow();
    }
  }
  app.closeSync();
}

async function fillConfig(conn: DuckDBConnection, rows: ConfigRow[]): Promise<void> {
  const app = await conn.createAppender('indicator_config');
  for (const r of rows) {
    for (const v of [r.indicator_id, r.name, r.category, r.country, r.source_category, r.frequency, r.unit, r.source, r.source_series_id]) {
      app.appendVarchar(v);
    }
    app.appendBoolean(r.seasonally_adjusted);
    for (const d of [r.first_date, r.last_date]) {
      if (d === null) app.appendNull();
      else app.appendDate(dateValue(d));
    }
    app.appendInteger(r.record_count);
    app.appendVarchar(r.notes);
    app.appendBoolean(r.visible);
    app.endRow();
  }
  app.closeSync();
}

async function writeFiles(conn: DuckDBConnection, opts: GenOptions, t: Timeline): Promise<IndicatorsManifest> {
  const files: Record<string, IndicatorsManifestFile> = {};
  let totalRows = 0;
  for (const table of Object.keys(INDICATOR_TABLES) as TableName[]) {
    const written = await writeTableFiles(conn, {
      table,
      dir: opts.dir,
      baseName: table,
      formats: [...TABLE_FILE_FORMATS] as FileFormat[],
      readme: readme(table, opts.scale, t),
    });
    for (const [name, w] of Object.entries(written)) {
      files[name] = { format: w.format, size_bytes: w.size_bytes, size_human: sizeHuman(w.size_bytes), row_count: w.row_count, table };
    }
    totalRows += Object.values(written)[0].row_count;
  }
  const tables = Object.keys(INDICATOR_TABLES);
  for (const kind of ['sqlite', 'duckdb'] as const) {
    const written = await writeDatabaseFiles(conn, {
      tables,
      dir: opts.dir,
      baseName: ALL_BASENAME,
      kind,
      formats: kind === 'sqlite' ? ['db.zip', 'db.gz'] : ['duckdb.zip', 'duckdb.gz'],
      readme: readme('all', opts.scale, t),
    });
    for (const [name, w] of Object.entries(written)) {
      files[name] = { format: w.format, size_bytes: w.size_bytes, size_human: sizeHuman(w.size_bytes), row_count: w.row_count, table: 'all' };
    }
  }
  const manifest: IndicatorsManifest = { generated_at: t.generatedAt, total_rows: totalRows, files };
  await writeManifest(opts.dir, manifest, stateOf(t));
  return manifest;
}

function readme(table: TableName | 'all', scale: Scale, t: Timeline): string {
  const specs = table === 'all' ? Object.values(INDICATOR_TABLES) : [INDICATOR_TABLES[table]];
  const body = specs
    .map((t) => {
      const cols = t.columns.map((c) => `| ${c.name} | ${c.type} | ${c.required ? 'yes' : 'no'} |`).join('\n');
      return `## ${t.name}\n\n${t.description}.\n\n| column | type | required |\n|---|---|---|\n${cols}\n`;
    })
    .join('\n');
  return `# ${table === 'all' ? 'Unified indicator data: all tables' : table}

Sample data (scale ${scale}, generation ${t.generation}) in the layout of the unified indicator
data service. Data as of ${t.asOf}; generated ${t.generatedAt}.

Read each indicator's \`notes\` in indicator_config before computing anything: they state
annualisation, sign conventions, cumulative versus per-period values, base years and breaks.
Market symbols use Yahoo Finance tickers; their series are the \`close\` column of stock_prices.

${body}
Licence: CC0 1.0. Republished public records; not an authoritative source; provided as is.
`;
}
