/**
 * Named points in a sync where a test can stop the world (as if the process died there). An error
 * thrown by the hook is wrapped in `Crash`, which no retry or per-file handler swallows.
 */
export type SyncStep =
  | 'manifest'
  | 'download:response'
  | 'download:chunk'
  | 'download:complete'
  /** The MF history's refresh: footer read and plan made; gaps fetched; this publish's delta written. */
  | 'refresh:plan'
  | 'refresh:fetched'
  | 'refresh:delta'
  | 'ingest:table'
  | 'ingest:batch'
  | 'ingest:checkpoint'
  | 'switch:before'
  | 'switch:after'
  | 'cleanup';

export type SyncHook = (step: SyncStep, detail: { service: string; file?: string }) => void | Promise<void>;

export class Crash extends Error {
  constructor(override readonly cause: unknown) {
    super(`sync stopped by hook: ${(cause as Error)?.message ?? String(cause)}`);
  }
}

/**
 * The sync's AbortSignal fired. It stops the sync like a crash and at the same points, which the crash
 * tests prove leave the previous generation answering and partial downloads resumable.
 */
export class Cancelled extends Crash {
  constructor() {
    super(null);
    this.message = 'sync cancelled';
  }
}

export async function runHook(hook: SyncHook | undefined, step: SyncStep, detail: { service: string; file?: string }) {
  if (!hook) return;
  try {
    await hook(step, detail);
  } catch (e) {
    throw e instanceof Crash ? e : new Crash(e);
  }
}
