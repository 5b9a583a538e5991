/**
 * The query endpoints of the three services (`/mf/v1/nav`, `/v1/series`, `/flags/v1/company/…`),
 * answered from the publisher's own published files (issue 20: the incremental sync fills its gaps
 * through the MF NAV endpoint). A worker thread (src/publisher/query-worker.ts) syncs the published
 * files into a store of its own and answers with Almanac's local server routes.
 *
 * Built on the first query, never at start: a test that only downloads pays nothing. Each query
 * checks which generation is published (the manifests' identity on disk); when it changed, the next
 * answers come from a fresh store of the new files, and the old thread ends once its answers are out.
 * A fresh store rather than a sync over the old one: that sync could take an incremental path that
 * asks these very endpoints.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ENDPOINTS as INDICATOR_ENDPOINTS } from '../core/contract/indicators.js';
import { ENDPOINTS as FLAG_ENDPOINTS } from '../core/contract/flags.js';
import { SERVICES, type Service } from '../core/contract/files.js';
import type { Ask, QueryWorkerData, WorkerMessage, WorkerReply } from './query-protocol.js';

/** First path segments of each service's query endpoints (after its base path). */
const QUERY_SEGMENTS: Readonly<Record<Service, ReadonlySet<string>>> = {
  indicators: segments(INDICATOR_ENDPOINTS.map((e) => e.path.slice('/v1'.length))),
  // Spec (mf-nav-api.md): /search, /nav, /schemes/{code}/nav and the alias routes.
  mf: new Set(['search', 'nav', 'nav-history', 'history', 'series', 'schemes', 'scheme']),
  flags: segments(FLAG_ENDPOINTS.map((e) => e.path)),
};

function segments(paths: string[]): Set<string> {
  return new Set(paths.map((p) => p.split('/')[1]).filter((s) => s && s !== 'download' && s !== 'downloads'));
}

/** `rest` is the path after the service's base (`/nav`, `/schemes/119551/nav`). */
export function isQueryPath(service: Service, rest: string): boolean {
  return QUERY_SEGMENTS[service].has(rest.split('/')[1] ?? '');
}

/** Request headers a query answer depends on; the rest (Origin, Host, cookies) stay here. */
const FORWARDED = ['accept', 'if-none-match', 'if-modified-since', 'range', 'if-range'];
/** Response headers that describe the inner exchange, not the answer. */
const DROPPED = new Set(['content-length', 'connection', 'keep-alive', 'transfer-encoding', 'date']);

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

export class QueryStore {
  private current: { key: string; thread: Promise<QueryThread> } | null = null;
  private readonly threads = new Set<QueryThread>();
  private closed = false;

  constructor(
    private readonly dataDir: string,
    private readonly baseUrl: () => string,
  ) {}

  /** Rejects when the published files could not be synced (the caller answers 503). */
  async answer(method: 'GET' | 'HEAD', url: string, headers: Record<string, string | string[] | undefined>): Promise<Answer> {
    if (this.closed) throw new Error('the publisher is closing');
    const key = await this.generationKey();
    if (this.current?.key !== key) {
      const previous = this.current;
      const current = { key, thread: QueryThread.start(this.dataDir, this.baseUrl()) };
      this.current = current;
      current.thread.then(
        (t) => this.threads.add(t),
        // A failed build is not kept: the next query tries again.
        () => this.current === current && (this.current = null),
      );
      previous?.thread.then((t) => this.retire(t), () => undefined);
    }
    const thread = await this.current.thread;
    const forwarded: Record<string, string> = {};
    for (const h of FORWARDED) {
      const v = headers[h];
      if (v !== undefined) forwarded[h] = Array.isArray(v) ? v.join(', ') : v;
    }
    const a = await thread.ask(method, url, forwarded);
    return { ...a, headers: Object.fromEntries(Object.entries(a.headers).filter(([k]) => !DROPPED.has(k))) };
  }

  async close(): Promise<void> {
    this.closed = true;
    const pending = this.current?.thread.catch(() => null);
    this.current = null;
    const last = await pending;
    if (last) this.threads.add(last);
    await Promise.all([...this.threads].map((t) => this.retire(t)));
  }

  private async retire(t: QueryThread): Promise<void> {
    await t.retire();
    this.threads.delete(t);
  }

  /** Which files are published: each manifest's identity on disk (the generator renames a new one into place). */
  private async generationKey(): Promise<string> {
    const parts = await Promise.all(
      SERVICES.map(async (s) => {
        const st = await stat(path.join(this.dataDir, s, 'manifest.json')).catch(() => null);
        return st ? `${st.ino}:${st.size}:${st.mtimeMs}` : '-';
      }),
    );
    return parts.join('|');
  }
}

/** One generation's worker thread and its store directory. */
class QueryThread {
  private readonly waiting = new Map<number, { resolve(a: Answer): void; reject(e: Error): void }>();
  private nextId = 0;
  private retired = false;
  private readonly ended: Promise<void>;

  private constructor(
    private readonly worker: Worker,
    private readonly storeDir: string,
  ) {
    this.ended = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.on('message', (m: WorkerReply) => {
      if (!('id' in m)) return;
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if ('error' in m) w?.reject(new Error(m.error));
      else w?.resolve({ status: m.status, headers: m.headers, body: m.body });
      this.endIfIdle();
    });
    worker.on('exit', () => this.failAll(new Error('the query thread stopped')));
  }

  static async start(dataDir: string, baseUrl: string): Promise<QueryThread> {
    const storeDir = await mkdtemp(path.join(os.tmpdir(), 'almanac-publisher-queries-'));
    const data: QueryWorkerData = { dataDir, storeDir, baseUrl };
    // `mod`: DuckDB-WASM's Node bundle carries a Web Worker polyfill that, loaded in any worker thread,
    // runs workerData.mod as that worker's script; an empty data: URL gives it nothing to run.
    const worker = new Worker(BOOT, { eval: true, workerData: { ...data, module: WORKER_MODULE, tsx: TSX_API, mod: 'data:,' } });
    const thread = new QueryThread(worker, storeDir);
    const ready = await new Promise<WorkerReply>((resolve) => {
      worker.once('message', resolve);
      worker.once('error', (e) => resolve({ failed: e.message }));
      worker.once('exit', (code) => resolve({ failed: `the query thread exited (${code})` }));
    });
    if ('failed' in ready) {
      await thread.retire();
      throw new Error(ready.failed);
    }
    return thread;
  }

  ask(method: 'GET' | 'HEAD', url: string, headers: Record<string, string>): Promise<Answer> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, method, url, headers } satisfies Ask);
    });
  }

  /** Ends the thread once its answers are out, then removes its store. */
  retire(): Promise<void> {
    this.retired = true;
    this.endIfIdle();
    return this.ended.then(() => rm(this.storeDir, { recursive: true, force: true }));
  }

  private endIfIdle(): void {
    if (!this.retired || this.waiting.size > 0) return;
    this.worker.postMessage({ close: true } satisfies WorkerMessage);
    // The store closes its engines; a thread that still lingers is ended.
    const timer = setTimeout(() => void this.worker.terminate(), 10_000);
    timer.unref();
  }

  private failAll(e: Error): void {
    for (const w of this.waiting.values()) w.reject(e);
    this.waiting.clear();
  }
}

const WORKER_MODULE = new URL('./query-worker.ts', import.meta.url).href;
const TSX_API = import.meta.resolve('tsx/esm/api');

/** The thread's entry: TypeScript through tsx's loader (the publisher runs under tsx or vitest), then the module. */
const BOOT = `
const { workerData } = require('node:worker_threads');
import(workerData.tsx)
  .then(({ register }) => { register(); return import(workerData.module); })
  .catch((e) => { require('node:worker_threads').parentPort.postMessage({ failed: String(e && e.stack || e) }); });
`;
