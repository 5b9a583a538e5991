/**
 * Per-IP rate limits as the specs publish them. Fixed windows that open on an IP's first request in
 * a bucket; a request that would exceed any of its bucket's windows is refused and not counted.
 * The window lengths are configurable (tests use short ones); the published numbers are not.
 */
import { INDICATOR_LIMITS } from '../core/contract/indicators.js';
import { FLAGS_LIMITS as FLAG_LIMITS } from '../core/contract/flags.js';
import { MF_LIMITS } from '../core/contract/mf-params.js';

export type Period = 'minute' | 'day';

export interface WindowLimit {
  period: Period;
  limit: number;
}

export type BucketName =
  | 'indicators-requests'
  | 'indicators-downloads'
  | 'mf-requests'
  | 'mf-whole'
  | 'mf-range'
  | 'flags-queries'
  | 'flags-downloads';

export const BUCKETS: Readonly<Record<BucketName, readonly WindowLimit[]>> = {
  'indicators-requests': [{ period: 'minute', limit: INDICATOR_LIMITS.per_ip_per_minute }],
  'indicators-downloads': [{ period: 'minute', limit: INDICATOR_LIMITS.per_ip_downloads_per_minute }],
  'mf-requests': [{ period: 'minute', limit: MF_LIMITS.requestsPerMinute }],
  'mf-whole': [
    { period: 'minute', limit: MF_LIMITS.downloadsWholePerMinute },
    { period: 'day', limit: MF_LIMITS.downloadsWholePerDay },
  ],
  'mf-range': [
    { period: 'minute', limit: MF_LIMITS.downloadsRangePerMinute },
    { period: 'day', limit: MF_LIMITS.downloadsRangePerDay },
  ],
  'flags-queries': [{ period: 'minute', limit: FLAG_LIMITS.queriesPerMinute }],
  'flags-downloads': [{ period: 'minute', limit: FLAG_LIMITS.downloadsPerMinute }],
};

export interface WindowMs {
  minute: number;
  day: number;
}
export const SPEC_WINDOWS: WindowMs = { minute: 60_000, day: 86_400_000 };

export interface WindowState {
  period: Period;
  limit: number;
  remaining: number;
  /** Window length in seconds, for X-RateLimit-Window headers. */
  windowSeconds: number;
  /** When the current window ends (Unix epoch seconds), for X-RateLimit-Reset headers. */
  resetEpochSeconds: number;
}

export type Decision =
  | { allowed: true; windows: WindowState[] }
  | { allowed: false; windows: WindowState[]; retryAfterSeconds: number; exceeded: WindowLimit };

export class RateLimiter {
  private readonly counters = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly windowMs: WindowMs = SPEC_WINDOWS,
    private readonly now: () => number = Date.now,
  ) {}

  take(ip: string, bucket: BucketName): Decision {
    const t = this.now();
    const entries = BUCKETS[bucket].map((w) => {
      const key = `${ip}|${bucket}|${w.period}`;
      let c = this.counters.get(key);
      if (!c || t >= c.start + this.windowMs[w.period]) {
        c = { start: t, count: 0 };
        this.counters.set(key, c);
      }
      return { w, c };
    });
    const full = entries.filter(({ w, c }) => c.count >= w.limit);
    if (full.length === 0) for (const { c } of entries) c.count++;
    const windows = entries.map(({ w, c }) => ({
      period: w.period,
      limit: w.limit,
      remaining: Math.max(0, w.limit - c.count),
      windowSeconds: Math.round(this.windowMs[w.period] / 1000),
      resetEpochSeconds: Math.ceil((c.start + this.windowMs[w.period]) / 1000),
    }));
    if (full.length === 0) return { allowed: true, windows };
    const waits = full.map(({ w, c }) => c.start + this.windowMs[w.period] - t);
    const longest = waits.indexOf(Math.max(...waits));
    return {
      allowed: false,
      windows,
      retryAfterSeconds: Math.max(1, Math.ceil(waits[longest] / 1000)),
      exceeded: full[longest].w,
    };
  }

  reset(): void {
    this.counters.clear();
  }
}
