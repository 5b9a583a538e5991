import { Gunzip, Unzip, UnzipInflate } from 'fflate';
import type { Storage } from '../storage/storage.js';

/** Decompressed bytes allowed per archive by default: far above any published file, far below a disk. */
export const DEFAULT_MAX_UNPACKED = 16 * 2 ** 30;

/**
 * What an unpacked entry may plausibly be (docs/sync.md, "Unpacking"): nothing below the floor is refused
 * for its ratio (a tiny DuckDB file is mostly empty blocks: the suite's indicator_config.duckdb.gz
 * unpacks 56.6x); above it, at most RATIO times its compressed bytes. The publisher's files unpack 2.4x
 * to 15.2x (demo scale, measured), a 1 GiB gzip of zeros ~1,000x.
 */
export const UNPACK_FLOOR = 64 * 2 ** 20;
export const UNPACK_RATIO = 100;

/**
 * Input is handed to the inflater in slices this big: deflate expands at most ~1,032x, so one slice
 * yields at most ~16 MiB of output, and a bomb is stopped before it is held in memory, not after.
 */
const SLICE = 16 * 1024;

/**
 * Streams a .gz or .zip store file into `out` (another store file). From a zip, the one entry whose
 * name ends with `want` (e.g. `.duckdb`, `.csv`) is taken; README.md and the like are skipped. Entry
 * names with paths or traversal are refused (zip-slip). The output is capped by `maxBytes`, by what is
 * plausible for the entry's compressed size (`plausibleBytes`) and by half the space the store has
 * left (the table loaded from it needs room too): the unpack stops as soon as one is crossed, so the
 * store never grows past it.
 */
export async function unpack(
  storage: Storage,
  from: string,
  out: string,
  opts: { kind: 'gz' | 'zip'; want: string; maxBytes?: number },
): Promise<number> {
  const source = await storage.blob(from);
  const space = await storage.available();
  /** The cap for an entry of `packed` compressed bytes, and what it says when crossed. */
  const capFor = (packed: number): { max: number; why: string } => {
    const caps = [
      { max: opts.maxBytes ?? DEFAULT_MAX_UNPACKED, why: 'the unpack limit' },
      { max: plausibleBytes(packed), why: `implausible for ${packed} compressed bytes: over ${UNPACK_RATIO}x and over ${UNPACK_FLOOR} bytes` },
      ...(space === null ? [] : [{ max: Math.floor(space / 2), why: `half the ${space} bytes of space left for the store` }]),
    ];
    return caps.reduce((a, b) => (b.max < a.max ? b : a));
  };
  let cap = capFor(source.size);
  const writer = await storage.openWriter(out, 0);
  let written = 0;
  let pending: Promise<void> = Promise.resolve();
  let failure: Error | null = null;
  let found = 0;
  const sink = (data: Uint8Array) => {
    if (failure) return;
    written += data.length;
    if (written > cap.max) {
      failure = new Error(`${from}: unpacks to more than ${cap.max} bytes (${cap.why}); refused, the data already here is kept`);
      return;
    }
    const copy = data.slice();
    pending = pending.then(() => writer.write(copy));
  };
  let push: (chunk: Uint8Array, final: boolean) => void;
  if (opts.kind === 'gz') {
    // Every member of the gzip goes to the one output, so the cap counts them together.
    const gz = new Gunzip((data) => sink(data));
    push = (c, f) => gz.push(c, f);
  } else {
    const uz = new Unzip((entry) => {
      const name = entry.name;
      if (name.includes('..') || name.includes('\\') || name.startsWith('/') || /^[A-Za-z]:/.test(name) || name.includes('\0')) {
        failure ??= new Error(`${from}: refused zip entry ${JSON.stringify(name)} (path outside the archive)`);
        return;
      }
      if (name.includes('/') || !name.toLowerCase().endsWith(opts.want)) return;
      if (++found > 1) {
        failure ??= new Error(`${from}: more than one ${opts.want} entry`);
        return;
      }
      // The entry's own compressed size when its header gives one (never more than the archive's).
      cap = capFor(Math.min(entry.size ?? source.size, source.size));
      entry.ondata = (err, data) => {
        if (err) failure ??= err;
        else sink(data);
      };
      entry.start();
    });
    uz.register(UnzipInflate);
    push = (c, f) => uz.push(c, f);
  }
  try {
    const reader = source.stream().getReader();
    for (;;) {
      const { done, value } = await reader.read();
      const chunk = value ?? new Uint8Array(0);
      try {
        for (let at = 0; !failure && (at < chunk.length || (done && at === 0)); at += SLICE) {
          const end = Math.min(at + SLICE, chunk.length);
          push(chunk.subarray(at, end), done && end === chunk.length);
          await pending;
        }
      } catch (e) {
        failure ??= new Error(`${from}: ${(e as Error).message}`);
      }
      await pending;
      if (failure) {
        await reader.cancel();
        throw failure;
      }
      if (done) break;
    }
    if (opts.kind === 'zip' && found === 0) throw new Error(`${from}: no ${opts.want} entry in the archive`);
    return written;
  } finally {
    await writer.close();
  }
}

/** The most an entry of `packed` compressed bytes may plausibly unpack to. */
export function plausibleBytes(packed: number): number {
  return Math.max(UNPACK_FLOOR, UNPACK_RATIO * packed);
}
