import type { Engine } from '../engine/engine.js';
import type { Storage } from '../storage/storage.js';
import { sqlString, type AttachHost, type DatabaseHost } from '../sync/host.js';
import { quoteIdent } from '../sync/names.js';

/** Pointer to the current user database file; replacing it atomically is the switch. */
export const USER_STATE_FILE = 'user-state.json';

interface UserState {
  generation: number;
  database: string;
}

/**
 * The user's own data (imported prices, AMFI files) as schema `user`. DuckDB-WASM cannot safely write
 * an existing database file in Node (writes to an attached file were lost on reopen; direct I/O on an
 * existing file wipes it: docs/storage.md), so `user` is an in-memory working copy, and every change is
 * persisted by writing a NEW file generation and switching a pointer to it — the same never-half-written
 * rule the sync follows. User data is small; the copy costs little.
 */
export class UserData {
  private constructor(
    private readonly engine: Engine,
    private readonly storage: Storage,
    private readonly host: DatabaseHost & AttachHost,
  ) {}

  static async open(engine: Engine, storage: Storage, host: DatabaseHost & AttachHost): Promise<UserData> {
    const u = new UserData(engine, storage, host);
    await engine.exec("ATTACH ':memory:' AS user");
    await u.load();
    return u;
  }

  /** Runs `change` against `user.*`, then persists; if persisting fails, the working copy is reloaded. */
  async mutate<T>(change: (engine: Engine) => Promise<T>): Promise<T> {
    try {
      const result = await change(this.engine);
      await this.save();
      return result;
    } catch (e) {
      await this.reload();
      throw e;
    }
  }

  async tables(): Promise<string[]> {
    const rows = await this.engine.all<{ name: string }>(
      "SELECT table_name AS name FROM duckdb_tables() WHERE database_name = 'user' ORDER BY 1",
    );
    return rows.map((r) => r.name);
  }

  private async state(): Promise<UserState | null> {
    const text = await this.storage.readText(USER_STATE_FILE);
    return text ? (JSON.parse(text) as UserState) : null;
  }

  private async load(): Promise<void> {
    const s = await this.state();
    if (!s) return;
    const src = await this.host.attachPath(this.engine, s.database);
    await this.engine.exec(`ATTACH ${sqlString(src)} AS user_file`);
    try {
      const tables = await this.engine.all<{ name: string }>(
        "SELECT table_name AS name FROM duckdb_tables() WHERE database_name = 'user_file'",
      );
      for (const { name } of tables) {
        await this.engine.exec(`CREATE TABLE user.${quoteIdent(name)} AS SELECT * FROM user_file.${quoteIdent(name)}`);
      }
    } finally {
      await this.engine.exec('DETACH user_file');
      await this.host.forget(this.engine, s.database);
    }
  }

  private async reload(): Promise<void> {
    await this.engine.exec('DETACH user');
    await this.engine.exec("ATTACH ':memory:' AS user");
    await this.load();
  }

  private async save(): Promise<void> {
    const prev = await this.state();
    const next: UserState = { generation: (prev?.generation ?? 0) + 1, database: '' };
    next.database = `user-${next.generation}.duckdb`;
    const out = await this.host.createDatabase(next.database);
    try {
      for (const name of await this.tables()) {
        const cols = await this.engine.all<{ column_name: string; column_type: string }>(
          `SELECT column_name, data_type AS column_type FROM duckdb_columns() WHERE database_name = 'user' AND table_name = ? ORDER BY column_index`,
          [name],
        );
        // eslint-disable-next-line sql/no-interpolated-sql -- column names quoted, their types from DuckDB's own catalog
        await out.exec(`CREATE TABLE ${quoteIdent(name)} (${cols.map((c) => `${quoteIdent(c.column_name)} ${c.column_type}`).join(', ')})`);
        const data = await this.engine.arrow(`SELECT * FROM user.${quoteIdent(name)}`);
        if (data.numRows > 0) await out.insertArrowIPC(this.host.toIPC(data), { name, create: false });
      }
      await out.exec('CHECKPOINT');
    } finally {
      await this.host.release(out);
    }
    await this.storage.writeTextAtomic(USER_STATE_FILE, JSON.stringify(next));
    if (prev) {
      await this.storage.remove(prev.database);
      await this.storage.remove(`${prev.database}.wal`);
    }
  }
}
