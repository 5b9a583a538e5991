import type { BrowserEngine } from '../../core/engine/browser.js';
import { getStore } from './store.svelte.js';

export const engineState = $state<{ status: 'starting' | 'ready' | 'error'; error?: string }>({ status: 'starting' });

let ready: Promise<BrowserEngine> | undefined;

/** The app's one DuckDB worker: the store's engine, with every synced dataset attached. */
export function getEngine(): Promise<BrowserEngine> {
  ready ??= getStore().then(
    (s) => {
      engineState.status = 'ready';
      return s.store.engine as BrowserEngine;
    },
    (err: unknown) => {
      engineState.status = 'error';
      engineState.error = err instanceof Error ? err.message : String(err);
      throw err;
    },
  );
  return ready;
}
