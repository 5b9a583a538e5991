import { describe, it, expect } from 'vitest';
import { jsonBody } from '../../src/server/json-body.js';

/** Every reply the server serialises goes through jsonBody: its bytes must be JSON.stringify's, exactly. */
const same = (v: unknown) => expect(jsonBody(v).toString('utf8')).toBe(JSON.stringify(v) ?? 'null');

class Point {
  constructor(
    readonly date: string,
    readonly nav: number,
  ) {}
}

describe('jsonBody: JSON.stringify as bytes, in pieces', () => {
  it('writes scalars and small values as JSON.stringify does', () => {
    for (const v of [null, true, 0, -0, 1.5e300, NaN, -Infinity, 'text', '', [], {}, [1, 'a', null], { a: 1 }]) same(v);
  });

  it('writes a NAV answer far longer than one piece, byte for byte', () => {
    const data = Array.from({ length: 7_539 }, (_, i) => ({ date: `2006-04-${String((i % 28) + 1).padStart(2, '0')}`, nav: 10 + i / 7 }));
    const answer = { scheme_code: 100023, scheme_name: 'Fund — Growth', isin: null, count: data.length, data, is_active: true };
    same(answer);
    same({ schemes: { '100023': answer, INF209K01157: answer }, not_found: ['x'], not_found_reasons: { x: 'unknown_scheme' } });
    expect(jsonBody(answer).length).toBeGreaterThan(200_000);
  });

  it('keeps what JSON.stringify leaves out or turns into null, inside long arrays and objects', () => {
    const long = Array.from({ length: 1_000 }, (_, i) => [undefined, () => 1, Symbol('s'), NaN, Infinity, i, null, 'x'][i % 8]);
    same(long);
    same({ a: undefined, b: () => 1, c: Symbol('s'), d: long, e: [long, { f: undefined }] });
    same([long, long]);
  });

  it('honours toJSON, class instances, null prototypes, getters and key order', () => {
    const bare = Object.assign(Object.create(null), { z: 1, a: [new Date(0)] });
    const withGetter = { get g() { return Array.from({ length: 600 }, (_, i) => i); } };
    const custom = { toJSON: () => ({ replaced: Array.from({ length: 300 }, () => 'y') }) };
    same({ 10: 'ten', 2: 'two', b: 1, a: 2, [Symbol('k')]: 3 });
    same({ bare, withGetter, custom, when: new Date(86_400_000), point: new Point('2025-01-01', 1.25), map: new Map([[1, 2]]) });
    same(Array.from({ length: 700 }, (_, i) => new Point(`d${i}`, i)));
  });

  it('escapes keys and text, and keeps characters outside the BMP and lone surrogates whole', () => {
    const text = Array.from({ length: 2_000 }, (_, i) => ['"quoted"', 'back\\slash', 'line\nbreak', '€ ₹ 😀', '\ud800 alone', '\u2028'][i % 6]);
    same({ 'a"key': text, '\u0000': 'nul', '😀': [text] });
  });

  it('throws where JSON.stringify throws', () => {
    expect(() => jsonBody({ n: 1n })).toThrow(TypeError);
    const cyclic: Record<string, unknown> = { list: Array.from({ length: 300 }, (_, i) => i) };
    cyclic.self = cyclic;
    expect(() => jsonBody(cyclic)).toThrow(TypeError);
    (cyclic.list as unknown[])[299] = cyclic;
    delete cyclic.self;
    expect(() => jsonBody(cyclic)).toThrow(TypeError);
    const shared = Array.from({ length: 300 }, (_, i) => i);
    same({ a: shared, b: shared, c: [shared, shared] });
  });
});
