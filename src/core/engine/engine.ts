import type { Table } from 'apache-arrow';

/** A value bound to a `?` placeholder. User input reaches SQL only this way. */
export type Param = string | number | boolean | null | bigint;
export type Row = Record<string, unknown>;

/**
 * The one query interface every front door uses. Two hosts implement it: Node (blocking
 * DuckDB-WASM in-process) and the browser (AsyncDuckDB in a Web Worker). Services never know which.
 */
export interface Engine {
  /** Plain rows: DECIMAL scaled exactly, BIGINT as number where safe, DATE as YYYY-MM-DD. */
  all<T = Row>(sql: string, params?: Param[]): Promise<T[]>;
  /**
   * The same plain values as `all`, column by column in select-list order: for long results read
   * straight into a response's own shape, with no object per row in between.
   */
  columns(sql: string, params?: Param[]): Promise<unknown[][]>;
  /** The result as an Arrow table, untouched (for the SQL workbench and bulk transfer). */
  arrow(sql: string, params?: Param[]): Promise<Table>;
  /** Runs one or more statements without results. */
  exec(sql: string): Promise<void>;
  /** Appends (or creates, when `create`) `table` from one Arrow IPC stream. */
  insertArrowIPC(ipc: Uint8Array, table: { schema?: string; name: string; create: boolean }): Promise<void>;
  /** Registers a local file so SQL can read it by `name` (read_csv, ATTACH). */
  registerFile(name: string, path: string): Promise<void>;
  /** Interrupts the running query, where the host can (the browser's worker); true if one was stopped. */
  cancel?(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * DuckDB-WASM reports a failed Arrow insert (e.g. a value that does not cast to the table's column) as
 * the exception's JSON rather than its message; callers show messages to people.
 */
export function readableError(e: unknown): unknown {
  if (!(e instanceof Error) || !e.message.startsWith('{')) return e;
  try {
    const x = JSON.parse(e.message) as { exception_type?: unknown; exception_message?: unknown };
    if (typeof x.exception_message === 'string') return new Error(`${String(x.exception_type ?? 'DuckDB')} Error: ${x.exception_message}`);
  } catch {
    // not JSON after all: the message stands as it is
  }
  return e;
}

/** First statements on every connection: never reach for the network (see docs/storage.md). */
export const OFFLINE_SETTINGS =
  'SET autoinstall_known_extensions=false; SET autoload_known_extensions=false;';
