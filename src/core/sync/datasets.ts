import * as indicators from '../contract/indicators.js';
import * as mf from '../contract/mf.js';
import * as flags from '../contract/flags.js';
import { MF_LIMITS } from '../contract/mf-params.js';
import { SERVICES, splitFileName, type Service } from '../contract/files.js';
import { isTableIdent } from './names.js';

export { SERVICES, type Service };

export function isService(s: string): s is Service {
  return (SERVICES as readonly string[]).includes(s);
}

/** A local table as the contracts describe it: columns by name with DuckDB types. */
export interface TableContract {
  name: string;
  columns: readonly { name: string; type: string; required: boolean }[];
}

/** What a request is, as the publishers count it. */
export type RequestKind = 'whole' | 'range' | 'query';

/** One download-rate rule a publisher announces: at most `limit` requests per `windowMs`. */
export interface RateRule {
  limit: number;
  windowMs: number;
  /** Which responses count: MF counts range reads (206) apart from whole-file requests, and its query endpoints apart from both. */
  kind: RequestKind | 'any';
}

export interface ServiceDef {
  service: Service;
  tables: readonly TableContract[];
  /** File stem of the whole-dataset file, when the publisher offers one. */
  allStem: string | null;
  /** The schema version this contract describes (the manifest's `schema_version`); null: unversioned. */
  schemaVersion: number | null;
  /** Column renames a file may still carry (older schema versions): from → to, per table. */
  renames: Readonly<Record<string, Readonly<Record<string, string>>>>;
  rules: readonly RateRule[];
  /** File stem → local table (a stem no contract knows becomes a table of its own name). */
  stemTable: Readonly<Record<string, string>>;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

const mfTables = Object.values(mf.MF_TABLES) as readonly (TableContract & { source: string })[];

export const SERVICE_DEFS: Readonly<Record<Service, ServiceDef>> = {
  indicators: {
    service: 'indicators',
    tables: Object.values(indicators.INDICATOR_TABLES),
    allStem: indicators.ALL_BASENAME,
    schemaVersion: null,
    renames: {},
    rules: [{ limit: indicators.INDICATOR_LIMITS.per_ip_downloads_per_minute, windowMs: MINUTE, kind: 'any' }],
    stemTable: Object.fromEntries(indicators.TABLE_NAMES.map((t) => [t, t])),
  },
  mf: {
    service: 'mf',
    tables: mfTables,
    allStem: null,
    schemaVersion: mf.SCHEMA_VERSION,
    renames: mf.RENAMES.reduce<Record<string, Record<string, string>>>((acc, r) => {
      (acc[r.table] ??= {})[r.from] = r.to;
      return acc;
    }, {}),
    rules: [
      { limit: MF_LIMITS.downloadsWholePerMinute, windowMs: MINUTE, kind: 'whole' },
      { limit: MF_LIMITS.downloadsWholePerDay, windowMs: DAY, kind: 'whole' },
      { limit: MF_LIMITS.downloadsRangePerMinute, windowMs: MINUTE, kind: 'range' },
      { limit: MF_LIMITS.downloadsRangePerDay, windowMs: DAY, kind: 'range' },
      { limit: MF_LIMITS.requestsPerMinute, windowMs: MINUTE, kind: 'query' },
    ],
    stemTable: Object.fromEntries(mfTables.map((t) => [t.source, t.name])),
  },
  flags: {
    service: 'flags',
    tables: Object.values(flags.FLAGS_TABLES),
    allStem: flags.ALL_BASENAME,
    schemaVersion: null,
    renames: {},
    rules: [{ limit: flags.FLAGS_LIMITS.downloadsPerMinute, windowMs: MINUTE, kind: 'any' }],
    stemTable: Object.fromEntries(flags.TABLE_NAMES.map((t) => [t, t])),
  },
};

/** Formats the ingest reads offline, best first. SQLite (.db) needs an extension WASM lacks here. */
export const TABLE_FORMATS = ['parquet', 'csv.gz', 'tsv.gz', 'csv', 'tsv', 'csv.zip', 'tsv.zip'] as const;
export const WHOLE_FORMATS = ['duckdb.gz', 'duckdb.zip'] as const;
/** What a user may choose per dataset: a per-table format, `duckdb` for the whole-dataset file, or auto. */
export type FormatChoice = 'auto' | 'duckdb' | (typeof TABLE_FORMATS)[number];

export function tableOfStem(def: ServiceDef, stem: string): string | null {
  if (def.stemTable[stem]) return def.stemTable[stem];
  return stem !== def.allStem && isTableIdent(stem) ? stem : null;
}

export function contractOf(def: ServiceDef, table: string): TableContract | null {
  return def.tables.find((t) => t.name === table) ?? null;
}

/** One file the sync will fetch and the tables it fills (`null`: every table in the file). */
export interface PlannedFile {
  name: string;
  suffix: string;
  tables: string[] | null;
  size: number;
  rows: number | null;
}

/**
 * Picks the files to fetch from the manifest's names: the whole-dataset DuckDB file when the user
 * chose it (or, on auto, when one is offered), otherwise one file per table in the best offered format.
 */
export function planFiles(def: ServiceDef, files: ManifestEntries, choice: FormatChoice): PlannedFile[] {
  const names = Object.keys(files);
  if (choice === 'duckdb' || (choice === 'auto' && def.allStem)) {
    for (const suffix of WHOLE_FORMATS) {
      const name = `${def.allStem}.${suffix}`;
      if (def.allStem && files[name]) return [{ name, suffix, tables: null, size: files[name].size, rows: null }];
    }
    if (choice === 'duckdb') throw new Error(`${def.service}: the manifest offers no whole-dataset DuckDB file`);
  }
  const order: readonly string[] = choice === 'auto' ? TABLE_FORMATS : [choice, ...TABLE_FORMATS];
  const byTable = new Map<string, PlannedFile>();
  for (const name of names) {
    const { stem, suffix } = splitFileName(name);
    const table = tableOfStem(def, stem);
    const rank = order.indexOf(suffix);
    if (!table || rank < 0) continue;
    const prev = byTable.get(table);
    if (!prev || rank < order.indexOf(prev.suffix)) {
      byTable.set(table, { name, suffix, tables: [table], size: files[name].size, rows: files[name].rows });
    }
  }
  return [...byTable.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The plan less the files that fill a table the user left out (a phone's light choice). */
export function withoutTables(plan: PlannedFile[], skip: readonly string[]): PlannedFile[] {
  return plan.filter((f) => !f.tables?.some((t) => skip.includes(t)));
}

/** The manifest's `files`, reduced to what sync trusts after checking: name → size and rows. */
export type ManifestEntries = Record<string, { size: number; rows: number | null }>;
