import { Cancelled, type SyncHook } from './hooks.js';
import type { Sleep } from './limits.js';

/** A hook that stops the sync at its next named step once `signal` fires, then runs `inner`. */
export function stopOn(signal: AbortSignal | undefined, inner: SyncHook | undefined): SyncHook | undefined {
  if (!signal) return inner;
  return (step, detail) => {
    if (signal.aborted) throw new Cancelled();
    return inner?.(step, detail);
  };
}

/** `sleep` that ends at once with `Cancelled` when `signal` fires (a 429 wait can last minutes). */
export function abortable(sleep: Sleep, signal: AbortSignal | undefined): Sleep {
  if (!signal) return sleep;
  return (ms, onTick) =>
    new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(new Cancelled());
      const stop = () => reject(new Cancelled());
      signal.addEventListener('abort', stop, { once: true });
      sleep(ms, (s) => {
        if (!signal.aborted) onTick?.(s);
      }).then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
    });
}
