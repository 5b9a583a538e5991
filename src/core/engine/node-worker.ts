import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import * as duckdb from '@duckdb/duckdb-wasm';
import type { Table } from 'apache-arrow';
import { OFFLINE_SETTINGS, readableError, type Engine, type Param } from './engine.js';
import type { NodeEngineOptions } from './node.js';
import { tableToColumns, tableToRows } from './rows.js';

const require = createRequire(import.meta.url);
const dist = path.dirname(require.resolve('@duckdb/duckdb-wasm/dist/duckdb-eh.wasm'));
const WORKER_SCRIPT = path.join(dist, 'duckdb-node-eh.worker.cjs');
const WASM = path.join(dist, 'duckdb-eh.wasm');

/**
 * DuckDB-WASM's Node worker script speaks the Web Worker protocol (global onmessage/postMessage); this
 * bootstrap gives it that over the worker thread's port.
 */
const BOOTSTRAP = `
const { parentPort, workerData } = require('node:worker_threads');
globalThis.postMessage = (message, transfer) => parentPort.postMessage(message, transfer);
parentPort.on('message', (data) => globalThis.onmessage && globalThis.onmessage({ data }));
require(workerData.script);`;

type Listener = (event: unknown) => void;

/** The Web Worker surface AsyncDuckDB uses (message, error and close listeners; post; terminate). */
class ThreadWorker {
  private readonly thread = new Worker(BOOTSTRAP, { eval: true, workerData: { script: WORKER_SCRIPT } });
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor() {
    this.thread.on('message', (data) => this.emit('message', { data }));
    this.thread.on('error', (error) => this.emit('error', error));
    this.thread.on('exit', () => this.emit('close', {}));
  }

  private emit(type: string, event: unknown) {
    for (const l of this.listeners.get(type) ?? []) l(event);
  }

  addEventListener(type: string, l: Listener) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)!.add(l);
  }

  removeEventListener(type: string, l: Listener) {
    this.listeners.get(type)?.delete(l);
  }

  postMessage(message: unknown, transfer?: Transferable[]) {
    this.thread.postMessage(message, (transfer ?? []).filter((t): t is ArrayBuffer => t instanceof ArrayBuffer));
  }

  terminate() {
    void this.thread.terminate();
  }
}

/**
 * DuckDB-WASM in a worker thread of this process. A worker thread has its own runtime and so its own
 * table of open files, so this engine can create and write a database file while the process's main
 * engine (the store) has others open — two engines in one thread cannot (docs/storage.md, hazard 6).
 * Instantiating costs a compile of the module (~2 s of CPU): it serves rare writes, such as saving the
 * user's data, not queries. One statement at a time.
 */
export class NodeWorkerEngine implements Engine {
  private constructor(
    private readonly db: duckdb.AsyncDuckDB,
    private readonly conn: duckdb.AsyncDuckDBConnection,
  ) {}

  /** As NodeEngine.open: `create` opens a NEW file with direct I/O, the only way it reopens with its data. */
  static async open(opts: NodeEngineOptions = {}): Promise<NodeWorkerEngine> {
    const db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), new ThreadWorker() as unknown as globalThis.Worker);
    try {
      await db.instantiate(WASM);
      await db.open({
        path: opts.path ?? ':memory:',
        accessMode: duckdb.DuckDBAccessMode.READ_WRITE,
        useDirectIO: opts.create === true,
        query: { castBigIntToDouble: false },
      });
      const conn = await db.connect();
      await conn.query(OFFLINE_SETTINGS);
      return new NodeWorkerEngine(db, conn);
    } catch (e) {
      await db.terminate();
      throw e;
    }
  }

  async all<T>(sql: string, params?: Param[]): Promise<T[]> {
    return tableToRows<T>(await this.arrow(sql, params));
  }

  async columns(sql: string, params?: Param[]): Promise<unknown[][]> {
    return tableToColumns(await this.arrow(sql, params));
  }

  async arrow(sql: string, params?: Param[]): Promise<Table> {
    if (!params || params.length === 0) return (await this.conn.query(sql)) as unknown as Table;
    const stmt = await this.conn.prepare(sql);
    try {
      return (await stmt.query(...params)) as unknown as Table;
    } finally {
      await stmt.close();
    }
  }

  async exec(sql: string): Promise<void> {
    await this.conn.query(sql);
  }

  async insertArrowIPC(ipc: Uint8Array, t: { schema?: string; name: string; create: boolean }): Promise<void> {
    await this.conn.insertArrowFromIPCStream(ipc, { name: t.name, schema: t.schema, create: t.create }).catch((e) => {
      throw readableError(e);
    });
  }

  async registerFile(name: string, filePath: string): Promise<void> {
    await this.db.registerFileURL(name, filePath, duckdb.DuckDBDataProtocol.NODE_FS, false);
  }

  /** Shuts the database down (as NodeEngine does: its WAL goes), then ends the thread. */
  async close(): Promise<void> {
    try {
      await this.conn.close();
      await this.db.reset();
    } finally {
      await this.db.terminate();
    }
  }
}
