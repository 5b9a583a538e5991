import { readFileSync } from 'node:fs';
import type { Browser, CDPSession } from 'playwright-core';

/** Resident memory of one Chromium process, in MB, from /proc (Linux). */
interface ProcMem {
  pid: number;
  type: string;
  rss: number;
  /** Anonymous memory: heaps, WebAssembly memories, Arrow buffers (not shared libraries). */
  anon: number;
  /** File-backed pages: mostly Chromium's own code, shared by all its processes. */
  file: number;
}

function procStatus(pid: number, type: string): ProcMem | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null; // gone between the listing and the read
  }
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
  return { pid, type, rss: kb('VmRSS') / 1024, anon: kb('RssAnon') / 1024, file: kb('RssFile') / 1024 };
}

/** One reading: the tab (the largest renderer: the page and its dedicated workers share it), all renderers, all of Chromium. */
export interface MemReading {
  tab: number;
  tabAnon: number;
  tabFile: number;
  renderers: number;
  chromium: number;
}

/** Peaks over a span of time (one step of a case). */
export interface MemSpan extends MemReading {
  label: string;
  ms: number;
}

const round = (n: number) => Math.round(n);

/**
 * Samples the resident memory of a Chromium instance's processes (listed by CDP SystemInfo) every
 * `everyMs`, keeping peaks per span. A page's dedicated workers (DuckDB, the sync) run as threads of
 * its renderer process, so that process's RSS is the tab's memory, WebAssembly heaps included — which
 * CDP's JS-heap metrics leave out. The kernel's high-water mark (VmHWM) is no cross-check: Chromium
 * resets it (a renderer showed a high-water mark of 680 MB after a sampled 1,051 MB).
 */
export class ChromiumMemory {
  private procs: { pid: number; type: string }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private listed = 0;
  private peak: MemReading = { tab: 0, tabAnon: 0, tabFile: 0, renderers: 0, chromium: 0 };
  private spanStart = performance.now();
  readonly spans: MemSpan[] = [];
  /** The tab's RSS about once a second since attach: whether memory plateaus or keeps growing. */
  readonly timeline: { s: number; tab: number }[] = [];
  private readonly attachedAt = performance.now();

  private constructor(private readonly cdp: CDPSession) {}

  static async attach(browser: Browser, everyMs = 100): Promise<ChromiumMemory> {
    const m = new ChromiumMemory(await browser.newBrowserCDPSession());
    await m.list();
    m.timer = setInterval(() => void m.sample(), everyMs);
    return m;
  }

  private async list(): Promise<void> {
    const info = (await this.cdp.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; id: number }[] };
    this.procs = info.processInfo.map((p) => ({ pid: p.id, type: p.type }));
    this.listed = performance.now();
  }

  /** Every process now, as read from /proc. */
  private read(): ProcMem[] {
    return this.procs.map((p) => procStatus(p.pid, p.type)).filter((p): p is ProcMem => p !== null);
  }

  now(): MemReading {
    const all = this.read();
    const renderers = all.filter((p) => p.type === 'renderer');
    const tab = renderers.reduce<ProcMem | null>((a, p) => (a && a.rss >= p.rss ? a : p), null);
    return {
      tab: tab?.rss ?? 0,
      tabAnon: tab?.anon ?? 0,
      tabFile: tab?.file ?? 0,
      renderers: renderers.reduce((s, p) => s + p.rss, 0),
      chromium: all.reduce((s, p) => s + p.rss, 0),
    };
  }

  private async sample(): Promise<void> {
    // New processes appear (a service worker, a navigation's renderer): list again now and then.
    if (performance.now() - this.listed > 2000) await this.list().catch(() => undefined);
    const r = this.now();
    const s = Math.floor((performance.now() - this.attachedAt) / 1000);
    if (this.timeline.length === 0 || this.timeline[this.timeline.length - 1].s < s) this.timeline.push({ s, tab: round(r.tab) });
    this.peak = {
      tab: Math.max(this.peak.tab, r.tab),
      tabAnon: Math.max(this.peak.tabAnon, r.tabAnon),
      tabFile: Math.max(this.peak.tabFile, r.tabFile),
      renderers: Math.max(this.peak.renderers, r.renderers),
      chromium: Math.max(this.peak.chromium, r.chromium),
    };
  }

  /** Closes the span that began at the previous mark (or at attach): its peaks and duration. */
  async mark(label: string): Promise<MemSpan> {
    await this.sample();
    const span: MemSpan = {
      label,
      ms: Math.round(performance.now() - this.spanStart),
      tab: round(this.peak.tab),
      tabAnon: round(this.peak.tabAnon),
      tabFile: round(this.peak.tabFile),
      renderers: round(this.peak.renderers),
      chromium: round(this.peak.chromium),
    };
    this.spans.push(span);
    this.peak = { tab: 0, tabAnon: 0, tabFile: 0, renderers: 0, chromium: 0 };
    this.spanStart = performance.now();
    return span;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.cdp.detach().catch(() => undefined);
  }
}

/**
 * CPU seconds used so far by each process of a Chromium instance (CDP SystemInfo.getProcessInfo).
 * The difference of two readings is the work a span cost whatever else the machine was doing: a
 * figure the load on a shared machine does not inflate the way it inflates wall time.
 */
export async function cpuTimes(cdp: CDPSession): Promise<Map<number, number>> {
  const info = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: { id: number; cpuTime: number }[] };
  return new Map(info.processInfo.map((p) => [p.id, p.cpuTime]));
}

/** CPU milliseconds between two readings, over every process (one that appeared in between counts from 0). */
export function cpuSpent(before: Map<number, number>, after: Map<number, number>): number {
  let s = 0;
  for (const [pid, t] of after) s += t - (before.get(pid) ?? 0);
  return Math.round(s * 1000);
}
