import { describe, expect, it } from 'vitest';
import { plainCopy } from '../../../src/ui/lib/plain-copy.js';

/**
 * What IPC and postMessage do to their arguments is structuredClone; a Proxy (what Svelte's $state
 * wraps arrays and objects in) makes it throw. The copy must clone, keep the values, and pass byte
 * arrays through as they are (an AMFI import's bytes are not copied element by element).
 */
describe('plainCopy', () => {
  const proxied = <T extends object>(v: T): T => new Proxy(v, {});

  it('turns nested reactive-style proxies into plain data that structuredClone accepts', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const req = proxied({
      only: proxied(['mf', 'flags']),
      sources: proxied({ mf: 'http://127.0.0.1:1/mf', flags: 'http://127.0.0.1:1/flags' }),
      history: proxied({ full: false, verifyEveryMs: null }),
      skip: undefined,
      bytes,
      at: new Date(0),
    });
    expect(() => structuredClone(req)).toThrow();
    const copy = plainCopy(req);
    expect(structuredClone(copy)).toEqual({
      only: ['mf', 'flags'],
      sources: { mf: 'http://127.0.0.1:1/mf', flags: 'http://127.0.0.1:1/flags' },
      history: { full: false, verifyEveryMs: null },
      skip: undefined,
      bytes: new Uint8Array([1, 2, 3]),
      at: new Date(0),
    });
    expect(copy.bytes).toBe(bytes);
  });

  it('passes scalars and null through', () => {
    for (const v of [null, undefined, 0, 'x', true]) expect(plainCopy(v)).toBe(v);
  });
});
