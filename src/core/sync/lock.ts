/**
 * One sync (or delete) at a time per store: a second one would remove the first's scratch files and
 * race its switch. The browser uses Web Locks (webLock, released when the holder's worker or tab goes
 * away); Node an exclusive lock file with stale-owner detection (node-lock.ts).
 */
export interface SyncLock {
  /** Takes the lock or throws `LockBusy`; the returned function releases it. */
  acquire(): Promise<() => Promise<void>>;
}

/** Refused because another sync of the same store holds the lock. */
export class LockBusy extends Error {}

export const BUSY_MESSAGE = 'another sync of this store is running';

export async function withLock<T>(lock: SyncLock | undefined, fn: () => Promise<T>): Promise<T> {
  const release = await lock?.acquire();
  try {
    return await fn();
  } finally {
    await release?.();
  }
}

/** The browser's lock: `navigator.locks`, shared by every tab and worker of the origin. */
export function webLock(name: string): SyncLock {
  return {
    acquire: () =>
      new Promise((resolve, reject) => {
        navigator.locks
          .request(name, { ifAvailable: true }, (lock) => {
            if (!lock) {
              reject(new LockBusy(`${BUSY_MESSAGE} (in another tab or window); wait for it to finish, then sync again`));
              return;
            }
            // The lock is held until this promise settles, i.e. until the caller releases it.
            return new Promise<void>((release) => resolve(async () => release()));
          })
          .catch(reject);
      }),
  };
}
