/**
 * The messages between the publisher's query endpoints (queries.ts) and the thread that answers them
 * (query-worker.ts). A module of their own so queries.ts, which the server reaches, never imports
 * the worker, which starts a publisher itself.
 */
export interface QueryWorkerData {
  /** The publisher's data directory (DIR/<service>/manifest.json …). */
  dataDir: string;
  /** An empty directory for this generation's store. */
  storeDir: string;
  /** The publisher's own URL, for the help links of error bodies. */
  baseUrl: string;
}

export interface Ask {
  id: number;
  method: 'GET' | 'HEAD';
  url: string;
  headers: Record<string, string>;
}

export type WorkerReply =
  | { ready: true }
  | { failed: string }
  | { id: number; status: number; headers: Record<string, string>; body: Uint8Array }
  | { id: number; error: string };

export type WorkerMessage = Ask | { close: true };
