import type { RateRule, RequestKind } from './datasets.js';

export type Sleep = (ms: number, onTick?: (left: number) => void) => Promise<void>;

/** Sleeps in one-second steps so a countdown can be shown. */
export const sleep: Sleep = async (ms, onTick) => {
  let left = ms;
  while (left > 0) {
    onTick?.(Math.ceil(left / 1000));
    const step = Math.min(left, 1000);
    await new Promise((r) => setTimeout(r, step));
    left -= step;
  }
};

/**
 * A client-side limiter per service: a sliding-window log per rule, so no window of `windowMs`
 * ever holds more than `limit` requests, whatever window the server counts in.
 */
export class RateLimiter {
  private readonly log = new Map<RateRule, number[]>();

  constructor(
    private readonly rules: readonly RateRule[],
    private readonly now: () => number = Date.now,
    /** Request times per rule (in `rules` order) that an earlier limiter recorded (see `times`). */
    seed?: readonly (readonly number[])[],
  ) {
    rules.forEach((rule, i) => this.log.set(rule, [...(seed?.[i] ?? [])]));
  }

  /** The request times still inside each rule's window, in `rules` order: what a successor is seeded with. */
  times(): number[][] {
    const t = this.now();
    return this.rules.map((rule) => [...this.prune(rule, t)]);
  }

  /** Milliseconds until a request of `kind` may go out (0: now). */
  delay(kind: RequestKind): number {
    let wait = 0;
    const t = this.now();
    for (const rule of this.applicable(kind)) {
      const times = this.prune(rule, t);
      if (times.length >= rule.limit) wait = Math.max(wait, times[times.length - rule.limit] + rule.windowMs - t + margin(rule));
    }
    return wait;
  }

  /** Waits for a slot, then records the request. */
  async acquire(kind: RequestKind, wait: Sleep, onWait?: (seconds: number) => void): Promise<void> {
    for (let d = this.delay(kind); d > 0; d = this.delay(kind)) await wait(d, onWait);
    const t = this.now();
    for (const rule of this.applicable(kind)) this.prune(rule, t).push(t);
  }

  private applicable(kind: RequestKind): RateRule[] {
    return this.rules.filter((r) => r.kind === 'any' || r.kind === kind);
  }

  private prune(rule: RateRule, t: number): number[] {
    const times = (this.log.get(rule) ?? []).filter((x) => x > t - rule.windowMs);
    this.log.set(rule, times);
    return times;
  }
}

/** Slack for the server's clock and the request's travel time: the server's window opens on arrival. */
function margin(rule: RateRule): number {
  return Math.max(100, Math.ceil(rule.windowMs / 100));
}
