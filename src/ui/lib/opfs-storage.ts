import { storeName, type FileWriter, type Storage } from '../../core/storage/storage.js';

/**
 * The store as the origin's private file system (OPFS), flat in its root: DuckDB opens database
 * files there by `opfs://name`. Writable streams write to a swap file and replace the target on
 * close, which is what makes writeTextAtomic atomic.
 * Interim: the app's own adapter until src/core/storage/opfs.ts lands.
 */
export class OpfsStorage implements Storage {
  private root = navigator.storage.getDirectory();

  private async handle(name: string, create = false): Promise<FileSystemFileHandle | null> {
    try {
      return await (await this.root).getFileHandle(storeName(name), { create });
    } catch (e) {
      if ((e as DOMException).name === 'NotFoundError') return null;
      throw e;
    }
  }

  async readText(name: string): Promise<string | null> {
    const h = await this.handle(name);
    return h ? (await h.getFile()).text() : null;
  }

  async writeTextAtomic(name: string, text: string): Promise<void> {
    const w = await (await this.handle(name, true))!.createWritable({ keepExistingData: false });
    await w.write(text);
    await w.close();
  }

  async openWriter(name: string, offset: number): Promise<FileWriter> {
    const w = await (await this.handle(name, true))!.createWritable({ keepExistingData: offset > 0 });
    await w.truncate(offset);
    await w.seek(offset);
    return {
      write: (chunk) => w.write(chunk as Uint8Array<ArrayBuffer>),
      close: () => w.close(),
    };
  }

  async size(name: string): Promise<number | null> {
    const h = await this.handle(name);
    return h ? (await h.getFile()).size : null;
  }

  async blob(name: string): Promise<Blob> {
    const h = await this.handle(name);
    if (!h) throw new Error(`store file ${name} is missing`);
    return h.getFile();
  }

  async rename(from: string, to: string): Promise<void> {
    const h = await this.handle(from);
    if (!h) throw new Error(`store file ${from} is missing`);
    await this.remove(to);
    await (h as FileSystemFileHandle & { move(name: string): Promise<void> }).move(storeName(to));
  }

  async remove(name: string): Promise<void> {
    try {
      await (await this.root).removeEntry(storeName(name));
    } catch (e) {
      if ((e as DOMException).name !== 'NotFoundError') throw e;
    }
  }

  async list(): Promise<string[]> {
    const out: string[] = [];
    for await (const key of (await this.root) as unknown as AsyncIterable<[string, FileSystemHandle]>) out.push(key[0]);
    return out;
  }
}
