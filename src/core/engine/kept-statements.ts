/** A prepared statement of either DuckDB-WASM API: the blocking one closes at once, the async one when its worker answers. */
interface Closable {
  close(): unknown;
}

/**
 * Services run the same parameterised SQL again and again, and planning a large statement can cost
 * more than running it; so an engine keeps its prepared statements by their SQL, most recently used
 * last, and closes the oldest beyond `size`. DuckDB rebinds a kept statement itself when the catalog
 * changes (a new generation ATTACHed): pinned in the tests. One per connection: a prepared statement
 * belongs to the connection that prepared it.
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

  /** Closes every kept statement (before the connection closes). */
  async clear(): Promise<void> {
    for (const sql of [...this.kept.keys()]) await this.forget(sql);
  }
}
