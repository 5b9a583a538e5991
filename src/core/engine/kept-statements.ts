/** A prepared statement of either DuckDB-WASM API: the blocking one closes at once, the async one when its worker answers. */
interface Closable {
  close(): unknown;
}

/** A statement that may change the catalog: DDL, ATTACH or DETACH, at the start of any of its statements. */
const CATALOG_CHANGE = /(?:^|;)\s*(?:--[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*)*(?:CREATE|DROP|ALTER|ATTACH|DETACH)\b/i;

export function changesCatalog(sql: string): boolean {
  return CATALOG_CHANGE.test(sql);
}

/**
 * Services run the same parameterised SQL again and again, and planning a large statement can cost
 * more than running it; so an engine keeps its prepared statements by their SQL, most recently used
 * last, and closes the oldest beyond `size`. One per connection: a prepared statement belongs to the
 * connection that prepared it.
 *
 * After a catalog change, DuckDB rebinds a kept statement that depends on the changed catalog: the
 * answer stays right (pinned in the tests), but it rebinds at EVERY later run, not once (DuckDB-WASM
 * 1.4.3). Compare's statement, which reads temp tables and macros, ran 2.2x slower for good after one
 * temp table was created (66 against 29 ms, demo scale), as after every sync recorded in the page.
 * So the engines report each statement they ran (`ran`), and a catalog change prepares every kept
 * statement anew, once.
 */
export class KeptStatements<S extends Closable> {
  private readonly kept = new Map<string, S>();

  /** The budget: every service's statements fit (their SQL varies only with placeholders' counts and bounds given). */
  constructor(private readonly size = 128) {}

  /** `sql`'s kept statement, prepared by `prepare` the first time. */
  async get(sql: string, prepare: (sql: string) => S | Promise<S>): Promise<S> {
    let stmt = this.kept.get(sql);
    if (stmt) this.kept.delete(sql);
    else stmt = await prepare(sql);
    this.kept.set(sql, stmt);
    if (this.kept.size > this.size) await this.forget(this.kept.keys().next().value!);
    return stmt;
  }

  /** Closes and drops `sql`'s statement: after it failed (it may be invalid now), or to make room. */
  async forget(sql: string): Promise<void> {
    const stmt = this.kept.get(sql);
    this.kept.delete(sql);
    try {
      await stmt?.close();
    } catch {
      // already invalid: nothing to release
    }
  }

  /** After `sql` ran on this connection: if it may have changed the catalog, every statement is prepared anew. */
  async ran(sql: string): Promise<void> {
    if (changesCatalog(sql)) await this.clear();
  }

  /** How many statements are kept. */
  get count(): number {
    return this.kept.size;
  }

  /** Closes every kept statement (before the connection closes, or after a catalog change). */
  async clear(): Promise<void> {
    for (const sql of [...this.kept.keys()]) await this.forget(sql);
  }
}
