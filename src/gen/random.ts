/**
 * Deterministic randomness for the generator. Every stream is keyed by (seed, name), so adding a new
 * stream or reordering calls elsewhere never shifts another stream's values: a generation's unchanged
 * files stay byte-identical.
 */
export class Rng {
  private s: number;

  constructor(seed: number, key = '') {
    this.s = hash32(`${seed}:${key}`) || 0x9e3779b9;
  }

  /** A fresh, independent stream named `key` under this one. */
  fork(key: string | number): Rng {
    return new Rng(this.s, String(key));
  }

  /** Uniform in [0, 1) (mulberry32). */
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, maxInclusive: number): number {
    return min + Math.floor(this.next() * (maxInclusive - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}

/** FNV-1a, 32-bit. */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
