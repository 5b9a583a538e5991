import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Timing statistics over repeats, in milliseconds. */
export interface Stats {
  median: number;
  min: number;
  max: number;
  p90: number;
  n: number;
}

export function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))];
  return { median: q(0.5), min: s[0], max: s[s.length - 1], p90: q(0.9), n: s.length };
}

/** Runs `fn` `repeats` times after `warmup` unmeasured runs. */
export async function time(fn: () => Promise<unknown>, repeats = 7, warmup = 1): Promise<Stats> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < repeats; i++) samples.push((await measure(fn)).wall);
  return stats(samples);
}

/**
 * One call's wall time and this process's CPU time (user + system, all its threads). On a shared,
 * loaded machine the wall time mostly measures the scheduler; the CPU time is the work done.
 */
export async function measure(fn: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 };
}

/**
 * Runs `fn` in batches of 10 calls until three batches in a row bring its median CPU time no more
 * than 5 % below the best so far (at least 2 s of CPU, at most 10 s). DuckDB-WASM's 34 MB module
 * starts in V8's baseline tier; the functions a query keeps calling are recompiled optimised in the
 * background, in steps, and a case reaches its steady cost only after tens of calls (measured: one
 * scheme's NAV history 56 ms CPU over its first 10 calls, 10-15 ms over the next 50, ~7 ms after 90).
 */
export async function warmUp(fn: () => Promise<unknown>, minCpuMs = 2000, maxCpuMs = 10_000): Promise<number> {
  const start = process.cpuUsage();
  const spent = () => {
    const c = process.cpuUsage(start);
    return (c.user + c.system) / 1000;
  };
  let best = Infinity;
  let stale = 0;
  let calls = 0;
  for (;;) {
    const batch: number[] = [];
    for (let i = 0; i < 10; i++, calls++) batch.push((await measure(fn)).cpu);
    const median = stats(batch).median;
    stale = median < 0.95 * best ? 0 : stale + 1;
    best = Math.min(best, median);
    if (spent() >= maxCpuMs || (stale >= 3 && spent() >= minCpuMs)) return calls;
  }
}

/**
 * Wall and CPU time per call of `a` and `b`, in alternating runs of `run` calls each: on a shared
 * machine whose speed drifts over minutes both see the same machine, so their ratio holds, while
 * most calls still find the CPU caches as their own previous call left them (alternating every
 * call made both ~40 % slower).
 */
export async function interleaved(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  repeats: number,
  run = 5,
): Promise<[{ wall: Stats; cpu: Stats }, { wall: Stats; cpu: Stats }]> {
  const ma: { wall: number; cpu: number }[] = [];
  const mb: { wall: number; cpu: number }[] = [];
  while (ma.length < repeats) {
    for (let i = 0; i < run && ma.length < repeats; i++) ma.push(await measure(a));
    for (let i = 0; i < run && mb.length < repeats; i++) mb.push(await measure(b));
  }
  const both = (m: { wall: number; cpu: number }[]) => ({ wall: stats(m.map((x) => x.wall)), cpu: stats(m.map((x) => x.cpu)) });
  return [both(ma), both(mb)];
}

/** Samples this process's RSS while `fn` runs; returns its peak in MB. */
export async function peakRss<T>(fn: () => Promise<T>): Promise<{ value: T; peakMb: number }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50);
  try {
    const value = await fn();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { value, peakMb: Math.round(peak / 1048576) };
  } finally {
    clearInterval(timer);
  }
}

/** One measured case next to its reference from the same run. */
export interface BenchResult {
  case: string;
  unit: 'ms' | 'MB' | 'bytes' | 'requests' | 'x';
  /** What `almanac` and `reference` measure for a timed case: CPU time per call, or wall time. */
  measure?: 'cpu' | 'wall';
  /** The wall times of a case measured by CPU time, for the record. */
  wall?: { almanac: Stats; reference?: Stats };
  almanac: Stats | number;
  reference?: { name: string; value: Stats | number };
  /** almanac / reference (lower is better) unless stated in `note`. */
  ratio?: number;
  target?: string;
  met?: boolean;
  note?: string;
  /** Raw figures behind the row (per-step memory, events, samples), kept in the JSON only. */
  detail?: unknown;
}

const med = (v: Stats | number) => (typeof v === 'number' ? v : v.median);

export function ratio(almanac: Stats | number, reference: Stats | number): number {
  return Math.round((med(almanac) / med(reference)) * 100) / 100;
}

export function printTable(results: BenchResult[]): void {
  const rows = results.map((r) => [
    r.case,
    `${fmt(med(r.almanac))} ${r.unit}${r.measure === 'cpu' ? ' cpu' : ''}`,
    r.reference ? `${fmt(med(r.reference.value))} ${r.unit} (${r.reference.name})` : '',
    r.ratio === undefined ? '' : `${r.ratio}×`,
    r.target ?? '',
    r.met === undefined ? '' : r.met ? 'met' : 'MISSED',
  ]);
  const head = ['case', 'almanac', 'reference', 'ratio', 'target', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  console.log(line(head));
  for (const r of rows) console.log(line(r));
}

function fmt(n: number): string {
  return n >= 100 ? n.toFixed(0) : n >= 1 ? n.toFixed(1) : n.toFixed(3);
}

export function writeResults(name: string, payload: unknown): string {
  const dir = path.join(process.cwd(), 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(payload, null, 2));
  return file;
}
