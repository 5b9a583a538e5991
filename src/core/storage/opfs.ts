import { storeName, type FileWriter, type Storage } from './storage.js';

/** A directory's entries, [name, handle]: TypeScript's DOM types do not yet declare the iterator. */
const entries = (dir: FileSystemDirectoryHandle) => dir as unknown as AsyncIterable<[string, FileSystemHandle]>;

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

  /**
   * Empties the file through a sync access handle before removing it. Chromium 156 records no usage
   * for bytes written through a sync access handle, which is how downloads and DuckDB's databases are
   * written, yet subtracts a removed file's whole size (a writable stream's swap too): its recorded
   * usage for the origin goes negative, and after a restart `navigator.storage.estimate()` reports it
   * wrapped to ~4 GiB (docs/storage.md, "Chromium's usage figure"), an origin the browser would evict
   * first. A file emptied this way is subtracted as 0 bytes. A small text file written by
   * writeTextAtomic (counted) then stays counted at its size: a few hundred bytes, the right side to
   * err on. A held file fails here with NoModificationAllowedError, as its removal would.
   */
  async remove(name: string): Promise<void> {
    const h = await this.handle(name);
    if (!h) return;
    await emptyFile(h);
    try {
      await (await this.root).removeEntry(storeName(name));
    } catch (e) {
      if ((e as DOMException).name !== 'NotFoundError') throw e;
    }
  }

  /** The origin's quota left: originUsage's quota less its usage. */
  async available(): Promise<number | null> {
    const u = await originUsage();
    return u && Math.max(0, u.quota - u.usage);
  }

  async list(): Promise<string[]> {
    const out: string[] = [];
    for await (const [name] of entries(await this.root)) out.push(name);
    return out;
  }
}

/**
 * Truncates `h` to 0 bytes through a sync access handle: here in a dedicated worker (syncs, deletes),
 * from a page through a worker of its own for the one file (the page removes only its user database),
 * which calls this in turn.
 */
export async function emptyFile(h: FileSystemFileHandle): Promise<void> {
  if (typeof h.createSyncAccessHandle === 'function') {
    const access = await h.createSyncAccessHandle();
    try {
      access.truncate(0);
    } finally {
      access.close();
    }
    return;
  }
  const worker = new Worker(new URL('./opfs-empty.worker.ts', import.meta.url), { type: 'module' });
  try {
    const answer = await new Promise<{ ok: boolean; name?: string; message?: string }>((resolve, reject) => {
      worker.onmessage = (ev) => resolve(ev.data);
      worker.onerror = (ev) => reject(new Error(`emptying ${h.name} before its removal failed: ${ev.message}`));
      worker.postMessage(h.name);
    });
    if (!answer.ok) throw new DOMException(answer.message ?? '', answer.name);
  } finally {
    worker.terminate();
  }
}

/** Bytes the origin uses and may use, as originUsage counts them. */
export interface OriginUsage {
  usage: number;
  quota: number;
  /** The files in the origin's private file system (Almanac's store), or null when one could not be read. */
  files: number | null;
}

/**
 * The browser's estimate, with its file-system part replaced by the sizes of the files in OPFS when
 * the browser itemises it (Chromium's `usageDetails`): Chromium's own figure for OPFS leaves out bytes
 * written through sync access handles and can go negative (see OpfsStorage.remove), while the files'
 * sizes are exact. Elsewhere the estimate stands as given. Null when the browser gives no estimate.
 */
export async function originUsage(): Promise<OriginUsage | null> {
  const est = (await navigator.storage?.estimate?.()) as (StorageEstimate & { usageDetails?: Record<string, number> }) | undefined;
  if (est?.quota === undefined || est.usage === undefined) return null;
  const files = await opfsBytes();
  const reported = est.usageDetails?.fileSystem;
  if (reported === undefined || files === null) return { usage: est.usage, quota: est.quota, files };
  return { usage: Math.max(0, est.usage - reported) + files, quota: est.quota, files };
}

/** The summed sizes of the files in the OPFS root (the store is flat), or null if one cannot be read. */
async function opfsBytes(): Promise<number | null> {
  try {
    let total = 0;
    for await (const [, h] of entries(await navigator.storage.getDirectory())) {
      if (h.kind === 'file') total += (await (h as FileSystemFileHandle).getFile()).size;
    }
    return total;
  } catch {
    return null;
  }
}
