/**
 * The kept changes and the revisions table as SQL (schema `almanac` of the store's in-memory
 * database, beside `main.sync_status`), so the SQL workbench, `npm run cli -- sql` and agents can
 * ask them like any data: `SELECT * FROM almanac.revisions WHERE indicator_id = ?`.
 *
 * The JSON files (changes.json, revisions.json) stay the truth: these tables are copies, rebuilt when
 * the files changed (Store.refresh), so a statement that alters them alters nothing kept. Every value
 * is checked for its type, then bound as a parameter, never written into SQL text: what does not fit
 * (a hand-edited file) becomes NULL rather than a failed store open.
 */
import type { Engine, Param } from '../engine/engine.js';
import type { Storage } from '../storage/storage.js';
import { isIsoDate } from '../contract/dates.js';
import { CHANGES_FILE, readLog, readRevisions, REVISIONS_FILE, type RevisionRow } from './log.js';
import type { KeptChanges } from './shape.js';

export const CHANGES_SCHEMA = 'almanac';

type Kind = 'text' | 'date' | 'time' | 'num' | 'int';

/** Each table's columns: the SQL type a JSON value is checked for and cast to. */
const SQL_TYPE: Record<Kind, string> = { text: 'VARCHAR', date: 'DATE', time: 'TIMESTAMP', num: 'DOUBLE', int: 'BIGINT' };
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

function checked(kind: Kind, v: unknown): string | number | null {
  switch (kind) {
    case 'text':
      return typeof v === 'string' ? v : null;
    case 'date':
      return typeof v === 'string' && isIsoDate(v) ? v : null;
    case 'time':
      // TIMESTAMP is UTC without a zone, as main.sync_status keeps last_sync.
      return typeof v === 'string' && TIME.test(v) && !Number.isNaN(Date.parse(v)) ? v.slice(0, -1) : null;
    case 'num':
      return typeof v === 'number' && Number.isFinite(v) ? v : null;
    case 'int':
      return typeof v === 'number' && Number.isSafeInteger(v) ? v : null;
  }
}

type Rows = Array<Record<string, unknown>>;

interface TableDef {
  name: string;
  columns: Array<[name: string, kind: Kind]>;
  rows: (files: Files) => Rows;
}

interface Files {
  log: KeptChanges[];
  revisions: RevisionRow[];
}

/** One kept sync's watched items, each as a row: what `changes` lists, one sync per `synced_at`. */
function changeRows(log: KeptChanges[]): Rows {
  return log.flatMap((r) => {
    const synced_at = r.to.synced_at;
    return [
      ...r.watched.schemes.map((s) => ({
        synced_at, kind: 'scheme', id: String(s.scheme_code), new_rows: s.new_navs, revised: s.revised_navs,
        last_date: s.last_date, last_nav: s.last_nav, change_pct: s.change_pct,
      })),
      ...r.watched.companies.map((c) => ({
        synced_at, kind: 'company', id: c.symbol, new_rows: Object.values(c.new_rows).reduce((n, x) => n + x, 0),
        score_before: c.score_before, score_after: c.score_after,
      })),
      ...r.watched.indicators.map((i) => ({ synced_at, kind: 'indicator', id: i.indicator_id, new_rows: i.new_points, revised: i.revised_points })),
    ];
  });
}

const ALMANAC_TABLES: TableDef[] = [
  {
    // The revisions table of issue 21: every indicator value a sync replaced, watched or not.
    name: 'revisions',
    columns: [['indicator_id', 'text'], ['date', 'date'], ['old', 'num'], ['new', 'num'], ['replaced_at', 'time'], ['generation', 'int']],
    rows: (f) => f.revisions as unknown as Rows,
  },
  {
    // The watched schemes' revised NAVs, as the kept syncs (the last 30) recorded them.
    name: 'nav_revisions',
    columns: [['synced_at', 'time'], ['scheme_code', 'int'], ['date', 'date'], ['old', 'num'], ['new', 'num']],
    rows: (f) => f.log.flatMap((r) => r.watched.schemes.flatMap((s) => s.revisions.map((v) => ({ synced_at: r.to.synced_at, scheme_code: s.scheme_code, ...v })))),
  },
  {
    // Per kept sync, each watched item it changed. `new_rows`: new NAVs, red-flag rows (all tables) or points.
    name: 'changes',
    columns: [
      ['synced_at', 'time'], ['kind', 'text'], ['id', 'text'], ['new_rows', 'int'], ['revised', 'int'],
      ['last_date', 'date'], ['last_nav', 'num'], ['change_pct', 'num'], ['score_before', 'num'], ['score_after', 'num'],
    ],
    rows: (f) => changeRows(f.log),
  },
];

/** Rows per INSERT: each value a bound parameter, a few hundred per statement. */
const BATCH = 100;

async function writeTable(engine: Engine, def: TableDef, rows: Rows): Promise<void> {
  const target = `${CHANGES_SCHEMA}.${def.name}`;
  const cols = def.columns.map(([n, k]) => `"${n}" ${SQL_TYPE[k]}`).join(', ');
  // eslint-disable-next-line sql/no-interpolated-sql -- names and types from the constant ALMANAC_TABLES, never from the files
  await engine.exec(`CREATE OR REPLACE TABLE ${target} (${cols})`);
  const tuple = `(${def.columns.map(([, k]) => `CAST(? AS ${SQL_TYPE[k]})`).join(', ')})`;
  for (let i = 0; i < rows.length; i += BATCH) {
    const part = rows.slice(i, i + BATCH);
    const params: Param[] = part.flatMap((r) => def.columns.map(([n, k]) => checked(k, r[n])));
    // eslint-disable-next-line sql/no-interpolated-sql -- the constant table name and `?` tuples; every value is bound
    await engine.all(`INSERT INTO ${target} VALUES ${part.map(() => tuple).join(', ')}`, params);
  }
}

/**
 * Rebuilds the tables when the files changed since `seen` (the value this returned last time);
 * returns the files' new signature. changes.json is read whole (it keeps 30 syncs); revisions.json
 * only grows, so its size tells whether it changed.
 */
export async function writeChangeTables(engine: Engine, storage: Storage, seen: string | null): Promise<string> {
  const signature = `${(await storage.readText(CHANGES_FILE)) ?? ''}\n${(await storage.size(REVISIONS_FILE)) ?? -1}`;
  if (signature === seen) return signature;
  let rows: Rows[] = ALMANAC_TABLES.map(() => []);
  try {
    const files = { log: await readLog(storage), revisions: await readRevisions(storage) };
    rows = ALMANAC_TABLES.map((def) => def.rows(files));
  } catch (e) {
    // A damaged file leaves the tables empty rather than the store unopened; `changes` reports it when asked.
    console.warn(`the kept changes could not be read for SQL: ${(e as Error).message}`);
  }
  await engine.exec(`CREATE SCHEMA IF NOT EXISTS ${CHANGES_SCHEMA}`);
  for (const [i, def] of ALMANAC_TABLES.entries()) await writeTable(engine, def, rows[i]);
  return signature;
}
