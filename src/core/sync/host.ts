import type { Table } from 'apache-arrow';
import type { Engine } from '../engine/engine.js';
import type { RowGroups } from './row-groups.js';

/**
 * What the sync engine needs from the environment to build database files. Node (database/node.ts)
 * and the browser worker (database/browser.ts) each implement it over their Storage.
 */
export interface DatabaseHost {
  /** An engine whose main database is the NEW store file `name` (created now, written, closed). */
  createDatabase(name: string): Promise<Engine>;
  /** An engine with an in-memory main database, for reading a downloaded file. */
  scratch(): Promise<Engine>;
  /** Makes store file `name` readable by SQL in `engine`; returns the string to quote in read_csv/ATTACH. */
  sqlPath(engine: Engine, name: string): Promise<string>;
  /**
   * A query result of this host's engines as an Arrow IPC stream. In Node the blocking bundle returns
   * tables of apache-arrow's CommonJS build, which the ESM build's tableToIPC silently writes as 0 bytes.
   */
  toIPC(table: Table): Uint8Array;
  /**
   * Store file `name`, a parquet file, read row group by row group. Decoded where it overlaps best with
   * the engine's inserts: in the browser here (DuckDB has its own worker), in Node in a worker thread.
   */
  rowGroups(name: string): Promise<RowGroups>;
  /** Closes `engine` and lets go of every file it opened (the browser drops its OPFS handles). */
  release(engine: Engine): Promise<void>;
}

/** How an environment makes a store file attachable (Node: a path; browser: a registered OPFS name). */
export interface AttachHost {
  attachPath(engine: Engine, name: string): Promise<string>;
  /** After DETACH: let go of the file so it can be removed or attached again. */
  forget(engine: Engine, name: string): Promise<void>;
}

/** A string literal for SQL; paths come from the store (checked names), never from the network. */
export function sqlString(s: string): string {
  if (s.includes('\0')) throw new Error('NUL in SQL string');
  return `'${s.replaceAll("'", "''")}'`;
}
