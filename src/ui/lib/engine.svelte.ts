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

let firstAnswer: () => void = () => {};
const answered = new Promise<void>((resolve) => (firstAnswer = resolve));

/** Called by a view's call once its answer (or its error) is in its state (call.svelte.ts): the view draws it next. */
export function noteAnswer(): void {
  firstAnswer();
}

/**
 * Starts the engine for the app's start. When the first view draws from an answer kept for this data
 * generation (a scheme's page, an indicators link: the views that key their answers), the engine
 * starts once that view has its answer and two frames have passed, so that DuckDB-WASM's compile and
 * link (about a second of CPU, on several threads) do not share this machine's cores with the first
 * chart. Any other start, and a view whose answer was not kept (it starts the store itself), start it
 * at once. `FALLBACK_MS` bounds the wait should the view never answer.
 */
export async function startEngine(drawsFromKeptAnswer: boolean): Promise<void> {
  const start = () => void getEngine().catch(() => {});
  if (!drawsFromKeptAnswer || !(await backend().keptAnswers().catch(() => false))) return start();
  await Promise.race([answered, new Promise((r) => setTimeout(r, FALLBACK_MS))]);
  requestAnimationFrame(() => requestAnimationFrame(start));
}
const FALLBACK_MS = 3000;
