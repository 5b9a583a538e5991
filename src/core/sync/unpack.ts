import { Gunzip, Unzip, UnzipInflate } from 'fflate';
import type { Storage } from '../storage/storage.js';

/** Decompressed bytes allowed per archive by default: far above any published file, far below a disk. */
export const DEFAULT_MAX_UNPACKED = 16 * 2 ** 30;

/**
 * Streams a .gz or .zip store file into `out` (another store file). From a zip, the one entry whose
 * name ends with `want` (e.g. `.duckdb`, `.csv`) is taken; README.md and the like are skipped. Entry
 * names with paths or traversal are refused (zip-slip), and output beyond `maxBytes` stops the unpack.
 */
export async function unpack(
  storage: Storage,
  from: string,
  out: string,
  opts: { kind: 'gz' | 'zip'; want: string; maxBytes?: number },
): Promise<number> {
  const max = opts.maxBytes ?? DEFAULT_MAX_UNPACKED;
  const writer = await storage.openWriter(out, 0);
  let written = 0;
  let pending: Promise<void> = Promise.resolve();
  let failure: Error | null = null;
  let found = 0;
  const sink = (data: Uint8Array) => {
    if (failure) return;
    written += data.length;
    if (written > max) {
      failure = new Error(`${from}: unpacks to more than ${max} bytes; refused`);
      return;
    }
    const copy = data.slice();
    pending = pending.then(() => writer.write(copy));
  };
  let push: (chunk: Uint8Array, final: boolean) => void;
  if (opts.kind === 'gz') {
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
    const reader = (await storage.blob(from)).stream().getReader();
    for (;;) {
      const { done, value } = await reader.read();
      try {
        push(value ?? new Uint8Array(0), done);
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
