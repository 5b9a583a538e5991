import type { RequestKind, Service } from './datasets.js';
import type { RateLimiter, Sleep } from './limits.js';
import type { SyncListener } from './progress.js';
import { Cancelled } from './hooks.js';

export interface RetryPolicy {
  /** Attempts after a 5xx or a network error before the file fails. */
  attempts: number;
  baseMs: number;
  /** 429s one file may meet before it fails. */
  maxRateLimited: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseMs: 500, maxRateLimited: 10 };

/** Everything one HTTP exchange with a publisher needs; `failures` persists across a file's attempts. */
export interface Exchange {
  service: Service;
  /** Manifest file name, or null for the manifest itself. */
  file: string | null;
  limiter: RateLimiter;
  fetch: typeof fetch;
  sleep: Sleep;
  retry: RetryPolicy;
  onEvent?: SyncListener;
  counter: { requests: number };
  failures: number;
  /** Aborts the request in flight and every wait; the sync stops with `Cancelled`. */
  signal?: AbortSignal;
}

/** Thrown for what retrying cannot fix (wrong size, 4xx, too many failures). */
export class Refused extends Error {}

export function newExchange(base: Omit<Exchange, 'failures'>): Exchange {
  return { ...base, failures: 0 };
}

/** Waits out a failure with exponential backoff, or gives up with `why`. */
export async function backoff(x: Exchange, why: string): Promise<void> {
  // An aborted fetch or body read looks like a network error: it must stop, not retry or fail a file.
  if (x.signal?.aborted) throw new Cancelled();
  if (++x.failures > x.retry.attempts) throw new Refused(`${why} (gave up after ${x.retry.attempts} retries)`);
  await wait(x, x.retry.baseMs * 2 ** (x.failures - 1), 'backoff');
}

function wait(x: Exchange, ms: number, reason: 'retry-after' | 'backoff' | 'rate-limit') {
  return x.sleep(ms, (seconds) => x.onEvent?.({ type: 'waiting', service: x.service, file: x.file, reason, seconds }));
}

/**
 * One request within the service's rate budget: waits for a slot, waits out 429 (Retry-After),
 * retries 5xx and network errors with backoff. Returns the first other response.
 */
export async function send(x: Exchange, url: string, headers: Record<string, string>, kind: RequestKind): Promise<Response> {
  let limited = 0;
  for (;;) {
    await x.limiter.acquire(kind, x.sleep, (s) => x.onEvent?.({ type: 'waiting', service: x.service, file: x.file, reason: 'rate-limit', seconds: s }));
    x.counter.requests++;
    let res: Response;
    try {
      // The sync keeps its own copies and validators: a browser's HTTP cache would keep a second copy of
      // every file (the 99 MB history included), or answer from a stale one (a query answer with only
      // Last-Modified is cacheable by heuristics).
      res = await x.fetch(url, { headers, signal: x.signal, cache: 'no-store' });
    } catch (e) {
      await backoff(x, `network error: ${(e as Error).message}`);
      continue;
    }
    if (res.status === 429) {
      await res.body?.cancel();
      if (++limited > x.retry.maxRateLimited) throw new Refused(`still rate-limited after ${limited - 1} waits`);
      await wait(x, retryAfterMs(res.headers.get('retry-after')), 'retry-after');
      continue;
    }
    if (res.status >= 500) {
      await res.body?.cancel();
      await backoff(x, `HTTP ${res.status}`);
      continue;
    }
    return res;
  }
}

function retryAfterMs(h: string | null): number {
  const s = h === null || h.trim() === '' ? NaN : Number(h);
  if (Number.isFinite(s) && s >= 0) return Math.min(s, 3600) * 1000;
  const at = h ? Date.parse(h) : NaN;
  return Number.isFinite(at) ? Math.max(0, Math.min(at - Date.now(), 3_600_000)) : 60_000;
}
