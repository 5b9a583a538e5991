/**
 * Schema drift a generation can publish (`npm run gen -- --generation N --drift KIND`, issue 14): one
 * layout change in the MF files, the kind of change that broke AMFI's readers in August 2026. The other
 * services' files are published as usual. See docs/publisher.md, "Schema drift".
 *
 * - `rename`: the latest-snapshot files (all four formats) carry `aaum_cr_quarterly_avg` under the name
 *   it had before schema version 2, `aaum_cr`: the spec's known rename, which a client must map.
 * - `insert`: every format of the full-history file gets `plan` and `option` between `date` and `nav`.
 * - `retype`: the full-history parquet carries `nav` as DOUBLE instead of DECIMAL(18,4), the same
 *   values. CSV/TSV carry plain floats and SQLite REAL in every generation (REAL since version 3).
 * - `drop`: every format of the full-history file loses the required column `scheme_name`.
 * - `silent`: `insert` with the manifest untouched (no version bump, no note), as AMFI did.
 * Every kind but `silent` bumps `schema_version`, dates `schema_changed` and adds a note.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  LATEST_COLUMNS, LATEST_FILE_BASE, NAV_FILE_BASE, NAV_FILE_COLUMNS, SCHEMA_VERSION, type Manifest,
} from '../core/contract/mf.js';
import type { Drift } from './options.js';

/** What the files of one generation are written from, and the columns they carry. */
export interface PublishedSources {
  /** The full-history parquet (nav DECIMAL(18,4) unless retyped). */
  navParquet: string;
  /** The full-history CSV, TSV and SQLite files (nav as a float). */
  navText: string;
  latest: string;
  navColumns: readonly string[];
  latestColumns: readonly string[];
}

const RENAMED = { from: 'aaum_cr_quarterly_avg', to: 'aaum_cr' } as const;
const DROPPED = 'scheme_name';
const INSERTED = ['plan', 'option'] as const;

/**
 * Creates the drifted tables and views (schemas `drift`, `drift_txt`; nothing without a drift) and names
 * the sources to write. Without a drift: the generator's own tables and its `txt` view (nav as a float).
 */
export async function publishedSources(conn: DuckDBConnection, drift: Drift | undefined): Promise<PublishedSources> {
  const nav = `main.${NAV_FILE_BASE}`;
  const plain: PublishedSources = {
    navParquet: nav, navText: `txt.${NAV_FILE_BASE}`, latest: `main.${LATEST_FILE_BASE}`,
    navColumns: NAV_FILE_COLUMNS, latestColumns: LATEST_COLUMNS,
  };
  if (!drift) return plain;
  await conn.run('CREATE SCHEMA drift; CREATE SCHEMA drift_txt');
  // Both keep the full-history name: a SQLite file names its table after its source.
  const navTable = `drift.${NAV_FILE_BASE}`;
  const navText = `drift_txt.${NAV_FILE_BASE}`;
  const text = (cols: readonly string[]) => cols.map((c) => (c === 'nav' ? 'nav::DOUBLE AS nav' : quote(c))).join(', ');
  switch (drift) {
    case 'rename': {
      const cols = LATEST_COLUMNS.map((c) => (c === RENAMED.from ? `${c} AS ${RENAMED.to}` : quote(c)));
      await conn.run(`CREATE VIEW drift.${LATEST_FILE_BASE} AS SELECT ${cols.join(', ')} FROM main.${LATEST_FILE_BASE}`);
      return { ...plain, latest: `drift.${LATEST_FILE_BASE}`, latestColumns: LATEST_COLUMNS.map((c) => (c === RENAMED.from ? RENAMED.to : c)) };
    }
    case 'insert':
    case 'silent': {
      const navColumns = [...NAV_FILE_COLUMNS.slice(0, 2), ...INSERTED, ...NAV_FILE_COLUMNS.slice(2)];
      // A table, not a view: the join is read once per format. Clustered by scheme, then date, as before.
      await conn.run(`CREATE TABLE ${navTable} AS
        SELECT n.scheme_code, n.date, l.scheme_plan AS plan, l.scheme_option AS "option", n.nav, n.scheme_name, n.isin
        FROM ${nav} n LEFT JOIN main.${LATEST_FILE_BASE} l USING (scheme_code) ORDER BY n.scheme_code, n.date`);
      await conn.run(`CREATE VIEW ${navText} AS SELECT ${text(navColumns)} FROM ${navTable}`);
      return { ...plain, navParquet: navTable, navText, navColumns };
    }
    case 'retype':
      await conn.run(`CREATE VIEW ${navTable} AS SELECT ${text(NAV_FILE_COLUMNS)} FROM ${nav}`);
      return { ...plain, navParquet: navTable };
    case 'drop': {
      const navColumns = NAV_FILE_COLUMNS.filter((c) => c !== DROPPED);
      await conn.run(`CREATE VIEW ${navTable} AS SELECT ${navColumns.map(quote).join(', ')} FROM ${nav}`);
      await conn.run(`CREATE VIEW ${navText} AS SELECT ${text(navColumns)} FROM ${nav}`);
      return { ...plain, navParquet: navTable, navText, navColumns };
    }
  }
}

/** The columns the README and the manifest describe: the files' own, except under `silent`. */
export function documentedColumns(drift: Drift | undefined, sources: PublishedSources): Pick<PublishedSources, 'navColumns' | 'latestColumns'> {
  return drift === 'silent' ? { navColumns: NAV_FILE_COLUMNS, latestColumns: LATEST_COLUMNS } : sources;
}

/** What each announced drift's note says (the manifest's `schema_notes` gets it as the next version). */
const NOTES: Record<Exclude<Drift, 'silent'>, string> = {
  rename: `latest-snapshot files: column ${RENAMED.from} is published as ${RENAMED.to} again, its name before version 2 (same values, units Crores, same position).`,
  insert: `full-history files: columns ${INSERTED.join(' and ')} inserted between date and nav (the scheme's plan and option, as AMFI's daily file carries them since August 2026); no column removed or renamed.`,
  retype: 'full-history parquet: nav is DOUBLE (previously DECIMAL(18,4)); the values are unchanged. CSV/TSV floats and SQLite REAL as before.',
  drop: `full-history files: column ${DROPPED} removed; scheme names are in the latest-snapshot files.`,
};

/**
 * The manifest of a drifted generation: the next schema version, dated, with a note, and the schema
 * block describing the files as they are. `silent` leaves the manifest exactly as a plain one.
 */
export function driftManifest(m: Manifest, drift: Drift | undefined, sources: PublishedSources, asOf: string): Manifest {
  if (!drift || drift === 'silent') return m;
  const version = SCHEMA_VERSION + 1;
  const out: Manifest = structuredClone(m);
  out.schema_version = version;
  out.schema_changed = asOf;
  out.schema_notes = [...m.schema_notes, `Version ${version}: ${NOTES[drift]}`];
  const full = out.schema.full_history_files;
  const latest = out.schema.latest_snapshot_files;
  if (drift === 'rename') {
    latest.columns = Object.fromEntries(Object.entries(latest.columns).map(([k, v]) => [k === RENAMED.from ? RENAMED.to : k, v]));
  } else if (drift === 'retype') {
    full.columns.nav = 'number: DOUBLE in parquet, plain float in CSV/TSV, REAL in SQLite';
  } else {
    full.columns = Object.fromEntries(
      sources.navColumns.map((c) => [c, full.columns[c] ?? `string: the scheme's ${c}, as in the latest snapshot's scheme_${c}`]),
    );
    full.notes = full.notes.map((n) => n.replace(/^Exactly \d+ columns/, `Exactly ${sources.navColumns.length} columns`));
  }
  return out;
}

function quote(c: string): string {
  return `"${c.replaceAll('"', '""')}"`;
}
