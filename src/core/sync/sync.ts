import type { Storage } from '../storage/storage.js';
import { SERVICE_DEFS, SERVICES, planFiles, withoutTables, type FormatChoice, type RateRule, type Service } from './datasets.js';
import { DEFAULT_RETRY, newExchange } from './request.js';
import { manifestPath } from '../contract/files.js';
import { runHook } from './hooks.js';
import { abortable, stopOn } from './cancel.js';
import { withLock } from './lock.js';
import { extractDuckdb, ingestSource, isWholeDatabase, type Extracted, type TableLoad } from './ingest.js';
import { RateLimiter, sleep as realSleep } from './limits.js';
import { fetchManifest } from './fetch-manifest.js';
import type { SyncSummary } from './progress.js';
import { fileState, files, type DatasetState, type SourceState } from './metadata.js';
import { driftNotices, localSchemaVersion } from './drift.js';
import { record, rethrowStop, type DatasetRun, type Run } from './run.js';
import type { SyncOptions } from './options.js';
import { fetchFile } from './fetch-file.js';
import { historyFiles, planHistory, supersededDownload, type Overlay } from './refresh/history.js';

/**
 * Settings of the engine that builds a generation. No FSST for text: a read decodes every FSST
 * string of each vector it touches, and in DuckDB-WASM that was a third of a filtered MF search and
 * half of resolving 50 codes (mf.latest's names and ISINs). Only the small tables choose FSST at all
 * (the large ones use dictionaries), so the files grow little: mf 240.7 -> 245.1 MB at full scale
 * (docs/performance.md).
 */
export const BUILD_SETTINGS = `SET disabled_compression_methods = 'fsst';`;

export type { SyncOptions } from './options.js';


/** Limiters outlive one sync call in a long-running process, so back-to-back syncs share the budget. */
const limiters = new Map<string, RateLimiter>();
/** Request times handed over from an ended process (seedRateLog), taken up when that limiter is first needed. */
const seeds = new Map<string, number[][]>();

function limiterFor(base: string, service: Service, rules: readonly RateRule[]): RateLimiter {
  const key = `${service} ${base} ${JSON.stringify(rules)}`;
  let l = limiters.get(key);
  if (!l) limiters.set(key, (l = new RateLimiter(rules, Date.now, seeds.get(key))));
  seeds.delete(key);
  return l;
}

/** Every limiter's request times still inside their windows, by limiter: the budget this process has spent. */
export type RateLog = Record<string, number[][]>;

export function rateLog(): RateLog {
  const log: RateLog = { ...Object.fromEntries(seeds) };
  for (const [key, l] of limiters) log[key] = l.times();
  return log;
}

/**
 * Carries the budget spent by a process that has ended into this one: the browser ends its sync
 * worker when idle (a WebAssembly memory never shrinks), and the next sync must not start afresh.
 */
export function seedRateLog(log: RateLog): void {
  for (const [key, times] of Object.entries(log)) if (!limiters.has(key)) seeds.set(key, times);
}

/**
 * One sync of every chosen dataset: manifest, changed files, a new database generation, the switch.
 * A failed file fails alone; a failed service leaves its previous generation answering.
 */
export async function sync(options: SyncOptions): Promise<SyncSummary> {
  const opts: Run = {
    ...options,
    state: options.state ?? fileState(options.storage),
    hook: stopOn(options.signal, options.hook),
    sleep: abortable(options.sleep ?? realSleep, options.signal),
  };
  return withLock(opts.lock, () => syncAll(opts));
}

async function syncAll(opts: Run): Promise<SyncSummary> {
  const summary: SyncSummary = { files: [], body_bytes: 0, requests: 0, generations: {}, errors: [] };
  const counter = { requests: 0 };
  for (const service of opts.only ?? SERVICES) {
    try {
      await syncService(opts, service, summary, counter);
    } catch (e) {
      rethrowStop(e, opts);
      const error = `${service}: ${(e as Error).message}`;
      summary.errors.push(error);
      opts.onEvent?.({ type: 'service-failed', service, error });
    }
  }
  summary.requests = counter.requests;
  summary.body_bytes = summary.files.reduce((n, f) => n + f.body_bytes, 0);
  return summary;
}

async function syncService(opts: Run, service: Service, summary: SyncSummary, counter: { requests: number }) {
  const { storage, hook } = opts;
  const def = SERVICE_DEFS[service];
  const base = (opts.sources?.[service] ?? opts.source).replace(/\/+$/, '');
  const limiter = limiterFor(base, service, opts.rules?.[service] ?? def.rules);
  const retry = { ...DEFAULT_RETRY, ...opts.retry };
  const sleep = opts.sleep!;
  const fetchFn = opts.fetch ?? fetch;
  const state = await opts.state.read();
  const prev = state.datasets[service];
  const choice: FormatChoice = state.choices[service] ?? 'auto';
  const now = new Date().toISOString();

  await removeLeftovers(storage, service, prev);
  const exchange = (file: string | null) => newExchange({ service, file, limiter, fetch: fetchFn, sleep, retry, counter, onEvent: opts.onEvent, signal: opts.signal });
  const manifest = await fetchManifest(
    exchange(null),
    `${base}${manifestPath(service)}`,
    // A full verification must reach the history even when the manifest is unchanged.
    prev && prev.source_url === base && !opts.history?.full ? prev.manifest_etag : null,
  );
  await runHook(hook, 'manifest', { service });
  if (manifest.status === 'not_modified' && prev) {
    for (const f of Object.keys(prev.sources)) record(opts, summary, { service, name: f, status: 'not_modified', body_bytes: 0 });
    await opts.state.update((s) => ({ ...s, datasets: { ...s.datasets, [service]: { ...prev, last_sync: now } } }));
    summary.generations[service] = prev.generation;
    return;
  }
  if (manifest.status === 'not_modified') throw new Error('manifest unchanged but nothing is stored');
  const skip = opts.skipTables?.[service] ?? [];
  const planned = planFiles(def, manifest.body.files, choice);
  const plan = withoutTables(planned, skip);
  // Like a failed file, a skipped one leaves the copy short of the manifest: no validator is kept,
  // so the next sync reads the manifest again (and fetches the history when it is no longer skipped).
  const skipped = plan.length < planned.length;
  if (plan.length === 0) throw new Error(skip.length ? 'nothing left to fetch once the skipped tables are left out' : 'the manifest lists no file this app can read');

  const generation = (prev?.generation ?? 0) + 1;
  const d: DatasetRun = { opts, service, base, prev, generation, now, summary, sources: {}, failed: [], exchange };
  const { sources, failed } = d;
  let changed = !prev || prev.source_url !== base;
  // The MF history goes last: whether it can be patched depends on the snapshot fetched before it.
  const history = planHistory(d, plan, planned);
  for (const file of plan) if (file !== history?.file) changed = (await fetchFile(d, file)) || changed;
  const patch = history ? await history.run() : null;
  changed = !!patch?.changed || changed;
  // A table whose new file failed keeps answering from the file it was built from last time.
  for (const old of Object.values(prev?.sources ?? {})) {
    const covered = Object.values(sources).some((s) => overlaps(s.tables, old.tables));
    if (!covered) sources[old.file] = old;
  }
  if (prev && Object.keys(prev.sources).sort().join() !== Object.keys(sources).sort().join()) changed = true;
  if (!changed) {
    const next = { ...prev!, manifest_etag: failed.length || skipped ? null : manifest.etag, last_sync: now, errors: failed };
    await opts.state.update((s) => ({ ...s, datasets: { ...s.datasets, [service]: next } }));
    summary.generations[service] = prev!.generation;
    return;
  }

  const built = await build(opts, service, generation, sources, failed, summary, patch?.overlay ?? null);
  const schema = { def, previous: prev, tables: built.tables, failed, manifest: manifest.body, now };
  const drift = driftNotices(schema);
  const nextHistory = patch?.next(built.sources);
  const next: DatasetState = {
    service, generation, database: files.database(service, generation), source_url: base,
    manifest_etag: failed.length || skipped ? null : manifest.etag,
    generated_at: manifest.body.generated_at, schema_version: manifest.body.schema_version,
    schema_changed: manifest.body.schema_changed, schema_notes: manifest.body.schema_notes,
    local_schema_version: localSchemaVersion(schema, drift), drift,
    sources: built.sources, tables: built.tables,
    rows: Object.values(built.tables).reduce((n, t) => n + t.rows, 0),
    // A refreshed history's rows are mostly in its base's database, which this generation reads too.
    bytes: ((await storage.size(files.database(service, generation))) ?? 0) + (nextHistory?.base ? ((await storage.size(nextHistory.base)) ?? 0) : 0),
    last_sync: now, errors: failed,
    history: nextHistory,
  };
  await runHook(hook, 'switch:before', { service });
  await opts.state.update((s) => ({ ...s, datasets: { ...s.datasets, [service]: next } }));
  await runHook(hook, 'switch:after', { service });
  opts.onEvent?.({ type: 'switched', service, generation });
  summary.generations[service] = generation;
  if (patch) (summary.history ??= {})[service] = patch.changes;
  await opts.onSwitch?.(service, next, patch?.changes);
  await runHook(hook, 'cleanup', { service });
  await removeLeftovers(storage, service, next);
}

/** Builds generation `generation` from `sources`; a source that fails to load falls back or is dropped. */
async function build(
  opts: Run,
  service: Service,
  generation: number,
  sources: Record<string, SourceState>,
  failed: string[],
  summary: SyncSummary,
  overlay: Overlay | null,
) {
  const { storage, host, hook } = opts;
  const def = SERVICE_DEFS[service];
  const name = files.database(service, generation);
  const prev = (await opts.state.read()).datasets[service];
  const base = { host, storage, def, scratchPrefix: files.scratch(service), maxUnpackedBytes: opts.maxUnpackedBytes };
  // A patched history loads last: its new rows are read from the snapshot table loaded before it.
  const last = (src: SourceState) => (src.file === overlay?.file ? 1 : 0);
  const ordered = Object.values(sources).sort((a, b) => last(a) - last(b) || a.file.localeCompare(b.file));
  const fallbackOf = (src: SourceState) =>
    Object.values(prev?.sources ?? {}).find((o) => o.store !== src.store && overlaps(o.tables, src.tables)) ?? null;
  // A refreshed history (a base and deltas) has no older file to fall back to: its last whole download
  // holds fewer days than the store (and goes once superseded, supersededDownload).
  const refreshedHistory = (src: SourceState) => !!prev?.history?.base && src.file === prev.history.file;
  const refused = new Set<SourceState>();
  const fail = (src: SourceState, e: unknown) => {
    rethrowStop(e, opts);
    if (refused.has(src)) return;
    refused.add(src);
    const msg = (e as Error).message;
    failed.push(msg);
    markFailed(summary, service, src.file, msg);
  };
  // Whole-database files are read out first: their reader engine must be gone before the builder opens.
  const extracted = new Map<SourceState, Extracted>();
  for (const src of ordered) {
    if (!isWholeDatabase(src.suffix)) continue;
    try {
      extracted.set(src, await extractDuckdb(base, src));
    } catch (e) {
      fail(src, e);
      const fb = fallbackOf(src);
      if (fb && isWholeDatabase(fb.suffix)) extracted.set(fb, await extractDuckdb(base, fb));
    }
  }
  await storage.remove(name);
  await storage.remove(`${name}.wal`);
  const engine = await host.createDatabase(name);
  await engine.exec(BUILD_SETTINGS);
  const tables: Record<string, TableLoad> = {};
  const used: Record<string, SourceState> = {};
  try {
    const ctx = {
      ...base,
      engine,
      onBatch: async (p: { table: string; file: string; rows: number; total: number | null }) => {
        await runHook(hook, 'ingest:batch', { service, file: p.file });
        opts.onEvent?.({ type: 'ingest-progress', service, ...p });
      },
    };
    for (const src of ordered) {
      await runHook(hook, 'ingest:table', { service, file: src.file });
      let loads: TableLoad[];
      try {
        if (refused.has(src)) throw new Error('refused');
        loads = src.file === overlay?.file ? await overlay.load(ctx, tables) : await ingestSource(ctx, src, extracted.get(src));
        used[src.file] = src;
      } catch (e) {
        // A refreshed history has no file to fall back to: the service fails, and the previous
        // generation, whose rows are newer than any file held, keeps answering.
        if (src.file === overlay?.file) throw e;
        if (refreshedHistory(src)) {
          rethrowStop(e, opts);
          throw new Error(`${src.file}: ${(e as Error).message}; the NAV history stays as refreshed (generation ${prev!.generation})`);
        }
        fail(src, e);
        const fb = fallbackOf(src);
        if (!fb || (isWholeDatabase(fb.suffix) && !extracted.has(fb))) continue;
        loads = await ingestSource(ctx, fb, extracted.get(fb));
        used[fb.file] = fb;
      }
      for (const l of loads) {
        tables[l.table] = l;
        opts.onEvent?.({ type: 'ingest', service, table: l.table, file: l.file, rows: l.rows });
      }
    }
    if (Object.keys(tables).length === 0) throw new Error(`no table could be loaded (${failed.join('; ')})`);
    await engine.exec('CHECKPOINT');
    await runHook(hook, 'ingest:checkpoint', { service });
  } finally {
    await host.release(engine);
  }
  // Everything is in the file since the CHECKPOINT, but DuckDB-WASM leaves the log's old bytes behind,
  // and native DuckDB replays them ("Table ... already exists"): the log goes. Best effort: a browser
  // releases the ended build worker's OPFS handles only a little later ("modifications are not
  // allowed"), and DuckDB-WASM itself opens the file with the stale log beside it.
  await storage.remove(`${name}.wal`).catch(() => undefined);
  return {
    sources: used,
    tables: Object.fromEntries(Object.entries(tables).map(([t, l]) => [t, { rows: l.rows, file: l.file, columns: l.columns, changes: l.changes }])),
  };
}

/** Removes this dataset's files that the current state does not reference (crash leftovers, old generations) or no longer needs (supersededDownload). */
async function removeLeftovers(storage: Storage, service: Service, current: DatasetState | undefined) {
  const keep = new Set<string>();
  if (current) {
    keep.add(current.database).add(`${current.database}.wal`);
    for (const s of Object.values(current.sources)) keep.add(s.store);
    for (const f of historyFiles(current.history)) keep.add(f);
    const superseded = supersededDownload(current);
    if (superseded) keep.delete(superseded);
  }
  for (const name of await storage.list()) {
    if (!files.belongsTo(service, name) || keep.has(name)) continue;
    if (name.startsWith(`dl~${service}~`)) continue; // partial downloads stay for resuming
    // A file another reader still holds open (a second browser tab's store) goes at a later sync.
    await storage.remove(name).catch(() => undefined);
  }
}

function overlaps(a: string[] | null, b: string[] | null): boolean {
  if (a === null || b === null) return true;
  return a.some((t) => b.includes(t));
}

function markFailed(summary: SyncSummary, service: Service, file: string, error: string) {
  const r = summary.files.find((f) => f.service === service && f.name === file);
  if (r) Object.assign(r, { status: 'failed', error });
  else summary.files.push({ service, name: file, status: 'failed', body_bytes: 0, error });
}
