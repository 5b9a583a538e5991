/**
 * Fault injection for the stand-in publisher, so sync can be tested against a misbehaving server.
 *
 * Spec string: faults separated by commas; each `name=value` optionally followed by `@key:value`
 * qualifiers (see docs/publisher.md):
 *   drop-after=65536          destroy the connection after 65536 body bytes
 *   short-body=1000           send 1000 body bytes, then end the response cleanly (Content-Length stays full)
 *   throttle=1mbps            pace bodies (bps, kbps, mbps: bits per second, 1000-based)
 *   status=503@every:3        answer every 3rd request with 503 (also 500, 502, 504)
 *   etag-change-after=4096    once 4096 body bytes of a response are sent, every ETag changes
 * Qualifiers: `@every:N` (each Nth matching request), `@first:N` (the first N), `@target:downloads`
 * (default: file downloads), `@target:manifests`, `@target:all` (manifests and downloads).
 */

export type FaultKind = 'drop-after' | 'short-body' | 'throttle' | 'status' | 'etag-change-after';
export type FaultTarget = 'downloads' | 'manifests' | 'all';

export interface Fault {
  kind: FaultKind;
  /** Bytes for drop-after/short-body/etag-change-after, bytes per second for throttle, the status code for status. */
  value: number;
  every?: number;
  first?: number;
  target: FaultTarget;
}

const KINDS: readonly FaultKind[] = ['drop-after', 'short-body', 'throttle', 'status', 'etag-change-after'];
const STATUSES = [500, 502, 503, 504];
const RATE = /^(\d+(?:\.\d+)?)(bps|kbps|mbps)$/i;
const RATE_UNIT: Record<string, number> = { bps: 1, kbps: 1e3, mbps: 1e6 };

export function parseFaults(spec: string): Fault[] {
  return spec
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map(parseOne);
}

function parseOne(text: string): Fault {
  const [head, ...quals] = text.split('@');
  const eq = head.indexOf('=');
  if (eq < 0) throw new Error(`fault '${text}': expected name=value`);
  const kind = head.slice(0, eq).trim() as FaultKind;
  const raw = head.slice(eq + 1).trim();
  if (!KINDS.includes(kind)) throw new Error(`fault '${text}': unknown fault '${kind}' (known: ${KINDS.join(', ')})`);
  const fault: Fault = { kind, value: parseValue(kind, raw, text), target: 'downloads' };
  for (const q of quals) {
    const [key, val] = q.split(':').map((s) => s.trim());
    if (key === 'every' || key === 'first') {
      const n = Number(val);
      if (!Number.isInteger(n) || n < 1) throw new Error(`fault '${text}': @${key} needs a positive integer`);
      fault[key] = n;
    } else if (key === 'target' && (val === 'downloads' || val === 'manifests' || val === 'all')) {
      fault.target = val;
    } else {
      throw new Error(`fault '${text}': unknown qualifier '@${q}' (every:N, first:N, target:downloads|manifests|all)`);
    }
  }
  return fault;
}

function parseValue(kind: FaultKind, raw: string, text: string): number {
  if (kind === 'throttle') {
    const m = RATE.exec(raw);
    if (!m) throw new Error(`fault '${text}': throttle needs a rate like 1mbps, 256kbps or 8000bps`);
    const bytesPerSecond = (Number(m[1]) * RATE_UNIT[m[2].toLowerCase()]) / 8;
    if (bytesPerSecond < 1) throw new Error(`fault '${text}': rate below 1 byte per second`);
    return bytesPerSecond;
  }
  const n = Number(raw);
  if (kind === 'status') {
    if (!STATUSES.includes(n)) throw new Error(`fault '${text}': status must be one of ${STATUSES.join(', ')}`);
    return n;
  }
  if (!Number.isInteger(n) || n < 0) throw new Error(`fault '${text}': ${kind} needs a byte count`);
  return n;
}

/** What the faults say about one response. */
export interface FaultPlan {
  status?: number;
  dropAfter?: number;
  shortBody?: number;
  bytesPerSecond?: number;
  etagChangeAfter?: number;
}

/**
 * Holds the active faults and counts the requests each one has seen, so `every`/`first` are per
 * fault. The ETag salt lives here too: `etag-change-after` bumps it and every later ETag differs.
 */
export class FaultState {
  private faults: { fault: Fault; seen: number }[] = [];
  etagSalt = 0;

  constructor(faults: Fault[] = []) {
    this.set(faults);
  }

  set(faults: Fault[]): void {
    this.faults = faults.map((fault) => ({ fault, seen: 0 }));
  }

  get active(): Fault[] {
    return this.faults.map((f) => f.fault);
  }

  plan(target: 'downloads' | 'manifests'): FaultPlan {
    const plan: FaultPlan = {};
    for (const f of this.faults) {
      if (f.fault.target !== 'all' && f.fault.target !== target) continue;
      f.seen++;
      const { every, first } = f.fault;
      if (every !== undefined && f.seen % every !== 0) continue;
      if (first !== undefined && f.seen > first) continue;
      switch (f.fault.kind) {
        case 'status':
          plan.status = f.fault.value;
          break;
        case 'drop-after':
          plan.dropAfter = f.fault.value;
          break;
        case 'short-body':
          plan.shortBody = f.fault.value;
          break;
        case 'throttle':
          plan.bytesPerSecond = f.fault.value;
          break;
        case 'etag-change-after':
          plan.etagChangeAfter = f.fault.value;
          break;
      }
    }
    return plan;
  }
}
