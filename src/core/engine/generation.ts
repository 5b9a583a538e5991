import type { Engine } from './engine.js';

/**
 * Answers that stay exact for as long as the data generation stands. The local data changes only when
 * the store switches generations or rewrites its sync metadata (Store.refresh), which calls
 * newGeneration: from then on every cached answer of the engine is gone, and one still being computed
 * lands in the old generation's map, never in the new one. An engine no store registered (a test's, a
 * tool's, a build's) is never cached: nothing would tell it that its data changed.
 *
 * Keys name what is cached (`mf:last-modified`), never user input, so the cache's size is bounded by
 * the call sites that use it.
 */
const generations = new WeakMap<Engine, Map<string, Promise<unknown>>>();

/** The engine's data just changed (or is about to be served): drop every answer cached for it. */
export function newGeneration(engine: Engine): void {
  generations.set(engine, new Map());
}

/** `compute()` once per generation of `engine`'s data; a failure is not kept. */
export function perGeneration<T>(engine: Engine, key: string, compute: () => Promise<T>): Promise<T> {
  const cache = generations.get(engine);
  if (!cache) return compute();
  let answer = cache.get(key) as Promise<T> | undefined;
  if (!answer) {
    answer = compute();
    cache.set(key, answer);
    answer.catch(() => {
      if (cache.get(key) === answer) cache.delete(key);
    });
  }
  return answer;
}
