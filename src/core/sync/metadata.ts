import type { Storage } from '../storage/storage.js';
import type { FormatChoice, Service } from './datasets.js';
import type { Column } from './ingest.js';
import type { DriftNotice, SchemaChange } from './drift.js';
import type { HistoryRefresh } from './progress.js';

/** A downloaded file the current generation was built from (kept so the next build can reuse it). */
export interface SourceState {
  file: string;
  suffix: string;
  /** Store file holding its bytes. */
  store: string;
  etag: string | null;
  bytes: number;
  tables: string[] | null;
  rows: number | null;
  fetched_at: string;
}

export interface TableState {
  rows: number;
  file: string;
  /** The schema actually loaded (contract columns, then any extra the file carried). */
  columns: Column[];
  /** How its file differed from the contract (absent in states written before drift was recorded). */
  changes?: SchemaChange[];
}

/** Sync metadata of one dataset: what `status`, /flags/v1/freshness and the UI read. */
export interface DatasetState {
  service: Service;
  generation: number;
  /** Store file of the current database. */
  database: string;
  source_url: string;
  /** Set only when every planned file arrived, so a 304 on the manifest means nothing to do. */
  manifest_etag: string | null;
  generated_at: string | null;
  /** The publisher's schema version (manifest) at the last sync, its date and its notes. */
  schema_version: number | null;
  schema_changed?: string | null;
  schema_notes?: string[];
  /** The version the local tables hold: the publisher's, unless a file of it was refused. */
  local_schema_version?: number | null;
  /** Schema drift met by the syncs: each difference from the contract, accepted or refused, since when. */
  drift?: DriftNotice[];
  sources: Record<string, SourceState>;
  tables: Record<string, TableState>;
  rows: number;
  bytes: number;
  last_sync: string;
  /** Files that failed in the last sync (their tables answer from the previous copy, if any). */
  errors: string[];
  /** MF: how the local history stands to the publish (docs/sync.md, "The history, refreshed by what changed"). */
  history?: HistoryState;
}

/** One publish's rows the history took without its file: a write-once Arrow IPC store file. */
export interface DeltaState {
  store: string;
  rows: number;
}

/**
 * The MF history (`mf.nav`) as built: the `nav` table of `base` (a generation built from the whole
 * file) plus the rows of `deltas`, read through the view `nav` of the current database. With no base,
 * `nav` is a plain table of the current database (built from the whole file this time).
 */
export interface HistoryState {
  /** Manifest name of the history file and the ETag of the publish the local rows equal. */
  file: string;
  etag: string | null;
  /** Store file with that publish's parquet footer (what a rebuild is told apart by). */
  footer: string;
  /** Store file of the snapshot (`latest`) of that same publish: each scheme's last local date. */
  snapshot: string | null;
  base: string | null;
  base_rows: number;
  deltas: DeltaState[];
  /** When the history was last downloaded whole and rebuilt (full verification). */
  verified_at: string;
  /** How the last change arrived, and in words. */
  refresh: HistoryRefresh;
  detail: string;
}

export interface StoreState {
  version: 1;
  datasets: Partial<Record<Service, DatasetState>>;
  /** The user's format choice per dataset; absent = auto. */
  choices: Partial<Record<Service, FormatChoice>>;
}

/**
 * Where the sync metadata lives. Replacing it in one atomic step IS the generation switch: readers
 * see whatever it names, never a half-built generation. Node keeps `state.json` (write temp + rename,
 * fileState); the browser keeps it in IndexedDB (idbState, one put in one transaction).
 */
export interface StateStore {
  read(): Promise<StoreState>;
  /** Applies `change` to the current state and stores the result in one atomic step. */
  update(change: (s: StoreState) => StoreState): Promise<StoreState>;
}

/** The state file of a store directory (Node) or a memory store (tests). */
export const STATE_FILE = 'state.json';

/** Checks what was stored; an absent state is an empty store. */
export function normalizeState(s: StoreState | null | undefined): StoreState {
  if (!s) return { version: 1, datasets: {}, choices: {} };
  if (s.version !== 1) throw new Error(`sync state: unknown version ${String(s.version)}`);
  return { version: 1, datasets: s.datasets ?? {}, choices: s.choices ?? {} };
}

/** The state as `state.json` in `storage`, replaced by write-temp-then-rename. */
export function fileState(storage: Storage): StateStore {
  const read = async () => {
    const text = await storage.readText(STATE_FILE);
    return normalizeState(text ? (JSON.parse(text) as StoreState) : null);
  };
  return {
    read,
    async update(change) {
      const next = change(await read());
      await storage.writeTextAtomic(STATE_FILE, JSON.stringify(next, null, 1));
      return next;
    },
  };
}

/** The state of a store directory (CLI, tests): `fileState(storage).read()`. */
export function readState(storage: Storage): Promise<StoreState> {
  return fileState(storage).read();
}

/** Store files of one dataset: databases, kept sources, partial downloads, scratch. */
export const files = {
  database: (s: Service, generation: number) => `${s}-g${generation}.duckdb`,
  source: (s: Service, generation: number, file: string) => `src~${s}~g${generation}~${file}`,
  part: (s: Service, file: string) => `dl~${s}~${file}.part`,
  scratch: (s: Service) => `tmp~${s}~`,
  belongsTo: (s: Service, name: string) =>
    name.startsWith(`${s}-g`) || name.startsWith(`src~${s}~`) || name.startsWith(`dl~${s}~`) || name.startsWith(`tmp~${s}~`),
};

/** Keeps the user's format choice for a dataset; the next sync plans its files with it. */
export async function setChoice(state: StateStore, service: Service, choice: FormatChoice): Promise<void> {
  await state.update((s) => ({ ...s, choices: { ...s.choices, [service]: choice } }));
}

/**
 * Forgets a dataset: the state first (readers stop seeing it), then `detach` (a live store lets go
 * of the files), then its files. Run it under the store's sync lock.
 */
export async function deleteDataset(storage: Storage, state: StateStore, service: Service, detach?: () => Promise<void>): Promise<void> {
  await state.update((s) => {
    const { [service]: _gone, ...datasets } = s.datasets;
    return { ...s, datasets };
  });
  await detach?.();
  for (const name of await storage.list()) if (files.belongsTo(service, name)) await storage.remove(name);
}
