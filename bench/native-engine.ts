import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import type { Table } from 'apache-arrow';
import path from 'node:path';
import type { Engine, Param, Row } from '../src/core/engine/engine.js';
import { SERVICES } from '../src/core/sync/datasets.js';
import { readState } from '../src/core/sync/metadata.js';
import { baseAlias } from '../src/core/sync/refresh/overlay.js';
import { FsStorage } from '../src/core/storage/fs.js';

/**
 * Native DuckDB (@duckdb/node-api, dev only) behind the same Engine interface, so the benchmark runs
 * the very same service functions — the same SQL — on the same database files as the reference.
 */
export class NativeEngine implements Engine {
  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly conn: DuckDBConnection,
  ) {}

  static async open(): Promise<NativeEngine> {
    const instance = await DuckDBInstance.create(':memory:');
    return new NativeEngine(instance, await instance.connect());
  }

  /** Attaches a Node store's current database files under the same schema names the store uses. */
  static async over(storeDir: string): Promise<NativeEngine> {
    const native = await NativeEngine.open();
    const state = await readState(new FsStorage(storeDir));
    for (const svc of SERVICES) {
      const d = state.datasets[svc];
      // A refreshed MF history's view reads its base generation, attached first under the store's alias.
      if (d?.history?.base) await native.exec(`ATTACH '${path.join(storeDir, d.history.base).replaceAll("'", "''")}' AS ${baseAlias(svc)} (READ_ONLY)`);
      if (d) await native.exec(`ATTACH '${path.join(storeDir, d.database).replaceAll("'", "''")}' AS ${svc} (READ_ONLY)`);
    }
    return native;
  }

  /** Runs `sql` and keeps the whole result in DuckDB's own chunks (no JS rows): what a native client holds. */
  async materialize(sql: string): Promise<number> {
    return (await this.conn.runAndReadAll(sql)).currentRowCount;
  }

  async all<T = Row>(sql: string, params?: Param[]): Promise<T[]> {
    const reader = await this.conn.runAndReadAll(sql, params as DuckDBValue[] | undefined);
    return reader.getRowObjectsJS().map((r) => {
      const out: Row = {};
      for (const [k, v] of Object.entries(r)) out[k] = plain(v);
      return out as T;
    });
  }

  async columns(sql: string, params?: Param[]): Promise<unknown[][]> {
    const reader = await this.conn.runAndReadAll(sql, params as DuckDBValue[] | undefined);
    // One array per column, as the Engine interface has it, also when no row came (no chunk to read columns from).
    const columns = reader.getColumnsJS().map((c) => c.map(plain));
    return columns.length ? columns : Array.from({ length: reader.columnCount }, () => []);
  }

  async arrow(): Promise<Table> {
    throw new Error('the native reference engine returns rows only');
  }

  async exec(sql: string): Promise<void> {
    await this.conn.run(sql);
  }

  async insertArrowIPC(): Promise<void> {
    throw new Error('the native reference engine does not ingest');
  }

  async registerFile(): Promise<void> {}

  async close(): Promise<void> {
    this.conn.closeSync();
    this.instance.closeSync();
  }
}

/** The same plain values the WASM engine's rows carry (numbers, strings, YYYY-MM-DD dates). */
function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object') {
    const o = v as { toDouble?: () => number };
    if (typeof o.toDouble === 'function') return o.toDouble();
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  }
  return v;
}
