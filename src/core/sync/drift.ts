import { splitFileName } from '../contract/files.js';
import { tableOfStem, type ServiceDef } from './datasets.js';
import { sqlString } from './host.js';

/**
 * Schema drift: how a publisher's file differs from the contract, what the ingest did about it, and
 * the notice the user is shown (docs/sync.md, "Schema drift"). The ingest reports each difference as
 * a SchemaChange; a refused one is a SchemaRefused error (or, for a value found while loading, an error
 * raised inside the statement) whose message this module writes and reads back.
 */
export type ChangeKind = 'renamed' | 'added' | 'retyped' | 'missing';

export interface SchemaChange {
  change: ChangeKind;
  /** The contract's column (`added`: the file's own name). */
  column: string;
  /** `renamed`: the file's name for it; `retyped`: the file's type; `added`: its type. */
  from?: string;
  /** `retyped`: the contract's type. */
  to?: string;
  /** `missing`: whether the contract requires it (then the file is refused). */
  required?: boolean;
}

/** A file refused for its schema: a required column missing, or a type that loses values. */
export class SchemaRefused extends Error {
  constructor(
    readonly file: string,
    readonly schemaChange: SchemaChange,
    why?: string,
  ) {
    super(
      schemaChange.change === 'missing'
        ? `${file}: required column "${schemaChange.column}" is missing`
        : `${file}: column "${schemaChange.column}" is ${schemaChange.from}, which cannot hold ${schemaChange.to} values without loss (${why})`,
    );
  }
}

const MISSING = /([A-Za-z0-9_.-]+): required column "(.*)" is missing/;
const LOSSY_TYPE = /([A-Za-z0-9_.-]+): column "(.*)" is (.+), which cannot hold (.+) values without loss/;
const LOSSY_VALUE = /([A-Za-z0-9_.-]+): column "(.*)" is (.+); value .* does not convert to (.+) exactly/s;

/**
 * The expression that converts `src` (a quoted identifier) of type `from` to `to` for a `checked`
 * conversion: each value must come back unchanged from the contract type, else the statement fails with
 * a message naming the file, the column and the value (read back by `refusalIn`).
 */
export function checkedCast(src: string, column: string, from: string, to: string, file: string): string {
  const msg = (v: string) => `${sqlString(`${file}: column "${column}" is ${from}; value `)} || ${v} || ${sqlString(` does not convert to ${to} exactly`)}`;
  return `CASE WHEN ${src} IS NULL OR TRY_CAST(TRY_CAST(${src} AS ${to}) AS ${from}) = ${src} THEN CAST(${src} AS ${to}) ` +
    `ELSE error(${msg(`left(CAST(${src} AS VARCHAR), 40)`)}) END`;
}

/** The schema refusal a sync error message reports, if it is one (DuckDB prefixes its own words). */
export function refusalIn(message: string): { file: string; change: SchemaChange; message: string } | null {
  let m = MISSING.exec(message);
  if (m) return { file: m[1], change: { change: 'missing', column: m[2], required: true }, message: m[0] };
  m = LOSSY_TYPE.exec(message) ?? LOSSY_VALUE.exec(message);
  if (m) return { file: m[1], change: { change: 'retyped', column: m[2], from: m[3], to: m[4] }, message: message.slice(m.index).split('\n')[0] };
  return null;
}

/** A refusal raised inside a statement, reworded without the engine's prefix; anything else as it came. */
export function asRefusal(e: unknown): unknown {
  const r = e instanceof Error && !(e instanceof SchemaRefused) ? refusalIn(e.message) : null;
  return r ? new Error(r.message) : e;
}

/** One schema difference the user is told about, as kept in the sync state. */
export interface DriftNotice {
  table: string;
  file: string;
  change: ChangeKind;
  column: string;
  from?: string;
  to?: string;
  status: 'accepted' | 'refused';
  /** One sentence for people: what changed and what Almanac did. */
  detail: string;
  /** The manifest's schema_version when this was first met, and whether that version was new then. */
  schema_version: number | null;
  announced: boolean;
  /** The sync that first met it, and the publisher's generated_at of that generation. */
  since: string;
  since_published: string | null;
}

export interface DriftInput {
  def: ServiceDef;
  /** The notices and versions of the dataset before this sync. */
  previous: { drift?: DriftNotice[]; schema_version: number | null; local_schema_version?: number | null } | undefined;
  /** Each table loaded now: the file it came from and how that file differed from the contract. */
  tables: Record<string, { file: string; changes?: SchemaChange[] }>;
  /** This sync's failure messages (schema refusals among them). */
  failed: readonly string[];
  manifest: { schema_version: number | null; generated_at: string | null };
  now: string;
}

/**
 * The dataset's drift notices after a sync: every difference of the loaded tables' files (accepted) and
 * every refused file, each keeping the time it was first met.
 */
export function driftNotices(input: DriftInput): DriftNotice[] {
  const { def, previous, manifest, now } = input;
  const known = previous ? previous.schema_version : def.schemaVersion;
  const version = manifest.schema_version;
  const announced = version !== null && (known === null || version > known);
  const before = new Map((previous?.drift ?? []).map((n) => [key(n), n]));
  const out: DriftNotice[] = [];
  const add = (table: string, file: string, c: SchemaChange, status: DriftNotice['status']) => {
    const fresh: DriftNotice = {
      table, file, change: c.change, column: c.column, ...(c.from ? { from: c.from } : {}), ...(c.to ? { to: c.to } : {}),
      status, detail: '', schema_version: version, announced, since: now, since_published: manifest.generated_at,
    };
    const old = before.get(key(fresh));
    const n = old ? { ...fresh, schema_version: old.schema_version, announced: old.announced, since: old.since, since_published: old.since_published } : fresh;
    n.detail = describe(n, def);
    out.push(n);
  };
  for (const [table, t] of Object.entries(input.tables)) for (const c of t.changes ?? []) add(table, t.file, c, 'accepted');
  for (const msg of input.failed) {
    const r = refusalIn(msg);
    if (r) add(tableOfStem(def, splitFileName(r.file).stem) ?? splitFileName(r.file).stem, r.file, r.change, 'refused');
  }
  return out;
}

/** The schema version the local tables hold: the publisher's, unless a file of it was refused. */
export function localSchemaVersion(input: DriftInput, notices: DriftNotice[]): number | null {
  const refused = notices.some((n) => n.status === 'refused');
  if (!refused) return input.manifest.schema_version;
  return input.previous ? (input.previous.local_schema_version ?? input.previous.schema_version) : input.def.schemaVersion;
}

function key(n: Pick<DriftNotice, 'table' | 'change' | 'column' | 'status'>): string {
  return `${n.table}\0${n.change}\0${n.column}\0${n.status}`;
}

function describe(n: DriftNotice, def: ServiceDef): string {
  const where = `${def.service}.${n.table}`;
  const what = ((): string => {
    switch (n.change) {
      case 'renamed':
        return `column ${n.from} arrived under its old name and was read as ${n.column} (a known rename)`;
      case 'added':
        return `new column ${n.column} (${n.from}) is kept in ${where}; the services ignore it`;
      case 'retyped':
        return n.status === 'accepted'
          ? `column ${n.column} is ${n.from} instead of ${n.to}; every value converted exactly`
          : `column ${n.column} is ${n.from} instead of ${n.to} and would lose values; the previous copy of ${where} keeps answering`;
      case 'missing':
        return n.status === 'accepted'
          ? `optional column ${n.column} is missing; it reads as NULL`
          : `required column ${n.column} is missing; the previous copy of ${where} keeps answering`;
    }
  })();
  const version = n.schema_version === null ? '' : n.announced
    ? ` (announced: schema version ${n.schema_version})`
    : ` (not announced: the manifest still says schema version ${n.schema_version})`;
  return `${n.file}: ${what}${version}.`;
}
