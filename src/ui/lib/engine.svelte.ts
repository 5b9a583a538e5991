import { BrowserEngine } from '../../core/engine/browser.js';

export const engineState = $state<{ status: 'starting' | 'ready' | 'error'; error?: string }>({ status: 'starting' });

let ready: Promise<BrowserEngine> | undefined;

/** One DuckDB worker for the whole app, started on first use. */
export function getEngine(): Promise<BrowserEngine> {
  ready ??= BrowserEngine.open().then(
    (e) => {
      engineState.status = 'ready';
      return e;
    },
    (err: unknown) => {
      engineState.status = 'error';
      engineState.error = err instanceof Error ? err.message : String(err);
      throw err;
    },
  );
  return ready;
}
