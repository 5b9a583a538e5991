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
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return stats(samples);
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
    `${fmt(med(r.almanac))} ${r.unit}`,
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
