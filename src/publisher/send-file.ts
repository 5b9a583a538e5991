/**
 * Serving one file: strong content-hash ETag, Last-Modified, conditional requests (304), byte
 * ranges (206/416, If-Range) and HEAD. The file is opened once and everything (hash, headers, body)
 * comes from that descriptor, so a generation renamed into place mid-response never mixes files.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { planResponse as decide, type ResponsePlan } from '../core/http/freshness.js';
import type { FaultPlan } from './faults.js';

export interface OpenedFile {
  fh: FileHandle;
  size: number;
  /** Whole seconds: HTTP dates carry no more. */
  mtimeSeconds: number;
  etag: string;
}

/** Content hashes by path, valid while (inode, size, mtime) are unchanged. */
export class HashCache {
  private readonly entries = new Map<string, { key: string; hash: Promise<string> }>();

  async hash(path: string, fh: FileHandle, key: string): Promise<string> {
    const hit = this.entries.get(path);
    if (hit && hit.key === key) return hit.hash;
    const hash = hashHandle(fh);
    this.entries.set(path, { key, hash });
    hash.catch(() => this.entries.delete(path));
    return hash;
  }
}

async function hashHandle(fh: FileHandle): Promise<string> {
  const h = createHash('sha256');
  const buf = Buffer.allocUnsafe(1 << 20);
  for (let pos = 0; ; ) {
    const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
    if (bytesRead === 0) break;
    h.update(buf.subarray(0, bytesRead));
    pos += bytesRead;
  }
  return h.digest('base64url').slice(0, 32);
}

/** Opens `path` and derives its validators; null when it does not exist. The caller closes `fh`. */
export async function openFile(path: string, cache: HashCache, etagSalt: number): Promise<OpenedFile | null> {
  let fh: FileHandle;
  try {
    fh = await open(path, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) {
      await fh.close();
      return null;
    }
    const hash = await cache.hash(path, fh, `${st.ino}:${st.size}:${st.mtimeMs}`);
    // The salt is the etag-change-after fault: same bytes, a validator that no longer matches.
    const etag = `"${hash}${etagSalt ? `-${etagSalt}` : ''}"`;
    return { fh, size: st.size, mtimeSeconds: Math.floor(st.mtimeMs / 1000), etag };
  } catch (e) {
    await fh.close();
    throw e;
  }
}

/** The shared decision (core/http/freshness.ts) over this file's validators. */
export function planResponse(req: IncomingMessage, file: OpenedFile): ResponsePlan {
  return decide(req.headers, { etag: file.etag, lastModifiedSeconds: file.mtimeSeconds, size: file.size });
}

/** Validator and caching headers every answer about the file carries (200, 206, 304, 416). */
export function validatorHeaders(file: OpenedFile): Record<string, string> {
  return {
    ETag: file.etag,
    'Last-Modified': new Date(file.mtimeSeconds * 1000).toUTCString(),
    'Cache-Control': 'no-cache',
    'Accept-Ranges': 'bytes',
  };
}

/**
 * Writes the body bytes [start, end] from the open file, honouring the fault plan: pacing,
 * a connection dropped or a body cut short after k bytes, and the ETag changing after k bytes.
 */
export async function writeBody(
  res: ServerResponse,
  file: OpenedFile,
  start: number,
  end: number,
  faults: FaultPlan,
  onEtagChange: () => void,
): Promise<void> {
  const total = end - start + 1;
  const cut = Math.min(total, faults.dropAfter ?? total, faults.shortBody ?? total);
  let sent = 0;
  const began = Date.now();
  if (cut > 0) {
    // Throttled bodies go out in tenth-of-a-second slices, each sent when it is due.
    const rate = faults.bytesPerSecond;
    const highWaterMark = rate === undefined ? 64 * 1024 : Math.max(1, Math.min(64 * 1024, Math.floor(rate / 10)));
    const stream = file.fh.createReadStream({ start, end: start + cut - 1, highWaterMark, autoClose: false });
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        if (res.destroyed) break;
        if (rate !== undefined) {
          const wait = began + (sent / rate) * 1000 - Date.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        }
        const eca = faults.etagChangeAfter;
        if (eca !== undefined && sent <= eca && eca < sent + chunk.length) onEtagChange();
        sent += chunk.length;
        if (!res.write(chunk)) await drainOrClose(res);
      }
    } finally {
      stream.destroy();
    }
  }
  if (res.destroyed) return;
  if (sent < total && faults.dropAfter !== undefined && cut === faults.dropAfter) {
    // Let the bytes already queued reach the client, then reset the connection (no clean end).
    const socket = res.socket;
    if (socket) {
      await new Promise<void>((r) => socket.write('', () => r()));
      socket.resetAndDestroy();
    }
    return;
  }
  // A short body ends cleanly; the response carries `Connection: close`, so the client sees EOF early.
  res.end();
}

/**
 * Waits for the socket to drain or the client to leave. Both waits are cancelled once either fires:
 * otherwise every back-pressure pause would leave a 'close' and an 'error' listener behind.
 */
async function drainOrClose(res: import('node:http').ServerResponse): Promise<void> {
  const ac = new AbortController();
  const waits = [once(res, 'drain', { signal: ac.signal }), once(res, 'close', { signal: ac.signal })];
  try {
    await Promise.race(waits);
  } finally {
    ac.abort();
    for (const w of waits) w.catch(() => {});
  }
}
