import type { Engine } from '../../core/engine/engine.js';
import { backend } from './backend.js';

/** `note`: why it is still starting (another tab holds the store). */
export const engineState = $state<{ status: 'starting' | 'ready' | 'error'; error?: string; note?: string }>({ status: 'starting' });

let ready: Promise<Engine> | undefined;

/** The app's query engine: the backend's store, with every synced dataset attached. */
export function getEngine(): Promise<Engine> {
  ready ??= backend().engine().then(
    (engine) => {
      engineState.status = 'ready';
      engineState.note = undefined;
      return engine;
    },
    (err: unknown) => {
      engineState.status = 'error';
      engineState.error = err instanceof Error ? err.message : String(err);
      throw err;
    },
  );
  return ready;
}
