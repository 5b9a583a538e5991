import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BUSY_MESSAGE, LockBusy, type SyncLock } from './lock.js';

/** Who holds a lock file. */
interface Owner {
  pid: number;
  host: string;
  started: string;
}

export const LOCK_FILE = 'sync.lock';

/**
 * An exclusive lock file in the store directory. It is created complete in one step (written under a
 * temporary name, then hard-linked into place, which fails if it exists), so a crash never leaves a
 * half-written owner. A lock whose owner process is gone (same host, pid not alive) is stale and
 * taken over; one held by a live process, or by another host, refuses with who holds it.
 */
export function fileLock(dir: string): SyncLock {
  const file = path.join(dir, LOCK_FILE);
  return {
    async acquire() {
      await fs.mkdir(dir, { recursive: true });
      const me: Owner = { pid: process.pid, host: os.hostname(), started: new Date().toISOString() };
      for (let attempt = 0; attempt < 3; attempt++) {
        if (await create(file, me)) {
          return async () => {
            const now = await readOwner(file);
            if (now && now.pid === me.pid && now.started === me.started) await fs.rm(file, { force: true });
          };
        }
        const owner = await readOwner(file);
        if (owner && alive(owner)) throw busy(file, owner);
        await takeOver(file);
      }
      throw new LockBusy(`${BUSY_MESSAGE}: could not take ${file}`);
    },
  };
}

async function create(file: string, me: Owner): Promise<boolean> {
  const tmp = `${file}.${me.pid}.${Math.random().toString(36).slice(2)}`;
  await fs.writeFile(tmp, JSON.stringify(me));
  try {
    await fs.link(tmp, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    await fs.rm(tmp, { force: true });
  }
}

async function readOwner(file: string): Promise<Owner | null> {
  try {
    const o = JSON.parse(await fs.readFile(file, 'utf8')) as Owner;
    return typeof o.pid === 'number' && typeof o.host === 'string' ? o : null;
  } catch {
    return null;
  }
}

/** Another host's process cannot be checked from here: it counts as alive. */
function alive(o: Owner): boolean {
  if (o.host !== os.hostname()) return true;
  try {
    process.kill(o.pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Moves a stale lock aside. If another process took it over between our read and the move (the file
 * moved has a live owner), it is put back and the next attempt finds it held.
 */
async function takeOver(file: string): Promise<void> {
  const aside = `${file}.stale.${process.pid}.${Math.random().toString(36).slice(2)}`;
  try {
    await fs.rename(file, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  const moved = await readOwner(aside);
  if (moved && alive(moved)) await fs.link(aside, file).catch(() => undefined);
  await fs.rm(aside, { force: true });
}

function busy(file: string, o: Owner): LockBusy {
  return new LockBusy(
    `${BUSY_MESSAGE} (process ${o.pid} on ${o.host}, since ${o.started}); wait for it to finish, then sync again. ` +
      `If no sync is running, remove ${file}.`,
  );
}
