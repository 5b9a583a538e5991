import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { storeName, type FileWriter, type Storage } from './storage.js';

/** The store as one directory on the local filesystem (CLI, server, Electron). */
export class FsStorage implements Storage {
  constructor(readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true });
  }

  /** Absolute path of a store file, for DuckDB to open. */
  path(name: string): string {
    return path.join(this.dir, storeName(name));
  }

  async readText(name: string): Promise<string | null> {
    try {
      return await fsp.readFile(this.path(name), 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  async writeTextAtomic(name: string, text: string): Promise<void> {
    const target = this.path(name);
    const tmp = this.path(`${name}.tmp`);
    const fh = await fsp.open(tmp, 'w');
    try {
      await fh.writeFile(text);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await fsp.rename(tmp, target);
  }

  async openWriter(name: string, offset: number): Promise<FileWriter> {
    const p = this.path(name);
    const fh = await fsp.open(p, offset > 0 ? 'r+' : 'w');
    await fh.truncate(offset);
    let pos = offset;
    return {
      async write(chunk) {
        let done = 0;
        while (done < chunk.length) {
          const { bytesWritten } = await fh.write(chunk, done, chunk.length - done, pos);
          done += bytesWritten;
          pos += bytesWritten;
        }
      },
      async close() {
        await fh.sync();
        await fh.close();
      },
    };
  }

  async size(name: string): Promise<number | null> {
    try {
      return (await fsp.stat(this.path(name))).size;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  async blob(name: string): Promise<Blob> {
    return fs.openAsBlob(this.path(name));
  }

  async rename(from: string, to: string): Promise<void> {
    await fsp.rename(this.path(from), this.path(to));
  }

  async remove(name: string): Promise<void> {
    await fsp.rm(this.path(name), { force: true });
  }

  async list(): Promise<string[]> {
    return (await fsp.readdir(this.dir)).filter((n) => !n.startsWith('.'));
  }

  /** Free space of the filesystem holding the store, as an unprivileged process may use it. */
  async available(): Promise<number> {
    const st = await fsp.statfs(this.dir);
    return st.bavail * st.bsize;
  }
}
