/**
 * `npm run gen` for the Mutual Fund NAV service: the full NAV history (~37M rows at full scale), the
 * latest snapshot, scheme details and data-quality records, each in the spec's formats, and
 * manifest.json whose sizes, counts and validation block are read back from the written files.
 */
import { mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import {
  ACTIVE_WINDOW_DAYS, DATA_QUALITY_FILE_BASE, DATA_QUALITY_FILE_SUFFIXES, DETAILS_COVERAGE, DETAILS_FILE_BASE,
  DETAILS_FILE_SUFFIXES, LATEST_COLUMNS, LATEST_FILE_BASE, LATEST_FILE_SUFFIXES, NAV_FILE_BASE, NAV_FILE_COLUMNS,
  NAV_FILE_SUFFIXES, SCHEMA_CHANGED, SCHEMA_NOTES, SCHEMA_VERSION, SCHEME_DETAILS_COLUMNS, type Manifest, type MfManifestFile,
} from '../core/contract/mf.js';
import { sizeHuman, writeManifest, writeTableFiles, type FileFormat, type WrittenFile } from './formats.js';
import { detailsAsOf, detailsRows } from './mf-details.js';
import { aaumQuarter, buildDataQuality, buildDetails, buildLatest, buildNav, loadInputs } from './mf-tables.js';
import { buildUniverse } from './mf-universe.js';
import { documentedColumns, driftManifest, publishedSources, type PublishedSources } from './drift.js';
import { applyRevisions } from './mf-revisions.js';
import type { GenOptions } from './options.js';
import { stateOf, timeline, type Timeline } from './timeline.js';

/** Which tiny-scale scheme codes carry which edge case (tiny's structure does not depend on the seed). */
export const TINY_CASES: Readonly<Record<string, readonly number[]>> = buildUniverse('tiny', 0).cases;

/** Rows per parquet row group (the spec's files hold ~305 groups for 37M rows). */
const ROW_GROUP = 120_000;
const MF_BASE_PATH = '/mf/v1';
/** Full-history formats other than parquet; CSV carries nav as a float, SQLite as REAL. */
const NAV_TEXT = NAV_FILE_SUFFIXES.filter((f) => f !== 'parquet');
const TEXT_OPTIONS = { csvQuoteAll: true, sqliteTypes: { nav: 'REAL' as const } };

export async function generate(opts: GenOptions): Promise<void> {
  const t = await timeline(opts);
  const { asOf, generatedAt: stamp } = t;
  const universe = buildUniverse(opts.scale, opts.seed);
  await mkdir(opts.dir, { recursive: true });
  const work = path.join(os.tmpdir(), `almanac-mf-${process.pid}-${Date.now()}.duckdb`);
  const instance = await DuckDBInstance.create(work);
  const conn = await instance.connect();
  try {
    await conn.run('SET preserve_insertion_order = true');
    await loadInputs(conn, universe.schemes, asOf, opts.seed);
    await buildNav(conn, opts.seed);
    await applyRevisions(conn, opts.seed, t);
    const quarter = aaumQuarter(asOf);
    await buildLatest(conn, asOf, quarter);
    const details = detailsRows(universe.schemes, asOf, opts.seed);
    await buildDetails(conn, details);
    await buildDataQuality(conn, asOf, quarter.start);
    // Text formats carry nav as a plain float (spec: CSV/TSV floats, SQLite REAL); parquet keeps DECIMAL.
    await conn.run('CREATE SCHEMA txt');
    await conn.run(`CREATE VIEW txt.${NAV_FILE_BASE} AS SELECT scheme_code, date, nav::DOUBLE AS nav, scheme_name, isin FROM main.${NAV_FILE_BASE}`);

    const src = await publishedSources(conn, opts.drift);

    const files: Record<string, WrittenFile> = {};
    const write = async (table: string, baseName: string, formats: readonly string[], extra: Partial<Parameters<typeof writeTableFiles>[1]> = {}) =>
      Object.assign(files, await writeTableFiles(conn, { table, dir: opts.dir, baseName, formats: formats as FileFormat[], readme: readme(baseName, asOf, documentedColumns(opts.drift, src)), ...extra }));
    await write(src.navParquet, NAV_FILE_BASE, ['parquet'], { parquet: { rowGroupSize: ROW_GROUP, compression: 'zstd', kvMetadata: rebuildMark(t) } });
    await write(src.navText, NAV_FILE_BASE, NAV_TEXT, TEXT_OPTIONS);
    await write(src.latest, LATEST_FILE_BASE, LATEST_FILE_SUFFIXES, { csvQuoteAll: true, parquet: { compression: 'zstd' } });
    await write(DETAILS_FILE_BASE, DETAILS_FILE_BASE, DETAILS_FILE_SUFFIXES, { parquet: { compression: 'zstd' } });
    await write(DATA_QUALITY_FILE_BASE, DATA_QUALITY_FILE_BASE, DATA_QUALITY_FILE_SUFFIXES);

    const manifest = driftManifest(await buildManifest(conn, opts, files, stamp, asOf, details.length), opts.drift, src, asOf);
    await writeManifest(opts.dir, manifest, stateOf(t));
  } finally {
    conn.closeSync();
    instance.closeSync();
    await rm(work, { force: true });
    await rm(`${work}.wal`, { force: true });
  }
}

/**
 * The history parquet's footer key-value metadata: empty until a rebuild (`--rebuild`), then the
 * number of rebuilds so far. It changes the file's bytes (so its ETag) and leaves its rows, row groups
 * and statistics exactly as they were.
 */
function rebuildMark(t: Timeline): Record<string, string> {
  return t.rebuilds.length ? { almanac_rebuild: String(t.rebuilds.length) } : {};
}

function manifestFiles(written: Record<string, Omit<MfManifestFile, 'size_human'>>): Record<string, MfManifestFile> {
  const files: Record<string, MfManifestFile> = {};
  for (const [name, w] of Object.entries(written).sort(([a], [b]) => a.localeCompare(b))) {
    files[name] = { format: w.format, size_bytes: w.size_bytes, size_human: sizeHuman(w.size_bytes), row_count: w.row_count };
  }
  return files;
}

async function scalar(conn: DuckDBConnection, sql: string): Promise<number> {
  return Number((await conn.runAndReadAll(sql)).getRows()[0][0]);
}

const lit = (s: string): string => `'${s.replace(/'/g, "''")}'`;

async function buildManifest(
  conn: DuckDBConnection,
  opts: GenOptions,
  written: Record<string, WrittenFile>,
  stamp: string,
  asOf: string,
  detailsCount: number,
): Promise<Manifest> {
  const file = (name: string): string => path.join(opts.dir, name);
  // Counts are read back from the files themselves, so the validation block states what a client gets.
  const sourceRows = await scalar(conn, `SELECT count(*) FROM ${NAV_FILE_BASE}`);
  const sourceSchemes = await scalar(conn, `SELECT count(DISTINCT scheme_code) FROM ${NAV_FILE_BASE}`);
  const parquetRows = await scalar(conn, `SELECT count(*) FROM read_parquet(${lit(file(`${NAV_FILE_BASE}.parquet`))})`);
  const parquetSchemes = await scalar(conn, `SELECT count(DISTINCT scheme_code) FROM read_parquet(${lit(file(`${NAV_FILE_BASE}.parquet`))})`);
  const latestRows = await scalar(conn, `SELECT count(*) FROM read_parquet(${lit(file(`${LATEST_FILE_BASE}.parquet`))})`);
  const latestCsvRows = await scalar(conn, `SELECT count(*) FROM read_csv(${lit(file(`${LATEST_FILE_BASE}.csv`))}, header = true)`);
  const active = await scalar(conn, `SELECT count(*) FROM read_parquet(${lit(file(`${LATEST_FILE_BASE}.parquet`))}) WHERE is_active`);
  const navFiles = NAV_FILE_SUFFIXES.map((s) => `${NAV_FILE_BASE}.${s}`);
  const allMatch = parquetRows === sourceRows && navFiles.every((n) => !written[n] || written[n].row_count === sourceRows);
  const latestMatch = latestRows === sourceSchemes && latestCsvRows === sourceSchemes && parquetSchemes === sourceSchemes;
  const dqRows = await scalar(conn, `SELECT count(*) FROM ${DATA_QUALITY_FILE_BASE}`);
  const coverage = async (col: string) => scalar(conn, `SELECT count(*) FROM read_parquet(${lit(file(`${DETAILS_FILE_BASE}.parquet`))}) WHERE ${col}`);
  const dAsOf = detailsAsOf(asOf);

  const files = manifestFiles(written);
  return {
    generated_at: stamp,
    total_rows: sourceRows,
    docs: `${MF_BASE_PATH}/`,
    license: 'CC0-1.0',
    license_url: 'https://creativecommons.org/publicdomain/zero/1.0/',
    data_source: 'Daily NAV feed of the Association of Mutual Funds in India (AMFI), republished. This copy is deterministic sample data generated by Almanac in the same shape.',
    disclaimer: 'Not an authoritative source. NAV data is a public record, provided as is, without warranty; verify with the fund house before acting on it.',
    terms: `${MF_BASE_PATH}/terms`,
    files,
    validation: {
      source_rows: sourceRows,
      all_match: allMatch,
      latest_snapshot_rows: latestRows,
      latest_snapshot_match: latestMatch,
      latest_snapshot_source_rows: sourceSchemes,
      nav_distinct_schemes: parquetSchemes,
      latest_snapshot_active_rows: active,
      latest_snapshot_matured_rows: latestRows - active,
      latest_snapshot_note: `One row per scheme code in the full history; active means a NAV within ${ACTIVE_WINDOW_DAYS} days of ${asOf}. Matured rows keep their final NAV; a final NAV of 0.00 on an inactive row means end of life.`,
    },
    // Modeled from the row count, not the clock, so the same generation always has the same manifest.
    generation_time_seconds: Math.round((30 + sourceRows / 90_000) * 10) / 10,
    schema_version: SCHEMA_VERSION,
    schema_changed: SCHEMA_CHANGED,
    schema_notes: [...SCHEMA_NOTES],
    schema: {
      full_history_files: {
        applies_to: navFiles.filter((n) => written[n] !== undefined),
        columns: {
          scheme_code: 'integer',
          date: 'string YYYY-MM-DD (a string, not a date type)',
          nav: 'number: DECIMAL(18,4) in parquet, plain float in CSV/TSV, REAL in SQLite',
          scheme_name: 'string: always quoted in CSV, never quoted in TSV',
          isin: 'string: payout or growth ISIN; empty on reinvestment-only rows and on schemes filed without one',
        },
        notes: [
          `Exactly ${NAV_FILE_COLUMNS.length} columns; category, AMC and AUM are in the latest snapshot.`,
          'Rows are clustered by scheme_code, then date: filtering on scheme_code is cheap, on date or name scans everything.',
          'Matured schemes stay with their final frozen NAV; an AMC merger can split one fund across two scheme codes.',
        ],
        query_tip: "SELECT date, nav FROM read_parquet('mf_nav_master.parquet') WHERE scheme_code = 119551 ORDER BY date",
      },
      latest_snapshot_files: {
        applies_to: LATEST_FILE_SUFFIXES.map((s) => `${LATEST_FILE_BASE}.${s}`),
        columns: Object.fromEntries(LATEST_COLUMNS.map((c) => [c, LATEST_COLUMN_NOTES[c]])),
        notes: [
          'One row per scheme code, active and matured alike (no survivorship bias).',
          'aaum_quarter is a label and does not sort chronologically; sort on aaum_quarter_end.',
          'Exclude rows with nav = 0 and is_active = false before averaging NAVs.',
        ],
        query_tip: "SELECT category_group_clean, count(*) FROM read_csv('mf_nav_master_latest.csv') WHERE is_active GROUP BY 1",
      },
    },
    datasets: {
      scheme_details_latest: {
        generated_at: stamp,
        schema_version: SCHEMA_VERSION,
        row_count: detailsCount,
        columns: Object.keys(SCHEME_DETAILS_COLUMNS),
        url: `${MF_BASE_PATH}/download/${DETAILS_FILE_BASE}`,
        formats: [...DETAILS_FILE_SUFFIXES],
        rows_with: { amfi_daily: await coverage('has_amfi_daily'), ssd: await coverage('has_ssd'), ter: await coverage('has_ter') },
        rows_with_meaning: { ...DETAILS_COVERAGE },
        source_dates: { amfi_daily: asOf, ssd: dAsOf, ter: dAsOf },
      },
      data_quality: {
        generated_at: stamp,
        schema_version: SCHEMA_VERSION,
        row_count: dqRows,
        url: `${MF_BASE_PATH}/download/${DATA_QUALITY_FILE_BASE}`,
        formats: [...DATA_QUALITY_FILE_SUFFIXES],
      },
    },
  };
}

const LATEST_COLUMN_NOTES: Record<(typeof LATEST_COLUMNS)[number], string> = {
  scheme_code: 'Scheme code: one plan-and-option variant, not a whole fund',
  isin: 'Payout or growth ISIN',
  isin2: 'Reinvestment ISIN where one exists; nullable',
  scheme_name: 'Name as filed (double and trailing spaces kept)',
  amc: 'Fund house',
  scheme_type: 'Open Ended, Close Ended or Interval Fund',
  category: 'Raw category as filed',
  category_sub: 'SEBI sub-category; blank on older and close-ended schemes',
  category_group: 'Raw header as filed; 20+ coexisting values',
  category_group_clean: 'Equity, Debt, Hybrid or Other',
  scheme_plan: 'Direct, Regular or Other (the oldest code of a family predates the Direct/Regular split)',
  scheme_option: 'Growth, IDCW, IDCW Payout, IDCW Reinvestment, Dividend or Bonus',
  txic_code: 'Stable taxonomy code of the sub-category',
  first_date: 'First NAV date',
  last_date: 'Last NAV date',
  is_active: `A NAV was published within the last ${ACTIVE_WINDOW_DAYS} days`,
  is_stale: 'Active, but the last NAV is more than 7 days old',
  nav: 'Latest NAV; 0.00 on an inactive row means end of life',
  nav_date: 'Date of that NAV',
  aaum_cr_quarterly_avg: 'Average daily net assets over the quarter, Crores; blank for matured schemes',
  aaum_quarter: 'Quarter label; not chronologically sortable',
  aaum_quarter_end: 'ISO quarter-end date; sort quarters on this',
};

function readme(
  baseName: string,
  asOf: string,
  src: Pick<PublishedSources, 'navColumns' | 'latestColumns'> = { navColumns: NAV_FILE_COLUMNS, latestColumns: LATEST_COLUMNS },
): string {
  return [
    `# ${baseName}`,
    '',
    `Mutual fund NAV data as of ${asOf} (deterministic sample data in the shape of the public AMFI feed).`,
    'Licence: CC0 1.0. Not an authoritative source; provided as is.',
    '',
    baseName === NAV_FILE_BASE
      ? `Columns: ${src.navColumns.join(', ')}. date is a YYYY-MM-DD string; CSV quotes every text value, TSV quotes nothing.`
      : baseName === LATEST_FILE_BASE
        ? `Columns (${src.latestColumns.length}): ${src.latestColumns.join(', ')}.`
        : `See ${MF_BASE_PATH}/ for the columns.`,
    '',
  ].join('\n');
}
