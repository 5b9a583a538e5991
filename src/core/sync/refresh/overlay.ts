import { tableFromArrays, tableToIPC } from 'apache-arrow';
import type { Service } from '../datasets.js';
import type { Column, IngestContext, TableLoad } from '../ingest.js';
import { quoteIdent } from '../names.js';
import type { DeltaState } from '../metadata.js';
import type { SchemaChange } from '../drift.js';
import type { NavKey } from '../progress.js';
import type { GapRow } from './gaps.js';

/** Alias under which a store attaches the database holding the history's base rows (`mf_base`). */
export const baseAlias = (service: Service) => `${service}_base`;

/** The table of a generation holding every row taken in since the base: internal, hidden from listings. */
export const DELTA_TABLE = '_nav_delta';

/** This publish's new rows: keys the snapshot carries (its NAV, name and ISIN) and days the endpoint gave. */
export interface FreshRows {
  /** Store file the rows are written to (write-once), as a delta of this generation. */
  store: string;
  appended: NavKey[];
  gaps: GapRow[];
}

/** How the builder makes `nav` without the history file: the base's table plus the deltas, as a view. */
export interface Overlay {
  /** Manifest name of the history file whose table this replaces in the build. */
  file: string;
  load(ctx: IngestContext, loaded: Readonly<Record<string, TableLoad>>): Promise<TableLoad[]>;
}

export interface OverlaySpec {
  service: Service;
  file: string;
  /** The base's `nav` columns (as loaded from the file it was built from). */
  columns: Column[];
  changes: SchemaChange[];
  base_rows: number;
  /** Deltas of earlier publishes, oldest first, and this publish's rows (if any). */
  deltas: DeltaState[];
  fresh: FreshRows | null;
  /** Rows `nav` must hold: the manifest's row_count. */
  expect: number;
  /** Called with the delta written for this publish. */
  onDelta(d: DeltaState): Promise<void>;
}

const WANT = '_almanac_want';
const NEW = '_almanac_new';
const ALL = '_almanac_all';
const ONE = '_almanac_delta';

/**
 * Loads `nav` as a view over the base generation's table (attached by the store as `<service>_base`)
 * and the deltas. Nothing here opens an existing database: the builder may not (docs/storage.md,
 * hazard 2); the deltas are Arrow IPC files and the base is stood in for by an empty in-memory table
 * of its columns while the view is defined.
 */
export function overlay(spec: OverlaySpec): Overlay {
  return {
    file: spec.file,
    async load(ctx, loaded) {
      const { engine } = ctx;
      const defs = spec.columns.map((c) => `${quoteIdent(c.name)} ${c.type}`).join(', ');
      const deltas = [...spec.deltas];
      if (spec.fresh) deltas.push(await writeFresh(ctx, spec, spec.fresh, loaded));
      // eslint-disable-next-line sql/no-interpolated-sql -- defs: quoted column names with the contract's types
      await engine.exec(`CREATE TABLE ${ALL} (${defs})`);
      for (const d of deltas) {
        const bytes = new Uint8Array(await (await ctx.storage.blob(d.store)).arrayBuffer());
        await engine.insertArrowIPC(bytes, { name: ONE, create: true });
        await engine.exec(`INSERT INTO ${ALL} BY NAME SELECT * FROM ${ONE}; DROP TABLE ${ONE}`);
      }
      // Deltas only add keys the base lacks (a revision comes whole), so a key twice shows in the count below.
      await engine.exec(`CREATE TABLE ${DELTA_TABLE} AS SELECT * FROM ${ALL} ORDER BY scheme_code, "date"; DROP TABLE ${ALL}`);
      const alias = baseAlias(spec.service);
      // eslint-disable-next-line sql/no-interpolated-sql -- alias: baseAlias() of a service name; defs: quoted columns, the contract's types
      await engine.exec(`ATTACH ':memory:' AS ${alias}; CREATE TABLE ${alias}.main.nav (${defs})`);
      // eslint-disable-next-line sql/no-interpolated-sql -- alias: baseAlias() of a service name
      await engine.exec(`CREATE VIEW nav AS SELECT * FROM ${alias}.main.nav UNION ALL SELECT * FROM ${DELTA_TABLE}; DETACH ${alias}`);
      const [{ n }] = await engine.all<{ n: number }>(`SELECT count(*) AS n FROM ${DELTA_TABLE}`);
      const rows = spec.base_rows + n;
      if (rows !== spec.expect) throw new Error(`${spec.file}: ${rows} rows after the refresh, the manifest announces ${spec.expect}`);
      return [{ table: 'nav', file: spec.file, rows, columns: spec.columns, changes: spec.changes }];
    },
  };
}

/**
 * This publish's rows, from the snapshot table just loaded (NAV, name and ISIN of the key it carries)
 * and the endpoint's days (their NAVs; name and ISIN of the scheme's snapshot line), written as a
 * new delta file.
 */
async function writeFresh(ctx: IngestContext, spec: OverlaySpec, fresh: FreshRows, loaded: Readonly<Record<string, TableLoad>>): Promise<DeltaState> {
  const { engine } = ctx;
  if (!loaded.latest) throw new Error(`${spec.file}: the snapshot did not load, so the new days cannot be taken from it`);
  const want = [...fresh.appended.map((k) => ({ ...k, nav: null as string | null })), ...fresh.gaps];
  const ipc = tableToIPC(
    tableFromArrays({
      scheme_code: Int32Array.from(want, (w) => w.scheme_code),
      date: want.map((w) => w.date),
      nav: want.map((w) => w.nav),
    }),
    'stream',
  );
  await engine.insertArrowIPC(ipc, { name: WANT, create: true });
  await engine.exec(
    `CREATE TABLE ${NEW} AS SELECT w.scheme_code, CAST(w."date" AS DATE) AS "date", ` +
      `coalesce(CAST(w.nav AS DECIMAL(18,4)), l.nav) AS nav, l.scheme_name, l.isin ` +
      `FROM ${WANT} w JOIN latest l USING (scheme_code) WHERE w.nav IS NOT NULL OR l.nav_date = CAST(w."date" AS DATE) ` +
      `ORDER BY scheme_code, "date"; DROP TABLE ${WANT}`,
  );
  const [{ n }] = await engine.all<{ n: number }>(`SELECT count(*) AS n FROM ${NEW}`);
  if (n !== want.length) throw new Error(`${spec.file}: ${n} of the ${want.length} new rows found in the snapshot`);
  const bytes = ctx.host.toIPC(await engine.arrow(`SELECT * FROM ${NEW}`));
  await engine.exec(`DROP TABLE ${NEW}`);
  const w = await ctx.storage.openWriter(fresh.store, 0);
  try {
    await w.write(bytes);
  } finally {
    await w.close();
  }
  const d: DeltaState = { store: fresh.store, rows: n };
  await spec.onDelta(d);
  return d;
}
