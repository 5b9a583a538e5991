import type { Validated } from '../../core/contract/flags.js';

/** Unwraps a contract validator's result; its error spec becomes the thrown error's message. */
export function valid<T>(v: Validated<T>): T {
  if (v.ok) return v.value;
  const e = v.error as { message?: string; hint?: string };
  throw Object.assign(new Error(e.message ?? 'invalid request'), { hint: e.hint });
}
