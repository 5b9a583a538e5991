import type { Engine } from '../engine/engine.js';
import { SERVICES, type Service } from '../sync/datasets.js';
import { sqlString, type AttachHost, type DatabaseHost } from '../sync/host.js';
import { UserData } from './user.js';
import { writeChangeTables } from '../changes/tables.js';
import { newGeneration } from '../engine/generation.js';
import { baseAlias, DELTA_TABLE } from '../sync/refresh/overlay.js';
import { fileState, type DatasetState, type StateStore, type StoreState } from '../sync/metadata.js';
import type { DriftNotice } from '../sync/drift.js';
import type { HistoryRefresh } from '../sync/progress.js';
import type { Storage } from '../storage/storage.js';

/** One row of sync metadata per dataset: what `status`, the UI and /flags/v1/freshness show. */
export interface DatasetStatus {
  dataset: Service;
  generation: number;
  etag: string | null;
  rows: number;
  bytes: number;
  last_sync: string;
  generated_at: string | null;
  source_url: string;
  tables: Record<string, { rows: number; file: string; columns: { name: string; type: string }[] }>;
  files: { name: string; etag: string | null; bytes: number; fetched_at: string }[];
  errors: string[];
  /** The publisher's schema version at the last sync, with its date and notes (null: unversioned). */
  schema_version: number | null;
  schema_changed: string | null;
  schema_notes: string[];
  /** The version the local tables hold; lower than the publisher's while a drifted file is refused. */
  local_schema_version: number | null;
  /** Each schema difference met, accepted or refused, and since when (docs/sync.md, "Schema drift"). */
  drift: DriftNotice[];
  /** MF: when the NAV history was last downloaded whole, the refreshes taken in since, and the last change in words. */
  history: { verified_at: string; refreshes: number; refresh: HistoryRefresh; detail: string } | null;
}

export function statusOf(d: DatasetState): DatasetStatus {
  return {
    dataset: d.service,
    generation: d.generation,
    etag: d.manifest_etag,
    rows: d.rows,
    bytes: d.bytes,
    last_sync: d.last_sync,
    generated_at: d.generated_at,
    source_url: d.source_url,
    tables: Object.fromEntries(Object.entries(d.tables).map(([t, { rows, file, columns }]) => [t, { rows, file, columns }])),
    files: Object.values(d.sources).map((s) => ({ name: s.file, etag: s.etag, bytes: s.bytes, fetched_at: s.fetched_at })),
    errors: d.errors,
    schema_version: d.schema_version,
    schema_changed: d.schema_changed ?? null,
    schema_notes: d.schema_notes ?? [],
    local_schema_version: d.local_schema_version === undefined ? d.schema_version : d.local_schema_version,
    drift: d.drift ?? [],
    history: d.history ? { verified_at: d.history.verified_at, refreshes: d.history.deltas.length, refresh: d.history.refresh, detail: d.history.detail } : null,
  };
}

/**
 * The local databases as one Engine: each dataset's current generation ATTACHed under its service's
 * schema (`SELECT * FROM mf.nav`), plus `main.sync_status` with the sync metadata and the kept changes
 * as tables of schema `almanac` (src/core/changes/tables.ts).
 */
export class Store {
  /** Store file attached under each alias: a service's schema, and `<service>_base` for a refreshed history. */
  private attached = new Map<string, string>();
  /** The user's own tables (schema `user`), once opened with openUser(). */
  user: UserData | null = null;

  constructor(
    readonly engine: Engine,
    readonly storage: Storage,
    private readonly host: AttachHost,
    /** Where the sync metadata lives (Node: `state.json` in the store; browser: IndexedDB). */
    readonly stateStore: StateStore = fileState(storage),
  ) {}

  async state(): Promise<StoreState> {
    return this.stateStore.read();
  }

  /** Sync metadata per dataset present. */
  async status(): Promise<DatasetStatus[]> {
    const s = await this.state();
    return SERVICES.flatMap((svc) => (s.datasets[svc] ? [statusOf(s.datasets[svc]!)] : []));
  }

  /** The state main.sync_status was last written from, as JSON: a refresh that finds it again does nothing. */
  private written: string | null = null;

  /**
   * The sync metadata the attached files were read from, as JSON: the data generation the engine
   * answers from (null while it switches). An answer computed with the same value before and after
   * stays exact for as long as the metadata stands (the app's AnswerCache).
   */
  get generation(): string | null {
    return this.written;
  }

  /**
   * Re-reads the state and swaps every schema whose generation changed (after a sync or a delete). A
   * refreshed MF history's view (`mf.nav`) reads the base generation's table, attached as `mf_base`
   * before `mf` and let go of after it. The local server calls this every 2 s: when the state is as
   * last written, nothing is rewritten, so the answers cached for this generation
   * (engine/generation.ts) stand; any change drops them, before the switch and again after it (an
   * answer computed while switching could mix the two). Then the kept changes' tables (schema
   * `almanac`), rebuilt when their files changed: a sync writes them after its last switch.
   */
  async refresh(): Promise<void> {
    await this.attachState();
    this.changesSeen = await writeChangeTables(this.engine, this.storage, this.changesSeen);
  }

  /** What writeChangeTables last read the kept changes' files as. */
  private changesSeen: string | null = null;

  private async attachState(): Promise<void> {
    const s = await this.state();
    const json = JSON.stringify(s);
    if (json === this.written) return;
    this.written = null;
    newGeneration(this.engine);
    const want = new Map<string, string>();
    for (const svc of SERVICES) {
      const d = s.datasets[svc];
      if (d?.history?.base) want.set(baseAlias(svc), d.history.base);
      if (d) want.set(svc, d.database);
    }
    // The schemas first, then the bases they read; attached the other way round.
    const order = [...SERVICES, ...SERVICES.map(baseAlias)];
    for (const alias of order) {
      const have = this.attached.get(alias);
      if (!have || want.get(alias) === have) continue;
      // eslint-disable-next-line sql/no-interpolated-sql -- the alias is a service name or its _base (SERVICES, baseAlias)
      await this.engine.exec(`DETACH ${alias}`);
      await this.host.forget(this.engine, have);
      this.attached.delete(alias);
    }
    for (const alias of order.reverse()) {
      const file = want.get(alias);
      if (!file || this.attached.has(alias)) continue;
      // eslint-disable-next-line sql/no-interpolated-sql -- the alias is a service name or its _base (SERVICES, baseAlias)
      await this.engine.exec(`ATTACH ${sqlString(await this.host.attachPath(this.engine, file))} AS ${alias}`);
      this.attached.set(alias, file);
    }
    await this.writeStatusTable(s);
    const generatedAt = new Map(SERVICES.flatMap((svc) => (s.datasets[svc] ? [[svc, s.datasets[svc]!.generated_at] as const] : [])));
    const overlaid = new Map(
      SERVICES.flatMap((svc) => (s.datasets[svc]?.history?.base ? [[svc, { base: `${baseAlias(svc)}.main.nav`, delta: `${svc}.main.${DELTA_TABLE}` }] as const] : [])),
    );
    newGeneration(this.engine, { generatedAt, overlaid });
    this.written = json;
  }

  /** Notes and drift notices are JSON text: DuckDB-WASM has no json extension offline; readers parse them. */
  private async writeStatusTable(s: StoreState) {
    await this.engine.exec(
      'CREATE OR REPLACE TABLE main.sync_status (dataset VARCHAR, generation INTEGER, etag VARCHAR, "rows" BIGINT, bytes BIGINT, last_sync TIMESTAMP, generated_at VARCHAR, source_url VARCHAR, ' +
        'schema_version INTEGER, local_schema_version INTEGER, schema_changed VARCHAR, schema_notes VARCHAR, drift VARCHAR)',
    );
    for (const svc of SERVICES) {
      const d = s.datasets[svc];
      if (!d) continue;
      const st = statusOf(d);
      await this.engine.all('INSERT INTO main.sync_status VALUES (?, ?, ?, ?, ?, ?::TIMESTAMP, ?, ?, ?, ?, ?, ?, ?)', [
        svc, d.generation, d.manifest_etag, d.rows, d.bytes, d.last_sync.replace('Z', ''), d.generated_at, d.source_url,
        st.schema_version, st.local_schema_version, st.schema_changed, JSON.stringify(st.schema_notes), JSON.stringify(st.drift),
      ]);
    }
  }

  /** Attaches schema `user` (imported prices, AMFI files) from its current file generation. */
  async openUser(host: DatabaseHost & AttachHost): Promise<UserData> {
    this.user ??= await UserData.open(this.engine, this.storage, host);
    return this.user;
  }

  async close(): Promise<void> {
    await this.engine.close();
  }
}
