import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { RowGroups } from './row-groups.js';

/** parquet-wasm's Node build (CommonJS, its wasm loaded synchronously), for the worker to require. */
const PARQUET = createRequire(import.meta.url).resolve('parquet-wasm/node');

/**
 * The decoder's thread: opens the file, then answers each request with one row group as an Arrow IPC
 * stream, whose buffer is moved to the caller (intoIPCStream copies out of wasm memory into a buffer of
 * its own), not copied. Plain CommonJS, evaluated: nothing to build or resolve beside the TypeScript.
 */
const DECODER = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const parquet = require(workerData.parquet);
const opened = fs.openAsBlob(workerData.path).then((blob) => parquet.ParquetFile.fromFile(blob));
const message = (e) => (e instanceof Error ? e.message : String(e));
opened.then(
  (pf) => {
    const meta = pf.metadata();
    const rows = Array.from({ length: meta.numRowGroups() }, (_, i) => meta.rowGroup(i).numRows());
    parentPort.postMessage({ rows });
    parentPort.on('message', async (i) => {
      try {
        const ipc = (await pf.read({ rowGroups: [i], batchSize: Math.max(1, rows[i]) })).intoIPCStream();
        parentPort.postMessage({ i, ipc }, [ipc.buffer]);
      } catch (e) {
        parentPort.postMessage({ i, error: message(e) });
      }
    });
  },
  (e) => parentPort.postMessage({ error: message(e) }),
);`;

type Reply = { rows: number[] } | { i: number; ipc: Uint8Array } | { i?: number; error: string };

/**
 * Decodes in a worker thread: in Node the engine runs in this thread (NodeEngine), so decoding here
 * would take turns with inserting; there, the next row group is decoded on the other core while this
 * one is inserted (the full MF NAV history: docs/performance.md). The caller keeps at most one read
 * ahead, so at most two row groups are in memory; close() ends the thread, a read in flight with it.
 */
export function rowGroupsInWorker(path: string): Promise<RowGroups> {
  const thread = new Worker(DECODER, { eval: true, workerData: { parquet: PARQUET, path } });
  const waiting = new Map<number, { resolve(ipc: Uint8Array): void; reject(e: Error): void }>();
  let failed: Error | null = null;
  const fail = (e: Error) => {
    failed ??= e;
    for (const w of waiting.values()) w.reject(failed);
    waiting.clear();
  };
  return new Promise((resolve, reject) => {
    thread.on('error', (e) => (fail(e), reject(e)));
    thread.on('exit', () => (fail(new Error('parquet decoder stopped')), reject(failed)));
    thread.on('message', (m: Reply) => {
      if ('rows' in m) return resolve(reader(m.rows));
      if ('ipc' in m) return waiting.get(m.i)?.resolve(m.ipc), void waiting.delete(m.i);
      if (m.i === undefined) return reject(new Error(m.error));
      waiting.get(m.i)?.reject(new Error(m.error));
      waiting.delete(m.i);
    });
  });

  function reader(rows: number[]): RowGroups {
    return {
      rows,
      read(i) {
        if (failed) return Promise.reject(failed);
        return new Promise((resolve, reject) => {
          waiting.set(i, { resolve, reject });
          thread.postMessage(i);
        });
      },
      async close() {
        await thread.terminate();
      },
    };
  }
}
