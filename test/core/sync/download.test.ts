import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, tempDir } from './fixture.js';
import { startPublisher, type Publisher } from '../../../src/publisher/server.js';
import { downloadPath } from '../../../src/core/contract/files.js';
import { MemoryStorage } from '../../../src/core/storage/memory.js';
import { download } from '../../../src/core/sync/download.js';
import { Crash } from '../../../src/core/sync/hooks.js';
import { RateLimiter, sleep } from '../../../src/core/sync/limits.js';
import { newExchange } from '../../../src/core/sync/request.js';
import type { SyncEvent } from '../../../src/core/sync/progress.js';
import type { RateRule } from '../../../src/core/sync/datasets.js';

const FILE = 'mf_nav_master.tsv.zip';
const MIB = 2 ** 20;

/** Every request the client makes and the status it got (instrumentation around the real fetch). */
function recordingFetch() {
  const log: { range: string | null; status: number; bytes: number }[] = [];
  const f: typeof fetch = async (url, init) => {
    const res = await fetch(url, init);
    const entry = { range: (init?.headers as Record<string, string>)?.Range ?? null, status: res.status, bytes: 0 };
    log.push(entry);
    if (!res.body) return res;
    const counted = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, c) {
          entry.bytes += chunk.length;
          c.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  return { fetch: f, log };
}

describe('download: conditional, resumable, rate-limited (real publisher on loopback)', { timeout: 300_000 }, () => {
  let pubDir: string;
  let pub: Publisher;
  let bytes: Buffer;
  let url: string;

  beforeAll(async () => {
    pubDir = path.join(tempDir('dl'), 'pub');
    await generate(pubDir, ['mf', 'flags']);
    pub = await startPublisher({ dataDir: pubDir, limits: 'off' });
    bytes = fs.readFileSync(path.join(pubDir, 'mf', FILE));
    url = `${pub.url}${downloadPath('mf', FILE)}`;
    expect(bytes.length).toBeGreaterThan(MIB);
  });
  afterAll(() => pub?.close());

  function run(storage: MemoryStorage, opts: { etag?: string | null; fetch?: typeof fetch; hook?: Parameters<typeof download>[0]['hook']; rules?: RateRule[]; events?: SyncEvent[]; size?: number; file?: string; url?: string } = {}) {
    const x = newExchange({
      service: 'mf',
      file: opts.file ?? FILE,
      limiter: new RateLimiter(opts.rules ?? []),
      fetch: opts.fetch ?? fetch,
      sleep,
      retry: { attempts: 3, baseMs: 10, maxRateLimited: 10 },
      counter: { requests: 0 },
      onEvent: (e) => opts.events?.push(e),
    });
    return download({
      x, file: opts.file ?? FILE, url: opts.url ?? url, storage, part: 'dl~mf~x.part',
      expectedSize: opts.size ?? bytes.length, etag: opts.etag ?? null, hook: opts.hook,
    });
  }

  it('downloads the exact bytes with progress, then a conditional GET costs no body', async () => {
    pub.setFaults('');
    const storage = new MemoryStorage();
    const events: SyncEvent[] = [];
    const got = await run(storage, { events });
    expect(got.status).toBe('downloaded');
    expect(Buffer.from(storage.files.get('dl~mf~x.part')!).equals(bytes)).toBe(true);
    const last = events.filter((e) => e.type === 'progress').at(-1);
    expect(last).toMatchObject({ bytes: bytes.length, total: bytes.length });
    const rec = recordingFetch();
    const again = await run(new MemoryStorage(), { etag: got.status === 'downloaded' ? got.etag : null, fetch: rec.fetch });
    expect(again).toEqual({ status: 'not_modified', body_bytes: 0 });
    expect(rec.log).toEqual([{ range: null, status: 304, bytes: 0 }]);
  });

  it('a connection dropped at byte k resumes with Range: at most (size − k) + 1 MiB more, no byte fetched twice', async () => {
    const k = 400_000;
    pub.setFaults(`drop-after=${k}@first:1`);
    const storage = new MemoryStorage();
    const rec = recordingFetch();
    const got = await run(storage, { fetch: rec.fetch });
    expect(got.status).toBe('resumed');
    expect(Buffer.from(storage.files.get('dl~mf~x.part')!).equals(bytes)).toBe(true);
    expect(rec.log).toHaveLength(2);
    expect(rec.log[1].status).toBe(206);
    expect(rec.log[1].range).toBe(`bytes=${rec.log[0].bytes}-`);
    expect(rec.log[1].bytes).toBeLessThanOrEqual(bytes.length - k + MIB);
    expect(got.status === 'resumed' && got.body_bytes).toBe(bytes.length);
  });

  it('a body that ends early (short body) is resumed the same way', async () => {
    pub.setFaults('short-body=300000@first:1');
    const storage = new MemoryStorage();
    const got = await run(storage);
    expect(got.status).toBe('resumed');
    expect(Buffer.from(storage.files.get('dl~mf~x.part')!).equals(bytes)).toBe(true);
  });

  it('a process that died mid-download resumes from the bytes it had stored', async () => {
    pub.setFaults('');
    const storage = new MemoryStorage();
    let seen = 0;
    await expect(
      run(storage, {
        hook: (step) => {
          if (step === 'download:chunk' && ++seen === 3) throw new Error('killed');
        },
      }),
    ).rejects.toBeInstanceOf(Crash);
    const stored = storage.files.get('dl~mf~x.part')!.length;
    expect(stored).toBeGreaterThan(0);
    expect(stored).toBeLessThan(bytes.length);
    const rec = recordingFetch();
    const got = await run(storage, { fetch: rec.fetch });
    expect(got).toMatchObject({ status: 'resumed', body_bytes: bytes.length - stored });
    expect(rec.log.map((r) => r.status)).toEqual([206]);
    expect(Buffer.from(storage.files.get('dl~mf~x.part')!).equals(bytes)).toBe(true);
  });

  it('a process that died right after the last byte confirms the part with one 304, no body', async () => {
    pub.setFaults('');
    const storage = new MemoryStorage();
    await expect(
      run(storage, {
        hook: (step) => {
          if (step === 'download:complete') throw new Error('killed');
        },
      }),
    ).rejects.toBeInstanceOf(Crash);
    const rec = recordingFetch();
    const got = await run(storage, { fetch: rec.fetch });
    expect(got).toMatchObject({ status: 'resumed', body_bytes: 0, size: bytes.length });
    expect(rec.log.map((r) => r.status)).toEqual([304]);
    expect(Buffer.from(storage.files.get('dl~mf~x.part')!).equals(bytes)).toBe(true);
  });

  it('an ETag that changes mid-download restarts cleanly from byte 0', async () => {
    pub.setFaults('drop-after=200000@first:1,etag-change-after=100000@first:1');
    const storage = new MemoryStorage();
    const rec = recordingFetch();
    const got = await run(storage, { fetch: rec.fetch });
    expect(got.status).toBe('downloaded');
    expect(rec.log.map((r) => r.status)).toEqual([200, 200]);
    expect(rec.log[1].range).not.toBeNull();
    expect(Buffer.from(storage.files.get('dl~mf~x.part')!).equals(bytes)).toBe(true);
  });

  it('5xx is retried with backoff; a server that keeps failing fails the file with a clear message', async () => {
    pub.setFaults('status=503@first:2');
    const ok = await run(new MemoryStorage());
    expect(ok.status).toBe('downloaded');
    pub.setFaults('status=502');
    await expect(run(new MemoryStorage())).rejects.toThrow(/HTTP 502 \(gave up after 3 retries\)/);
    pub.setFaults('');
  });

  it('refuses a file whose size differs from the manifest', async () => {
    await expect(run(new MemoryStorage(), { size: bytes.length - 1 })).rejects.toThrow(/announces \d+ bytes, the manifest \d+/);
  });

  it('cuts off a body longer than announced and rejects the file', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { ETag: '"x"' }); // no Content-Length: chunked, so only the manifest bounds it
      res.write(Buffer.alloc(5000, 1));
      res.end(Buffer.alloc(5000, 2));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const storage = new MemoryStorage();
    try {
      const port = (server.address() as AddressInfo).port;
      await expect(run(storage, { url: `http://127.0.0.1:${port}/f`, size: 6000 })).rejects.toThrow(/body longer than the 6000 bytes announced/);
      expect(storage.files.size).toBe(0);
    } finally {
      server.close();
    }
  });
});

describe('rate limits (publisher enforcing them, windows shortened)', { timeout: 300_000 }, () => {
  let pubDir: string;
  let pub: Publisher;
  const WINDOW = 1500;
  const names = ['credit_ratings', 'insider_trading', 'pledge_data', 'sast_disclosures', 'encumbrance_events', 'surveillance_flags', 'rpt_transactions'].map((t) => `${t}.parquet`);

  beforeAll(async () => {
    pubDir = path.join(tempDir('limits'), 'pub');
    await generate(pubDir, ['flags']);
    pub = await startPublisher({ dataDir: pubDir, limits: { minute: WINDOW } });
  });
  afterAll(() => pub?.close());

  /** `handover`: the second round's limiter is a new one seeded with the first's times, as the browser's next sync worker is. */
  async function fetchAll(rules: RateRule[], events: SyncEvent[], handover = false) {
    const rec = recordingFetch();
    let limiter = new RateLimiter(rules);
    // Two rounds of the seven tables: 14 downloads against a limit of 10 per window.
    for (const [i, name] of [...names, ...names].entries()) {
      if (handover && i === names.length) limiter = new RateLimiter(rules, Date.now, limiter.times());
      const size = fs.statSync(path.join(pubDir, 'flags', name)).size;
      const x = newExchange({ service: 'flags', file: name, limiter, fetch: rec.fetch, sleep, retry: { attempts: 3, baseMs: 10, maxRateLimited: 20 }, counter: { requests: 0 }, onEvent: (e) => events.push(e) });
      const got = await download({ x, file: name, url: `${pub.url}${downloadPath('flags', name)}`, storage: new MemoryStorage(), part: 'p', expectedSize: size, etag: null });
      expect(got.status).toBe('downloaded');
    }
    return rec.log;
  }

  it('the client-side limiter keeps under the published limit: no 429 at all', async () => {
    pub.resetLimits();
    const events: SyncEvent[] = [];
    const log = await fetchAll([{ limit: 10, windowMs: WINDOW, kind: 'any' }], events);
    expect(log.filter((r) => r.status === 429)).toEqual([]);
    expect(log).toHaveLength(14);
    expect(events.some((e) => e.type === 'waiting' && e.reason === 'rate-limit')).toBe(true);
  });

  it('a limiter seeded with an ended one\'s request times keeps its budget: no 429 across the handover', async () => {
    await new Promise((r) => setTimeout(r, WINDOW + 200));
    pub.resetLimits();
    const events: SyncEvent[] = [];
    const log = await fetchAll([{ limit: 10, windowMs: WINDOW, kind: 'any' }], events, true);
    expect(log.filter((r) => r.status === 429)).toEqual([]);
    expect(log).toHaveLength(14);
    expect(events.some((e) => e.type === 'waiting' && e.reason === 'rate-limit')).toBe(true);
  });

  it('on 429 the client waits Retry-After (with a countdown) and continues', async () => {
    await new Promise((r) => setTimeout(r, WINDOW + 200));
    pub.resetLimits();
    const events: SyncEvent[] = [];
    const log = await fetchAll([], events);
    expect(log.filter((r) => r.status === 429).length).toBeGreaterThan(0);
    expect(log.filter((r) => r.status === 200)).toHaveLength(14);
    expect(events.some((e) => e.type === 'waiting' && e.reason === 'retry-after' && e.seconds >= 1)).toBe(true);
  });
});
