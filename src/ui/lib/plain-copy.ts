/**
 * A plain copy of what crosses to another context (Electron's IPC, a worker's postMessage). Both clone
 * what they send, and a view's reactive state (Svelte's Proxy around arrays and objects) cannot be
 * cloned: arrays and plain objects are copied, at any depth; everything else (numbers, strings, byte
 * arrays, blobs, dates) crosses as it is.
 */
export function plainCopy<T>(v: T): T {
  if (Array.isArray(v)) return v.map(plainCopy) as T;
  if (v === null || typeof v !== 'object' || ArrayBuffer.isView(v)) return v;
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plainCopy(x)])) as T;
}
