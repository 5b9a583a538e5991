import type { Engine } from '../../core/engine/engine.js';
import { backend } from './backend.js';
import { engineState } from './engine-state.svelte.js';


let first: Promise<Engine> | undefined;

/**
 * The app's query engine: the backend's store, with every synced dataset attached. Asked of the
 * backend on every call: the desktop's hands out a new engine after each change of the store, since
 * the one before lost its temp views with the store it ran on (the browser's keeps its one).
 */
export function getEngine(): Promise<Engine> {
  const engine = backend().engine();
  first ??= engine.then(
    (e) => {
      engineState.status = 'ready';
      engineState.note = undefined;
      return e;
    },
    (err: unknown) => {
      engineState.status = 'error';
      engineState.error = err instanceof Error ? err.message : String(err);
      throw err;
    },
  );
  return first.then(() => engine);
}
