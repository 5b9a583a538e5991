import { storeName, type FileWriter, type Storage } from './storage.js';

/**
 * The store as the origin's private file system (OPFS), flat in its root: DuckDB opens database
 * files there by `opfs://name`. Small files are replaced with a writable stream, which writes a swap
 * file and swaps it in on close: that is what makes writeTextAtomic atomic. Downloads are written
 * through a sync access handle (dedicated workers only), which writes in place, so the bytes flushed
 * before a tab closes are still there to resume from.
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

  /** Only in a dedicated worker (the sync worker): a sync access handle does not exist elsewhere. */
  async openWriter(name: string, offset: number): Promise<FileWriter> {
    const h = (await this.handle(name, true))!;
    if (typeof h.createSyncAccessHandle !== 'function') throw new Error('OPFS downloads are written from a dedicated worker');
    const access = await h.createSyncAccessHandle();
    access.truncate(offset);
    let pos = offset;
    return {
      async write(chunk) {
        let done = 0;
        while (done < chunk.length) {
          done += access.write(chunk.subarray(done), { at: pos + done });
        }
        pos += chunk.length;
      },
      async close() {
        access.flush();
        access.close();
      },
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

  /** The origin's quota left (the browser's estimate: it may round, and counts every store of the origin). */
  async available(): Promise<number | null> {
    const { quota, usage } = await navigator.storage.estimate();
    return quota === undefined || usage === undefined ? null : Math.max(0, quota - usage);
  }

  async list(): Promise<string[]> {
    const out: string[] = [];
    for await (const key of (await this.root) as unknown as AsyncIterable<[string, FileSystemHandle]>) out.push(key[0]);
    return out;
  }
}
