import type { Storage } from '../storage/storage.js';
import { runHook, type SyncHook } from './hooks.js';
import { backoff, Refused, send, type Exchange } from './request.js';

export interface DownloadRequest {
  x: Exchange;
  file: string;
  url: string;
  storage: Storage;
  /** Store name of the partial file; `${part}.json` remembers which representation it holds. */
  part: string;
  /** Size the manifest announces; the body must match it exactly. */
  expectedSize: number;
  /** ETag of the copy we hold, sent as If-None-Match. */
  etag: string | null;
  hook?: SyncHook;
}

export type DownloadOutcome =
  | { status: 'not_modified'; body_bytes: 0 }
  | { status: 'downloaded' | 'resumed'; etag: string | null; size: number; body_bytes: number };

interface PartMeta {
  url: string;
  etag: string;
  size: number;
}

/**
 * Fetches one file into `part`: conditional (If-None-Match → 304, no body), resumable (Range +
 * If-Range from the bytes already stored; a changed ETag makes the server send the whole new file,
 * which restarts from 0), and never longer than announced: the body must be exactly the manifest's size.
 */
export async function download(req: DownloadRequest): Promise<DownloadOutcome> {
  const { storage, part, file, x } = req;
  const service = x.service;
  const metaName = `${part}.json`;
  const meta = parseMeta(await storage.readText(metaName));
  let have = meta && meta.url === req.url && meta.size === req.expectedSize ? ((await storage.size(part)) ?? 0) : 0;
  let validator = have > 0 ? meta!.etag : null;
  let resumed = false;
  let bodyBytes = 0;

  for (;;) {
    const headers: Record<string, string> = {};
    // A part already complete (the process died just after the last byte) only needs confirming.
    const complete = have === req.expectedSize && validator !== null;
    if (complete) headers['If-None-Match'] = validator!;
    else if (req.etag) headers['If-None-Match'] = req.etag;
    if (have > 0 && validator && !complete) {
      headers.Range = `bytes=${have}-`;
      headers['If-Range'] = validator;
    }
    const res = await send(x, req.url, headers, have > 0 && !complete ? 'range' : 'whole');
    await runHook(req.hook, 'download:response', { service, file });
    if (complete && res.status === 304) {
      await runHook(req.hook, 'download:complete', { service, file });
      return { status: 'resumed', etag: validator, size: have, body_bytes: 0 };
    }
    if (res.status === 416 && have > 0) {
      await res.body?.cancel();
      have = 0;
      validator = null;
      continue;
    }
    if (res.status === 304) {
      await res.body?.cancel();
      await storage.remove(part);
      await storage.remove(metaName);
      return { status: 'not_modified', body_bytes: 0 };
    }
    let total: number;
    if (res.status === 206 && have > 0) {
      const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(res.headers.get('content-range') ?? '');
      if (!range || Number(range[1]) !== have) {
        await res.body?.cancel();
        have = 0;
        continue;
      }
      total = Number(range[3]);
      resumed = true;
    } else if (res.status === 200) {
      have = 0;
      validator = res.headers.get('etag');
      const length = res.headers.get('content-length');
      total = length === null ? req.expectedSize : Number(length);
    } else {
      await res.body?.cancel();
      throw new Refused(`HTTP ${res.status}`);
    }
    if (total !== req.expectedSize) {
      await res.body?.cancel();
      throw new Refused(`the server announces ${total} bytes, the manifest ${req.expectedSize}`);
    }
    if (validator) await storage.writeTextAtomic(metaName, JSON.stringify({ url: req.url, etag: validator, size: total } satisfies PartMeta));
    else await storage.remove(metaName);

    x.onEvent?.({ type: 'file-start', service, file, total, offset: have });
    const writer = await storage.openWriter(part, have);
    const started = Date.now();
    const startBytes = have;
    let dropped: Error | null = null;
    try {
      const reader = res.body!.getReader();
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (e) {
          dropped = e as Error;
          break;
        }
        if (chunk.done) break;
        if (have + chunk.value.length > total) {
          await reader.cancel();
          await writer.close();
          await storage.remove(part);
          await storage.remove(metaName);
          throw new Refused(`body longer than the ${total} bytes announced; file rejected`);
        }
        await writer.write(chunk.value);
        have += chunk.value.length;
        bodyBytes += chunk.value.length;
        const secs = Math.max((Date.now() - started) / 1000, 0.001);
        const rate = (have - startBytes) / secs;
        x.onEvent?.({ type: 'progress', service, file, bytes: have, total, rate, eta: rate > 0 ? (total - have) / rate : null });
        await runHook(req.hook, 'download:chunk', { service, file });
      }
    } finally {
      await writer.close().catch(() => {});
    }
    if (dropped || have < total) {
      const at = have;
      if (!validator) have = 0;
      await backoff(x, `connection dropped at byte ${at} of ${total}${dropped ? ` (${dropped.message})` : ''}`);
      continue;
    }
    await runHook(req.hook, 'download:complete', { service, file });
    return { status: resumed ? 'resumed' : 'downloaded', etag: validator, size: total, body_bytes: bodyBytes };
  }
}

function parseMeta(text: string | null): PartMeta | null {
  if (!text) return null;
  try {
    const m = JSON.parse(text) as PartMeta;
    return typeof m.url === 'string' && typeof m.etag === 'string' && typeof m.size === 'number' ? m : null;
  } catch {
    return null;
  }
}
