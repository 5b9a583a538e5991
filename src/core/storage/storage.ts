/**
 * Where the store keeps its files. One flat directory per store: every name is a single path segment
 * checked by `storeName`, so nothing an adapter writes can land outside it. The sync engine talks
 * only to this interface; fs.ts (Node), opfs.ts (browser worker) and memory.ts (unit tests) implement it.
 */
export interface Storage {
  /** Text of a small file (state, sidecars), or null when absent. */
  readText(name: string): Promise<string | null>;
  /** Replaces `name` in one atomic step (write a temporary file, then rename over). */
  writeTextAtomic(name: string, text: string): Promise<void>;
  /** Opens `name` for writing from byte `offset` on; bytes after it are dropped. */
  openWriter(name: string, offset: number): Promise<FileWriter>;
  /** Size in bytes, or null when absent. */
  size(name: string): Promise<number | null>;
  /** The file's bytes as a Blob read lazily from storage (parquet-wasm and unzip read it in slices). */
  blob(name: string): Promise<Blob>;
  rename(from: string, to: string): Promise<void>;
  /** Removes `name`; absent is fine. */
  remove(name: string): Promise<void>;
  list(): Promise<string[]>;
  /** Bytes the store can still grow by (free disk, the origin's quota left), or null when unknown. */
  available(): Promise<number | null>;
}

export interface FileWriter {
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

const SAFE = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,199}$/;

/** Guards every name an adapter touches: one segment, no traversal, a short safe alphabet. */
export function storeName(name: string): string {
  if (!SAFE.test(name) || name.includes('..')) throw new Error(`refused store file name ${JSON.stringify(name)}`);
  return name;
}
