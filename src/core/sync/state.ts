import type { Storage } from '../storage/storage.js';
import type { FormatChoice, Service } from './datasets.js';
import type { Column } from './ingest.js';
import type { DriftNotice, SchemaChange } from './drift.js';

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
}

export interface StoreState {
  version: 1;
  datasets: Partial<Record<Service, DatasetState>>;
  /** The user's format choice per dataset; absent = auto. */
  choices: Partial<Record<Service, FormatChoice>>;
}

/** The one small file whose atomic replacement IS the generation switch. */
export const STATE_FILE = 'state.json';

export async function readState(storage: Storage): Promise<StoreState> {
  const text = await storage.readText(STATE_FILE);
  if (!text) return { version: 1, datasets: {}, choices: {} };
  const s = JSON.parse(text) as StoreState;
  if (s.version !== 1) throw new Error(`${STATE_FILE}: unknown version ${String(s.version)}`);
  return { version: 1, datasets: s.datasets ?? {}, choices: s.choices ?? {} };
}

export async function writeState(storage: Storage, state: StoreState): Promise<void> {
  await storage.writeTextAtomic(STATE_FILE, JSON.stringify(state, null, 1));
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
export async function setChoice(storage: Storage, service: Service, choice: FormatChoice): Promise<void> {
  const s = await readState(storage);
  await writeState(storage, { ...s, choices: { ...s.choices, [service]: choice } });
}

/** Forgets a dataset: the state first (readers stop seeing it), then its files. */
export async function deleteDataset(storage: Storage, service: Service): Promise<void> {
  const s = await readState(storage);
  const { [service]: _gone, ...datasets } = s.datasets;
  await writeState(storage, { ...s, datasets });
  for (const name of await storage.list()) if (files.belongsTo(service, name)) await storage.remove(name);
}
