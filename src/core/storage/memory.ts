import { storeName, type FileWriter, type Storage } from './storage.js';

/**
 * The store in memory: unit tests of downloads and state, where no database file is opened. With a
 * `capacity` it is a store of that many bytes, and a write past it fails as a full disk does.
 */
export class MemoryStorage implements Storage {
  readonly files = new Map<string, Uint8Array>();

  constructor(readonly capacity: number | null = null) {}

  private used(): number {
    let n = 0;
    for (const b of this.files.values()) n += b.length;
    return n;
  }

  async readText(name: string): Promise<string | null> {
    const b = this.files.get(storeName(name));
    return b ? new TextDecoder().decode(b) : null;
  }

  async writeTextAtomic(name: string, text: string): Promise<void> {
    this.files.set(storeName(name), new TextEncoder().encode(text));
  }

  async openWriter(name: string, offset: number): Promise<FileWriter> {
    const key = storeName(name);
    const chunks: Uint8Array[] = [(this.files.get(key) ?? new Uint8Array()).subarray(0, offset)];
    const flush = () => this.files.set(key, concat(chunks));
    flush();
    return {
      write: async (chunk) => {
        if (this.capacity !== null && this.used() + chunk.length > this.capacity) throw new Error(`no space left for ${name}`);
        chunks.push(chunk.slice());
        flush();
      },
      async close() {},
    };
  }

  async size(name: string): Promise<number | null> {
    return this.files.get(storeName(name))?.length ?? null;
  }

  async blob(name: string): Promise<Blob> {
    const b = this.files.get(storeName(name));
    if (!b) throw new Error(`no such store file ${name}`);
    return new Blob([b as Uint8Array<ArrayBuffer>]);
  }

  async rename(from: string, to: string): Promise<void> {
    const b = this.files.get(storeName(from));
    if (!b) throw new Error(`no such store file ${from}`);
    this.files.set(storeName(to), b);
    this.files.delete(from);
  }

  async remove(name: string): Promise<void> {
    this.files.delete(storeName(name));
  }

  async list(): Promise<string[]> {
    return [...this.files.keys()];
  }

  async available(): Promise<number | null> {
    return this.capacity === null ? null : this.capacity - this.used();
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
