import { getEngine, noteAnswer } from './engine.svelte.js';
import { backend } from './backend.js';
import type { Engine } from '../../core/engine/engine.js';
import { ApiError, missingName } from '../../core/contract/api-error.js';

/** The state of one core call: what a view shows while it loads, when it fails, and its result. */
export interface Call<T> {
  loading: boolean;
  error: string | null;
  value: T | null;
}

/**
 * Runs `fn` against the app's engine and tracks it. A newer call supersedes an older one, so a slow
 * answer to an old search never overwrites a newer one. With a `key` (naming the question and all
 * its inputs; `fn` reading synced data only), a start answers from the answer kept for the current
 * data generation while the engine starts (Backend.answer).
 */
export function caller<T>() {
  const state = $state<Call<T>>({ loading: false, error: null, value: null });
  let seq = 0;
  return {
    state,
    async run(fn: (engine: Engine) => Promise<T>, key?: string): Promise<void> {
      const mine = ++seq;
      state.loading = true;
      state.error = null;
      try {
        const v = key ? await backend().answer(key, fn) : await fn(await getEngine());
        if (mine === seq) state.value = v;
      } catch (e) {
        if (mine === seq) {
          state.error = errorText(e);
          state.value = null;
        }
      } finally {
        if (mine === seq) state.loading = false;
        noteAnswer();
      }
    },
  };
}

/**
 * Services throw ApiError: its message and what to do next. A missing schema or table means the
 * dataset is not on this machine yet: the user needs the next step, not DuckDB's catalog message.
 */
export function errorText(e: unknown): string {
  const missing = missingName(e);
  if (missing) return `Nothing to show yet: this view reads data that is not on this machine (${missing}). Open Data and press Sync.`;
  if (e instanceof ApiError) return e.hint ? `${e.message} ${e.hint}` : e.message;
  return e instanceof Error ? e.message : String(e);
}
