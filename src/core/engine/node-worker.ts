import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import * as duckdb from '@duckdb/duckdb-wasm';
import { AsyncEngine } from './async-engine.js';
import type { NodeEngineOptions } from './node.js';

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
 * user's data, not queries.
 */
export class NodeWorkerEngine extends AsyncEngine {
  protected override readonly resultTable = (require('apache-arrow') as typeof import('apache-arrow')).Table;
  /** Nothing in Node cancels a statement: one round trip each, no polling. */
  protected override readonly cancellable = false;

  /** As NodeEngine.open: `create` opens a NEW file with direct I/O, the only way it reopens with its data. */
  static async open(opts: NodeEngineOptions = {}): Promise<NodeWorkerEngine> {
    const worker = new ThreadWorker() as unknown as globalThis.Worker;
    return new NodeWorkerEngine(...(await AsyncEngine.connect(worker, { wasm: WASM, path: opts.path, directIO: opts.create === true })));
  }

  async registerFile(name: string, filePath: string): Promise<void> {
    await this.db.registerFileURL(name, filePath, duckdb.DuckDBDataProtocol.NODE_FS, false);
  }

  /** Shuts the database down (as NodeEngine does: its WAL goes), then ends the thread. */
  async close(): Promise<void> {
    try {
      await this.statements.clear();
      await this.conn.close();
      await this.db.reset();
    } finally {
      await this.db.terminate();
    }
  }
}
