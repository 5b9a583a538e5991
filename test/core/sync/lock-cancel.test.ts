import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bench, type Bench } from './fixture.js';
import { Cancelled } from '../../../src/core/sync/hooks.js';
import { LockBusy } from '../../../src/core/sync/lock.js';
import { fileLock, LOCK_FILE } from '../../../src/core/sync/node-lock.js';
import { readState } from '../../../src/core/sync/metadata.js';
import { nodeHost } from '../../../src/core/database/node.js';
import { sync } from '../../../src/core/sync/sync.js';

/** A pid that certainly belongs to no live process: one that just exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(r.stdout.toString());
}

describe('sync lock (Node: an exclusive lock file with stale-owner detection)', { timeout: 600_000 }, () => {
  let b: Bench;
  beforeAll(async () => {
    b = await bench(['flags']);
  });
  afterAll(() => b?.close());

  it('a second sync of the same store while one runs is refused with a clear message; afterwards it runs', async () => {
    const lock = fileLock(b.storeDir);
    let release!: () => void;
    const paused = new Promise<void>((r) => (release = r));
    let reached!: () => void;
    const atManifest = new Promise<void>((r) => (reached = r));
    const first = b.run({ lock, hook: async (step) => {
      if (step === 'manifest') {
        reached();
        await paused;
      }
    } });
    await atManifest;
    const owner = JSON.parse(fs.readFileSync(path.join(b.storeDir, LOCK_FILE), 'utf8'));
    expect(owner.pid).toBe(process.pid);
    const second = b.run({ lock: fileLock(b.storeDir) });
    await expect(second).rejects.toBeInstanceOf(LockBusy);
    await expect(second).rejects.toThrow(/another sync of this store is running \(process \d+ on .*\); wait for it to finish/);
    release();
    expect((await first).errors).toEqual([]);
    expect(fs.existsSync(path.join(b.storeDir, LOCK_FILE))).toBe(false);
    const third = await b.run({ lock: fileLock(b.storeDir) });
    expect(third.errors).toEqual([]);
    expect(third.files.every((f) => f.status === 'not_modified')).toBe(true);
  });

  it('a lock left by a dead process is taken over; one held by a live process is not', async () => {
    const file = path.join(b.storeDir, LOCK_FILE);
    const live = { pid: process.ppid, host: os.hostname(), started: '2026-01-01T00:00:00.000Z' };
    fs.writeFileSync(file, JSON.stringify(live));
    await expect(b.run({ lock: fileLock(b.storeDir) })).rejects.toThrow(`process ${live.pid}`);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(live);

    fs.writeFileSync(file, JSON.stringify({ ...live, pid: deadPid() }));
    const s = await b.run({ lock: fileLock(b.storeDir) });
    expect(s.errors).toEqual([]);
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.readdirSync(b.storeDir).filter((n) => n.startsWith(LOCK_FILE))).toEqual([]);
  });
});

describe('two CLI syncs at once on one store directory', { timeout: 600_000 }, () => {
  let b: Bench;
  beforeAll(async () => {
    // ~1 KB/s: the first sync is still downloading whenever the second one starts.
    b = await bench(['flags'], { faults: 'throttle=8000bps' });
  });
  afterAll(() => b?.close());

  function cli(...args: string[]) {
    const proc = spawn(process.execPath, ['scripts/cli.mjs', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    proc.stderr!.on('data', (c) => (stderr += c));
    const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
      proc.on('exit', (code, signal) => resolve({ code, signal, stderr })),
    );
    return { proc, done };
  }

  it('the second is refused while the first holds the lock; once the first dies, the next sync takes over', async () => {
    const args = ['sync', '--source', b.publisher.url, '--data', b.storeDir, '--only', 'flags', '--json'];
    const first = cli(...args);
    const lockFile = path.join(b.storeDir, LOCK_FILE);
    while (!fs.existsSync(lockFile)) await new Promise((r) => setTimeout(r, 50));
    const second = await cli(...args).done;
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/error: another sync of this store is running \(process \d+/);
    expect(second.stderr).toContain(`If no sync is running, remove ${lockFile}`);

    // The first dies without cleaning up (as a crash would): its lock file stays, its owner is gone.
    first.proc.kill('SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');
    expect(fs.existsSync(lockFile)).toBe(true);
    b.publisher.setFaults('');
    const third = await cli(...args).done;
    expect(third.stderr).toBe('');
    expect(third.code).toBe(0);
    expect(fs.existsSync(lockFile)).toBe(false);
  });
});

describe('cancelling a sync (AbortSignal)', { timeout: 600_000 }, () => {
  let b: Bench;
  beforeAll(async () => {
    b = await bench(['flags'], { faults: 'throttle=200kbps' });
  });
  afterAll(() => b?.close());

  it('stops mid-download: nothing switches, the partial download stays, the next sync resumes it', async () => {
    const ac = new AbortController();
    let part: string | null = null;
    await expect(
      b.run({
        signal: ac.signal,
        onEvent: (e) => {
          if (e.type === 'progress' && e.bytes > 0 && !ac.signal.aborted) {
            part = e.file;
            ac.abort();
          }
        },
      }),
    ).rejects.toBeInstanceOf(Cancelled);
    expect(part).not.toBeNull();
    expect((await readState(b.host.storage)).datasets.flags).toBeUndefined();
    const kept = fs.readdirSync(b.storeDir).find((n) => n === `dl~flags~${part}.part`);
    expect(kept).toBeDefined();
    const have = fs.statSync(path.join(b.storeDir, kept!)).size;
    expect(have).toBeGreaterThan(0);

    b.publisher.setFaults('');
    const s = await b.run();
    expect(s.errors).toEqual([]);
    const f = s.files.find((x) => x.name === part)!;
    expect(f.status).toBe('resumed');
    const size = fs.statSync(path.join(b.storeDir, readStateSync(b).datasets.flags!.sources[part!].store)).size;
    expect(f.body_bytes).toBe(size - have);
  });

  it('stops a 429 wait at once instead of sitting out Retry-After', async () => {
    const host = nodeHost(path.join(b.storeDir, '..', 'store-429'));
    const ac = new AbortController();
    const pending = sync({
      // Its own base URL, so the process's client-side limiter for the publisher has no say here.
      storage: host.storage, host, source: 'http://127.0.0.1:9', only: ['flags'], signal: ac.signal,
      // The publisher says "come back in an hour"; only the signal can end this wait.
      fetch: async () => new Response('{}', { status: 429, headers: { 'Retry-After': '3600' } }),
      onEvent: (e) => {
        if (e.type === 'waiting' && e.reason === 'retry-after') ac.abort();
      },
    });
    await expect(pending).rejects.toBeInstanceOf(Cancelled);
  });
});

function readStateSync(b: Bench) {
  return JSON.parse(fs.readFileSync(path.join(b.storeDir, 'state.json'), 'utf8')) as Awaited<ReturnType<typeof readState>>;
}
