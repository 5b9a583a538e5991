import type { Engine } from './engine.js';

/**
 * What the store itself wrote into the generation's `main.sync_status`, known without a statement:
 * each synced dataset's publish time (`generated_at`, as the manifest gave it). On a fresh engine the
 * statements that read it back were ~30-40 ms of the local server's first NAV request (its
 * Last-Modified), for values the store had in hand (docs/performance.md).
 */
export interface GenerationRecord {
  generatedAt: ReadonlyMap<string, string | null>;
  /**
   * Services whose history the store reads through a view over a base table and the rows taken in
   * since (sync/refresh/overlay.ts), with those two tables' qualified names. Absent: a plain table.
   */
  overlaid: ReadonlyMap<string, OverlaidHistory>;
}

/** The two tables behind a refreshed history's view, as SQL names (the store's aliases, not user input). */
export interface OverlaidHistory {
  base: string;
  delta: string;
}

/**
 * Answers that stay exact for as long as the data generation stands. The local data changes only when
 * the store switches generations or rewrites its sync metadata (Store.refresh), which calls
 * newGeneration: from then on every cached answer of the engine is gone, and one still being computed
 * lands in the old generation's map, never in the new one. An engine no store registered (a test's, a
 * tool's, a build's) is never cached: nothing would tell it that its data changed.
 *
 * Keys name what is cached (`mf:last-modified`), never user input, so the cache's size is bounded by
 * the call sites that use it. Per engine: the generation's answers, and what the store wrote for it
 * (null mid-switch).
 */
const generations = new WeakMap<Engine, { answers: Map<string, Promise<unknown>>; record: GenerationRecord | null }>();

/**
 * The engine's data just changed (or is about to be served): drop every answer cached for it. `record`:
 * what the store wrote for the new generation; none while it switches.
 */
export function newGeneration(engine: Engine, record?: GenerationRecord): void {
  generations.set(engine, { answers: new Map(), record: record ?? null });
}

/** What the store wrote for the generation the engine answers from; null for an engine no store keeps, or mid-switch. */
export function generationRecord(engine: Engine): GenerationRecord | null {
  return generations.get(engine)?.record ?? null;
}

/** `compute()` once per generation of `engine`'s data; a failure is not kept. */
export function perGeneration<T>(engine: Engine, key: string, compute: () => Promise<T>): Promise<T> {
  const cache = generations.get(engine)?.answers;
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
