/**
 * The app's half of `npm run bench`: the built app in Chromium (playwright-core, Debian's binary),
 * serving the stand-in publisher through the app server on loopback, one persistent profile for the
 * run (OPFS, IndexedDB, the service worker), a fresh browser process per phase so each phase's peak
 * memory is its own:
 * 1. sync: the full MF history downloaded and ingested into OPFS by the app's sync worker, next to
 *    native DuckDB loading the same parquet and Almanac's Node ingest (measured by run.ts);
 * 2. query: tab memory while the views ask the full history (NAV histories, a search, SQL), next to
 *    native DuckDB asking the same, and the SQL grid's frame times scrolling 1M rows;
 * 3. start: navigation to a deep link until its first chart is drawn, cold and warm.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { PROXY, serveApp, type AppServer } from '../src/cli/app-server.js';
import { manifestPath } from '../src/core/contract/files.js';
import { hasChromium, launch, type Session } from '../test/e2e/browser.js';
import { ANSWERS_DB, KEPT_ANSWERS } from '../test/e2e/kept-answers.js';
import { ChromiumMemory, cpuSpent, cpuTimes, type MemReading } from './chromium-memory.js';
import { PROBES, SCROLL } from './chromium-probes.js';
import { appBuild, bundleCase } from './bundle.js';
import { PICK_SQL } from './mf.js';
import { NativeEngine } from './native-engine.js';
import { ratio, stats, type BenchResult, type Stats } from './lib.js';

/** What one measured child job reports (bench/child.ts). */
export interface ChildResult {
  ms: number;
  maxRssMb: number;
  /** User + system CPU time of the child process. */
  cpuMs: number;
  steps?: { label: string; ms: number }[];
}

export interface ChromiumRun {
  repeats: number;
  wants: (name: string) => boolean;
  /** Where the benchmark's own build of the app goes. */
  appDir: string;
  publisherUrl: string;
  /** The Node store of this run: the picks and the native references read it. */
  storeDir: string;
  parquetFile: string;
  child: (...argv: string[]) => Promise<ChildResult>;
  /** Measured by run.ts's Node ingest when it ran; measured here otherwise. */
  ingest: { node?: ChildResult; native?: ChildResult; nativeOne?: ChildResult };
  /**
   * A Chromium profile to use and keep (`--profile DIR`, for working on one case): the app is then
   * served on a fixed port, so the profile's origin, and its synced data, stay the same across runs,
   * and a profile whose data is current skips the sync.
   */
  profile?: string;
}

/**
 * The port a kept profile's app is served on: fixed per profile directory (its OPFS belongs to that
 * origin), so runs on different profiles, e.g. two worktrees benchmarking at once, do not collide.
 */
export function keptProfilePort(profile: string): number {
  let h = 0;
  for (const c of path.resolve(profile)) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return 41000 + (h % 8000);
}

/** The questions the memory case asks; the native reference child asks the same (child.ts). */
export interface QueryPlan {
  navCodes: string[];
  search: [string, string][];
  sql: { label: string; sql: string }[];
}

interface Picks {
  plan: QueryPlan;
  /** The indicators deep link: a category and two of its ids. */
  indicators: { category: string; ids: string[] };
}

/** The app's config: every source through the app server's proxy to the run's publisher. */
export const SOURCES = { sources: { indicators: PROXY, mf: PROXY, flags: PROXY } };
const SEARCH: [string, string][] = [['group', 'equity'], ['plan', 'direct'], ['option', 'growth']];
const GRID_ROWS = 1_000_000;
const REF_ROWS = 1_000;

interface Bench {
  sync: { at: number; type: string; file?: string; table?: string; rows?: number; status?: string; outcome?: string; message?: string; body_bytes?: number; detail?: string }[];
  sent: number | null;
  chart: number | null;
  ready: number | null;
  charts: number;
}
const bench = (page: Page) => page.evaluate('window.__bench') as Promise<Bench>;

/**
 * Polls `expr` in the page until it is truthy. page.waitForFunction would evaluate a string predicate
 * with eval, which the app's CSP refuses; page.evaluate goes through the DevTools protocol instead.
 */
async function until(page: Page, expr: string, timeoutMs: number, everyMs = 50): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!(await page.evaluate(expr))) {
    if (performance.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${expr}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Questions chosen from the data, so every scale works; the Node store holds the same data. */
async function pick(storeDir: string): Promise<Picks> {
  const native = await NativeEngine.over(storeDir);
  try {
    const schemes = await native.all<{ scheme_code: number; nav_date: string }>(PICK_SQL);
    const codes = schemes.map((s) => s.scheme_code);
    const asOf = schemes[0].nav_date.slice(0, 8) + '01';
    const [cat] = await native.all<{ category: string }>(
      "SELECT category FROM indicators.indicator_config WHERE visible GROUP BY category HAVING count(*) >= 2 ORDER BY category = 'us_macro' DESC, category LIMIT 1",
    );
    const ids = await native.all<{ indicator_id: string }>(
      'SELECT indicator_id FROM indicators.indicator_config WHERE visible AND category = ? ORDER BY indicator_id LIMIT 2',
      [cat.category],
    );
    // Literals, not parameters: the SQL view runs text as typed. The codes are integers from the data.
    const inList = codes.join(', ');
    return {
      plan: {
        navCodes: codes.slice(0, 5).map(String),
        search: SEARCH,
        sql: [
          {
            label: 'SQL: latest NAV as of a date, 50 schemes',
            sql: `SELECT scheme_code, max(date) AS date, arg_max(nav, date) AS nav FROM mf.nav\nWHERE scheme_code IN (${inList}) AND date <= DATE '${asOf}'\nGROUP BY scheme_code ORDER BY scheme_code`,
          },
          {
            label: 'SQL: scan of the whole history',
            sql: 'SELECT year(date) AS year, count(*) AS navs, count(DISTINCT scheme_code) AS schemes, avg(nav) AS avg_nav\nFROM mf.nav GROUP BY year ORDER BY year',
          },
          { label: `SQL: ${GRID_ROWS.toLocaleString('en-US')} rows into the grid`, sql: `SELECT * FROM mf.nav LIMIT ${GRID_ROWS}` },
          { label: `SQL: ${REF_ROWS.toLocaleString('en-US')} rows into the grid`, sql: `SELECT * FROM mf.nav LIMIT ${REF_ROWS}` },
        ],
      },
      indicators: { category: cat.category, ids: ids.map((r) => r.indicator_id) },
    };
  } finally {
    await native.close();
  }
}

/** A browser on the run's profile, with the probes in every page and its memory sampled. */
async function open(profile: string): Promise<{ s: Session; mem: ChromiumMemory }> {
  const s = await launch({ profile });
  await s.context.addInitScript({ content: PROBES });
  return { s, mem: await ChromiumMemory.attach(s.browser) };
}

async function close(x: { s: Session; mem: ChromiumMemory }): Promise<void> {
  await x.mem.stop();
  await x.s.close();
}

const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' / ');

/** Presses Sync on the Data view with only `services` ticked; resolves with the worker's events. */
async function syncIn(page: Page, services: string[]): Promise<Bench['sync']> {
  const labels: Record<string, string> = { indicators: 'Indicators', mf: 'Mutual-fund NAVs', flags: 'Corporate red flags' };
  for (const [svc, name] of Object.entries(labels)) {
    const box = page.getByRole('checkbox', { name, exact: true });
    if (services.includes(svc)) await box.check();
    else await box.uncheck();
  }
  const before = (await bench(page)).sync.length;
  await page.getByRole('button', { name: 'Sync', exact: true }).click();
  await until(page, `window.__bench.sync.slice(${before}).some((e) => e.type === 'result')`, 3_600_000, 500);
  const events = (await bench(page)).sync.slice(before);
  const result = events.find((e) => e.type === 'result')!;
  if (result.outcome !== 'done') throw new Error(`the sync of ${services.join(', ')} ended ${result.outcome}: ${result.message}`);
  return events;
}

/**
 * Phase 1: the first visit installs the app, then syncs mf alone (timed), then the rest (not timed).
 * A kept profile already holding current data skips it.
 */
async function syncPhase(run: ChromiumRun, app: AppServer, profile: string): Promise<BenchResult[]> {
  const x = await open(profile);
  const { page } = x.s;
  try {
    // A kept profile may hold an older build in its service worker: this visit installs this one.
    if (run.profile) await forgetApp(x.s, app);
    await page.goto(`${app.url}#/data`);
    await page.getByText('DuckDB ready').waitFor({ timeout: 300_000 });
    const state = page.getByTestId('state-mf').filter({ hasText: /^(not synced|current|update available)$/ });
    await state.waitFor({ timeout: 60_000 });
    if ((await state.textContent()) === 'current' && run.profile) {
      console.log(`  the kept profile's data is current: no sync`);
      await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
      return [];
    }
    // Installed first (~40 MB precached), so that download does not share the sync's time.
    await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
    await x.mem.mark('app installed');
    const loadStart = load();
    const cdp = await x.s.browser.newBrowserCDPSession();
    const cpu0 = await cpuTimes(cdp);
    const events = await syncIn(page, ['mf']);
    const cpu = cpuSpent(cpu0, await cpuTimes(cdp));
    await cdp.detach();
    const syncFrom = x.mem.timeline.at(-1)?.s ?? 0;
    const span = await x.mem.mark('mf sync');
    // Bounded means a plateau: the tab's RSS at each quarter of the sync, not a line rising with the rows.
    const during = x.mem.timeline.filter((p) => p.s >= syncFrom);
    const quarters = [0.25, 0.5, 0.75, 1].map((q) => during[Math.min(during.length - 1, Math.floor(q * (during.length - 1)))]?.tab);
    const tabPeak = span.tab;
    const b = await bench(page);
    const t = (pred: (e: Bench['sync'][number]) => boolean) => events.find(pred)?.at ?? NaN;
    const total = t((e) => e.type === 'result') - b.sent!;
    const downloaded = t((e) => e.type === 'file-done' && e.file === 'mf_nav_master.parquet') - b.sent!;
    const lastDownload = Math.max(...events.filter((e) => e.type === 'file-done').map((e) => e.at)) - b.sent!;
    const navLoaded = events.find((e) => e.type === 'ingest' && e.table === 'nav');
    const switched = t((e) => e.type === 'switched') - b.sent!;
    const manifestRows = Number((await (await fetch(`${run.publisherUrl}${manifestPath('mf')}`)).json()).files['mf_nav_master.parquet'].row_count);
    if (navLoaded?.rows !== manifestRows) throw new Error(`Chromium loaded ${navLoaded?.rows} NAV rows, the manifest announces ${manifestRows}`);
    await syncIn(page, ['indicators', 'mf', 'flags']);
    // The page's store re-attached each new generation; a failure there is only logged by the app.
    if (x.s.errors.length) throw new Error(`the app logged errors while syncing: ${x.s.errors.join(' | ').slice(0, 2000)}`);
    console.log(`  Chromium synced mf in ${sec(total)}, peak tab ${tabPeak} MB`);
    if (!run.wants('chromium ingest')) return [];

    const { node, native, nativeOne } = run.ingest;
    const cpus = os.cpus().length;
    const breakdown =
      `all mf files downloaded at ${sec(lastDownload)} (the NAV parquet at ${sec(downloaded)}), NAV table loaded at ${sec(navLoaded.at - b.sent!)}, ` +
      `switched at ${sec(switched)}; ${manifestRows.toLocaleString('en-US')} NAV rows; CPU time of all Chromium processes over the sync ${sec(cpu)}` +
      `${node?.cpuMs ? ` (Node: ${sec(node.cpuMs)})` : ''}; load ${loadStart} → ${load()}`;
    const rows: BenchResult[] = [];
    for (const [ref, name] of [
      [native!, `native DuckDB loading the same parquet with the same casts (${cpus} threads)`],
      [nativeOne!, 'native DuckDB, same load, threads=1 (DuckDB-WASM runs one)'],
    ] as const) {
      rows.push({
        case: `MF full history download + ingest (Chromium, OPFS)${ref === nativeOne ? ', vs one native thread' : ''}`,
        unit: 'ms',
        almanac: total,
        reference: { name, value: ref.ms },
        ratio: ratio(total, ref.ms),
        target: '<= 2x native; memory bounded',
        met: total <= 2 * ref.ms,
        note: `${breakdown}. Almanac's time includes the HTTP download and the switch`,
      });
    }
    if (node) {
      rows.push({
        case: 'MF full history download + ingest (Chromium, OPFS), vs Almanac in Node',
        unit: 'ms',
        almanac: total,
        reference: { name: 'Almanac in Node (same sync engine, DuckDB-WASM, files on disk)', value: node.ms },
        ratio: ratio(total, node.ms),
        note: `Node peak RSS ${node.maxRssMb} MB`,
      });
    }
    rows.push({
      case: 'MF full history download + ingest (Chromium), peak memory',
      unit: 'MB',
      almanac: tabPeak,
      reference: { name: 'native DuckDB, same load, threads=1: peak RSS', value: nativeOne!.maxRssMb },
      ratio: ratio(tabPeak, nativeOne!.maxRssMb),
      target: 'memory bounded (never the whole decoded history)',
      note:
        `tab RSS at a quarter, half, three quarters and the end of the sync: ${quarters.join(' / ')} MB. ` +
        `tab = the renderer process (page, sync worker, both DuckDB workers): peak RSS ${span.tab} MB (private ${span.tabAnon} MB); all renderers ${span.renderers} MB; all of Chromium ${span.chromium} MB. Node ingest ${node?.maxRssMb ?? '?'} MB, native (${cpus} threads) ${native!.maxRssMb} MB`,
      detail: { spans: x.mem.spans, events, timeline: during },
    });
    return rows;
  } finally {
    await close(x);
  }
}

/** One sync of the app in Chromium: wall time from the page's request to the worker's result, the summary's body bytes, the files' words. */
export interface AppSync {
  ms: number;
  body_bytes: number;
  details: string[];
}

/**
 * The built app served against `publisherUrl` in a fresh profile, its Data view kept open in one page
 * between syncs, as a user pressing Sync each morning would (bench/refresh.ts). `sync` runs the app's
 * own sync (the Sync button, the sync worker, OPFS) of `services`; `close` ends it all.
 */
export async function appSyncs(appDir: string, publisherUrl: string): Promise<{ sync: (services: string[]) => Promise<AppSync>; close: () => Promise<void> }> {
  const app = await serveApp({ dist: appBuild(appDir), publisher: publisherUrl, config: SOURCES });
  const profile = mkdtempSync(path.join(os.tmpdir(), 'almanac-bench-profile-'));
  const x = await open(profile);
  const { page } = x.s;
  const closeAll = async () => {
    await close(x);
    await app.close();
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    await page.goto(`${app.url}#/data`);
    await page.getByText('DuckDB ready').waitFor({ timeout: 300_000 });
  } catch (e) {
    await closeAll();
    throw e;
  }
  return {
    async sync(services) {
      const events = await syncIn(page, services);
      if (x.s.errors.length) throw new Error(`the app logged errors while syncing: ${x.s.errors.join(' | ').slice(0, 2000)}`);
      const result = events.find((e) => e.type === 'result')!;
      return {
        ms: result.at - (await bench(page)).sent!,
        body_bytes: result.body_bytes ?? -1,
        details: events.flatMap((e) => (e.type === 'file-done' && e.detail ? [e.detail] : [])),
      };
    },
    close: closeAll,
  };
}

/** Goes to a route of the open app (a same-document navigation once the app is loaded). */
async function route(page: Page, app: AppServer, hash: string): Promise<void> {
  await page.goto(`${app.url}${hash}`);
}

/** Runs one statement in the SQL view (remounted, so its status starts empty); its rows and the app's own ms. */
async function sqlStep(page: Page, app: AppServer, sql: string): Promise<{ rows: number; appMs: number }> {
  await route(page, app, '#/bench-elsewhere');
  await page.evaluate(`sessionStorage.setItem('almanac-sql', ${JSON.stringify(sql)})`);
  await route(page, app, '#/sql');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const status = page.getByRole('status').filter({ hasText: / rows · / });
  await status.waitFor({ timeout: 1_800_000 });
  if (await page.getByRole('alert').count()) throw new Error(`SQL failed: ${await page.getByRole('alert').first().textContent()}`);
  const m = /([\d,]+) rows · \d+ columns · (\d+) ms/.exec((await status.textContent()) ?? '');
  return { rows: Number(m![1].replaceAll(',', '')), appMs: Number(m![2]) };
}

interface Scroll {
  times: number[];
  long: number[];
  total: number;
  lastShown: number;
  firstShown: number;
}

async function scroll(page: Page, mode: 'steady' | 'jump', frames: number): Promise<Scroll> {
  const r = (await page.evaluate(`(${SCROLL})(${JSON.stringify({ frames, mode })})`)) as Scroll;
  if (r.lastShown !== r.total) throw new Error(`the grid ended its scroll showing row ${r.lastShown} of ${r.total}`);
  return r;
}

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(0.95 * (xs.length - 1) + 0.5))];

/** Phase 2: a fresh browser opens the synced app and asks the full history; then the grid scrolls. */
async function queryPhase(run: ChromiumRun, app: AppServer, profile: string, picks: Picks): Promise<BenchResult[]> {
  const x = await open(profile);
  const { page } = x.s;
  const steps: { label: string; ms: number; appMs?: number; rows?: number }[] = [];
  const grid: Partial<Record<'big' | 'ref', { steady: Scroll; jump: Scroll; rows: number }>> = {};
  const loadStart = load();
  let blank!: MemReading;
  try {
    const timed = async (label: string, fn: () => Promise<{ rows: number; appMs: number } | void>) => {
      const t0 = performance.now();
      const r = await fn();
      steps.push({ label, ms: Math.round(performance.now() - t0), ...(r ?? {}) });
      await x.mem.mark(label);
    };
    await page.goto('about:blank');
    await new Promise((r) => setTimeout(r, 1000));
    blank = x.mem.now();
    await timed('app open, store attached', async () => {
      await route(page, app, '#/data');
      await page.getByText('DuckDB ready').waitFor({ timeout: 300_000 });
    });
    for (const code of picks.plan.navCodes) {
      await timed(`NAV history ${code} (scheme page, chart drawn)`, async () => {
        const before = (await bench(page)).charts;
        await route(page, app, `#/funds/${code}`);
        await until(page, `window.__bench.charts > ${before}`, 600_000);
      });
    }
    await timed('search, three filters (Funds view)', async () => {
      await route(page, app, `#/funds?${new URLSearchParams(picks.plan.search)}`);
      await page.locator('p.count').filter({ hasText: /schemes match/ }).filter({ hasNotText: /searching/ }).waitFor({ timeout: 600_000 });
    });
    for (const q of picks.plan.sql) {
      const big = q.sql.endsWith(`LIMIT ${GRID_ROWS}`);
      const ref = q.sql.endsWith(`LIMIT ${REF_ROWS}`);
      await timed(q.label, () => sqlStep(page, app, q.sql));
      if (big || ref) {
        const steady = await scroll(page, 'steady', 240);
        const jump = await scroll(page, 'jump', 120);
        grid[big ? 'big' : 'ref'] = { steady, jump, rows: steady.total };
        await x.mem.mark(`${q.label}: scrolled`);
      }
    }
  } finally {
    await close(x);
  }
  const rows: BenchResult[] = [];
  if (run.wants('chromium memory')) {
    // Two workloads: asking the history (views and SQL with small answers), then also holding a
    // 1M-row result in the SQL grid, whose Arrow table the page keeps whole.
    const isGrid = (label: string) => label.includes(' rows into the grid');
    const asking = { ...picks.plan, sql: picks.plan.sql.filter((q) => !isGrid(q.label)) };
    const workloads = [
      { name: 'Chromium tab memory while querying the full MF history', plan: asking, spans: x.mem.spans.filter((s) => !isGrid(s.label)), target: '<= 600 MB' },
      { name: `Chromium tab memory, the same plus ${(grid.big?.rows ?? GRID_ROWS).toLocaleString('en-US')} rows held in the SQL grid`, plan: picks.plan, spans: x.mem.spans, target: undefined },
    ];
    const times = steps.map((s) => `${s.label} ${s.ms} ms${s.appMs !== undefined ? ` (query ${s.appMs} ms, ${s.rows} rows)` : ''}`).join('; ');
    for (const w of workloads) {
      const native = await run.child('native-queries', run.storeDir, JSON.stringify(w.plan));
      const top = w.spans.reduce((a, s) => (s.tab > a.tab ? s : a));
      rows.push({
        case: w.name,
        unit: 'MB',
        almanac: top.tab,
        reference: { name: 'native DuckDB asking the same (services + SQL), peak RSS', value: native.maxRssMb },
        ratio: ratio(top.tab, native.maxRssMb),
        target: w.target,
        met: w.target ? top.tab <= 600 : undefined,
        note:
          `peak RSS of the tab's renderer (page + DuckDB worker) at "${top.label}": ${top.tab} MB, of which private ${top.tabAnon} MB and file-backed ${top.tabFile} MB (Chromium's own code, shared by its processes); ` +
          `a blank tab's renderer: ${Math.round(blank.tab)} MB (private ${Math.round(blank.tabAnon)} MB). Per step: ${w.spans.map((s) => `${s.label} ${s.tab} MB`).join('; ')}. ` +
          `Times: ${times}. Native: ${native.steps!.map((s) => `${s.label} ${s.ms} ms`).join('; ')}. Load ${loadStart} → ${load()}`,
        detail: { spans: w.spans, steps, native, blank },
      });
    }
  }
  if (run.wants('grid') && grid.big && grid.ref) {
    for (const mode of ['steady', 'jump'] as const) {
      const a = grid.big[mode];
      const r = grid.ref[mode];
      const sa: Stats = stats(a.times);
      const sr: Stats = stats(r.times);
      rows.push({
        case: `SQL grid scroll, ${grid.big.rows.toLocaleString('en-US')} rows, ${mode === 'steady' ? '3 rows a frame' : 'jumps across the result'} (frame interval)`,
        unit: 'ms',
        almanac: sa,
        reference: { name: `the same scroll over ${grid.ref.rows.toLocaleString('en-US')} rows, same run`, value: sr },
        ratio: ratio(sa, sr),
        target: 'smooth: median frame <= 17 ms (60 Hz), p95 <= 1.5x the small grid\'s',
        met: sa.median <= 17 && p95(a.times) <= 1.5 * p95(r.times),
        note: `${a.times.length} frames; p95 ${p95(a.times).toFixed(1)} ms (small grid ${p95(r.times).toFixed(1)} ms); long animation frames (> 50 ms) ${a.long.length} (small grid ${r.long.length}); headless Chromium, software rendering`,
      });
    }
  }
  return rows;
}

/** The profile's service worker, Cache Storage and HTTP cache emptied: a first visit of the app's code (the data stays). */
async function forgetApp(s: Session, app: AppServer): Promise<void> {
  const cdp = await s.context.newCDPSession(s.page);
  await cdp.send('Storage.clearDataForOrigin', { origin: new URL(app.url).origin, storageTypes: 'service_workers,cache_storage' });
  await cdp.send('Network.clearBrowserCache');
  await cdp.detach();
}

/**
 * Before the page's scripts: the answers the app kept per data generation (src/ui/lib/answer-cache.ts)
 * removed, so the engine answers the first view. IndexedDB queues the requests for one database in
 * order, so the app's first open of it comes after the deletion.
 */
const FORGET_ANSWERS = `indexedDB.deleteDatabase(${JSON.stringify(ANSWERS_DB)});`;

/**
 * Phase 3: app start to first chart. Start = the navigation to a deep link in a browser just launched
 * on the profile (launching the browser itself is not counted); first chart = the first animation
 * frame at which the view's uPlot canvas holds painted pixels (PROBES). Cold: the service worker,
 * Cache Storage and HTTP cache emptied first, so every file of the app comes over loopback and its
 * wasm is compiled afresh (the synced data is kept: without it there is no chart), and the answers
 * kept per generation removed (a new build reads none of an older one's). Warm: the installed PWA
 * after a visit, every file from the service worker's precache; "answer kept": the view's answer kept
 * by an earlier visit in this generation (src/ui/lib/answer-cache.ts), "engine answers": none kept
 * (the first start after a sync), so DuckDB-WASM's start comes first.
 */
async function startPhase(run: ChromiumRun, app: AppServer, profile: string, picks: Picks): Promise<BenchResult[]> {
  const links = [
    { name: 'indicators deep link', hash: `#/indicators/${picks.indicators.category}?ids=${picks.indicators.ids.join(',')}` },
    { name: 'scheme NAV deep link', hash: `#/funds/${picks.plan.navCodes[0]}` },
  ];
  const visit = async (hash: string, cold: boolean, kept: boolean) => {
    const t0 = performance.now();
    const s = await launch({ profile });
    const launched = performance.now() - t0;
    try {
      await s.context.addInitScript({ content: PROBES });
      if (cold) await forgetApp(s, app);
      if (!kept) await s.context.addInitScript({ content: FORGET_ANSWERS });
      const cdp = await s.browser.newBrowserCDPSession();
      const cpu0 = await cpuTimes(cdp);
      const load1 = os.loadavg()[0];
      await s.page.goto(`${app.url}${hash}`);
      await until(s.page, 'window.__bench.chart !== null', 300_000);
      const cpu = cpuSpent(cpu0, await cpuTimes(cdp));
      const b = await bench(s.page);
      const dcl = (await s.page.evaluate("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd")) as number;
      const controlled = (await s.page.evaluate('navigator.serviceWorker.controller !== null')) as boolean;
      if (controlled === cold) throw new Error(`a ${cold ? 'cold' : 'warm'} start was ${controlled ? '' : 'not '}served by the service worker`);
      // A kept answer draws the chart before DuckDB is ready; without one the engine's answer comes after.
      if (kept !== (b.ready === null || b.chart! < b.ready)) throw new Error(`a start ${kept ? 'with' : 'without'} a kept answer drew its chart ${kept ? 'after' : 'before'} DuckDB was ready`);
      return { chart: b.chart!, ready: b.ready ?? NaN, dcl, launched, cpu, load1 };
    } finally {
      await s.close();
    }
  };
  // One unmeasured visit installs the app again (the cold visits removed it), fills the code cache and
  // keeps the view's answer for the warm visits that read it.
  const install = async (hash: string) => {
    const s = await launch({ profile });
    try {
      await s.context.addInitScript({ content: PROBES });
      await s.page.goto(`${app.url}${hash}`);
      await s.page.evaluate('navigator.serviceWorker.ready.then(() => true)');
      await until(s.page, 'window.__bench.chart !== null', 300_000);
      await until(s.page, `${KEPT_ANSWERS}.then((n) => n > 0)`, 30_000);
    } finally {
      await s.close();
    }
  };
  const modes = {
    cold: { kept: false, target: undefined, what: 'first visit of the app code (service worker, caches and kept answers emptied; data in OPFS)' },
    'warm, engine answers': { kept: false, target: 1500, what: 'installed PWA, from the precache; data in OPFS; no answer kept (the first start after a sync)' },
    'warm, answer kept': { kept: true, target: 750, what: 'installed PWA, from the precache; data in OPFS; the view\'s answer kept by an earlier visit in this generation' },
  } as const;
  const rows: BenchResult[] = [];
  const n = Math.max(3, Math.min(run.repeats, 7));
  for (const link of links) {
    const out: Record<keyof typeof modes, Awaited<ReturnType<typeof visit>>[]> = { cold: [], 'warm, engine answers': [], 'warm, answer kept': [] };
    for (let i = 0; i < n; i++) out.cold.push(await visit(link.hash, true, false));
    await install(link.hash);
    // Alternating, so both warm modes see the same machine; the visits without a kept answer remove it
    // before they start, and write it again before the next one (install waited on that once).
    for (let i = 0; i < n; i++) {
      out['warm, engine answers'].push(await visit(link.hash, false, false));
      await install(link.hash);
      out['warm, answer kept'].push(await visit(link.hash, false, true));
    }
    for (const mode of Object.keys(modes) as (keyof typeof modes)[]) {
      const v = out[mode];
      const { target, what } = modes[mode];
      const st = stats(v.map((r) => r.chart));
      const med = (k: 'ready' | 'dcl' | 'launched' | 'cpu' | 'load1') => Math.round(stats(v.map((r) => r[k])).median * 10) / 10;
      rows.push({
        case: `app start to first chart, ${mode} (${link.name})`,
        unit: 'ms',
        almanac: st,
        target: target ? `<= ${target / 1000} s` : undefined,
        met: target ? st.median <= target : undefined,
        note:
          `${what}. ` +
          `Medians from navigation start: DOMContentLoaded ${Math.round(med('dcl'))} ms, "DuckDB ready" (store open, files attached) ${modes[mode].kept ? 'after the chart (not waited for)' : `${Math.round(med('ready'))} ms`}, chart ${Math.round(st.median)} ms; ` +
          `CPU time of all Chromium processes from navigation to chart ${Math.round(med('cpu'))} ms (the work itself, whatever the machine's load: 1-minute load average ${med('load1')} on ${os.cpus().length} cores); ` +
          `browser launch before it ${Math.round(med('launched'))} ms (not counted)`,
        detail: { visits: v },
      });
    }
  }
  return rows;
}

/** Every Chromium case the run wants; the bundle case needs no browser. */
export async function chromiumCases(run: ChromiumRun): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  const browserCases = ['chromium ingest', 'chromium memory', 'grid', 'start'].filter(run.wants);
  if (!run.wants('bundle') && browserCases.length === 0) return out;
  const dist = appBuild(run.appDir);
  if (run.wants('bundle')) out.push(...bundleCase(dist));
  if (browserCases.length === 0) return out;
  if (!hasChromium) {
    console.warn('Chromium cases skipped: /usr/bin/chromium is absent');
    return out;
  }
  if (run.wants('chromium ingest') && !run.ingest.nativeOne) {
    run.ingest.native ??= await run.child('native-load', run.parquetFile, path.join(os.tmpdir(), `almanac-bench-native-${process.pid}.duckdb`));
    run.ingest.nativeOne = await run.child('native-load', run.parquetFile, path.join(os.tmpdir(), `almanac-bench-native1-${process.pid}.duckdb`), '1');
    for (const f of ['native', 'native1']) rmSync(path.join(os.tmpdir(), `almanac-bench-${f}-${process.pid}.duckdb`), { force: true });
  }
  const app = await serveApp({ dist, publisher: run.publisherUrl, config: SOURCES, port: run.profile ? keptProfilePort(run.profile) : undefined });
  const profile = run.profile ?? mkdtempSync(path.join(os.tmpdir(), 'almanac-bench-profile-'));
  try {
    console.log('Chromium: sync into OPFS …');
    out.push(...(await syncPhase(run, app, profile)));
    const picks = await pick(run.storeDir);
    if (run.wants('chromium memory') || run.wants('grid')) {
      console.log('Chromium: querying the history, grid scroll …');
      out.push(...(await failed('Chromium tab memory while querying / grid scroll', () => queryPhase(run, app, profile, picks))));
    }
    if (run.wants('start')) {
      console.log('Chromium: start to first chart …');
      out.push(...(await failed('app start to first chart', () => startPhase(run, app, profile, picks))));
    }
  } catch (e) {
    out.push(failure('Chromium sync into OPFS (every later Chromium case needs it)', e));
  } finally {
    await app.close();
    if (!run.profile) rmSync(profile, { recursive: true, force: true });
  }
  return out;
}

/** A phase that failed is a row saying so (the run goes on and its JSON is written). */
function failure(name: string, e: unknown): BenchResult {
  console.error(`${name} failed:`, e);
  return { case: name, unit: 'ms', almanac: NaN, met: false, note: `failed: ${e instanceof Error ? e.message : String(e)}`.slice(0, 2000) };
}

async function failed(name: string, phase: () => Promise<BenchResult[]>): Promise<BenchResult[]> {
  try {
    return await phase();
  } catch (e) {
    return [failure(name, e)];
  }
}
