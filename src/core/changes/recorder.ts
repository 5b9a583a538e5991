/**
 * Records what a sync changed, one dataset switch at a time, while the old generation is still on
 * disk (the sync's `onSwitch` runs before it is removed). Each comparison reads the old generation
 * first (diff.ts `readBefore`), then the new one (`diffAfter`), on one engine, each attached under
 * the dataset's own name. Storage hazards decide where that engine is (docs/storage.md): never a
 * builder engine (direct I/O wipes an existing file it attaches); in Node, with no store open, a plain
 * scratch engine that closes before the old file goes (`inScratch`); in the browser the page's store,
 * which alone may open the files (OPFS handles are exclusive): it reads the old side before it
 * re-attaches and the new side after (browser-backend.ts calls `beforeSwitch` and `afterSwitch`).
 */
import type { Engine } from '../engine/engine.js';
import type { Storage } from '../storage/storage.js';
import { SERVICES, type Service } from '../sync/datasets.js';
import { sqlString, type AttachHost, type DatabaseHost } from '../sync/host.js';
import { fileState, type DatasetState, type StateStore, type StoreState } from '../sync/metadata.js';
import { sync, type SyncOptions } from '../sync/sync.js';
import type { HistoryChanges, SyncSummary } from '../sync/progress.js';
import { diffAfter, readBefore, readsBefore, type Before, type ServiceChanges } from './diff.js';
import { appendLog, appendRevisions, pointOf } from './log.js';
import { emptyTotals, type KeptChanges } from './shape.js';
import { readWatches, resolvePending, watchedKeys, WATCH_SERVICE, type WatchKind } from './watches.js';

const KIND_OF = Object.fromEntries(Object.entries(WATCH_SERVICE).map(([kind, service]) => [service, kind])) as Record<Service, WatchKind>;

/**
 * A dataset's files under the names its SQL expects: the database as `<service>`, and a refreshed MF
 * history's base database (issue 20: `mf.nav` is then a view over it) as `<service>_base`, first.
 */
function datasetFiles(d: DatasetState): Array<[alias: string, file: string]> {
  const base = (d as DatasetState & { history?: { base?: string | null } }).history?.base;
  return [...(base ? ([[`${d.service}_base`, base]] as Array<[string, string]>) : []), [d.service, d.database]];
}

async function attach(engine: Engine, host: AttachHost, d: DatasetState): Promise<void> {
  // eslint-disable-next-line sql/no-interpolated-sql -- the alias is the dataset's service name or its _base, from the store's own state
  for (const [alias, file] of datasetFiles(d)) await engine.exec(`ATTACH ${sqlString(await host.attachPath(engine, file))} AS ${alias}`);
}

async function detach(engine: Engine, host: AttachHost, d: DatasetState): Promise<void> {
  for (const [alias, file] of datasetFiles(d).reverse()) {
    // eslint-disable-next-line sql/no-interpolated-sql -- the alias is the dataset's service name or its _base, from the store's own state
    await engine.exec(`DETACH ${alias}`);
    await host.forget(engine, file);
  }
}

/** The datasets' changes without a previous generation to compare: every row is new. */
function firstSync(after: DatasetState): ServiceChanges {
  const rows = (t: string) => after.tables[t]?.rows ?? 0;
  // A light copy takes in the snapshot's latest NAVs only: those are its new NAVs (diff.ts, diffMfLatest).
  if (after.service === 'mf') return { new_navs: 'nav' in after.tables ? rows('nav') : rows('latest') };
  if (after.service === 'indicators') return { new_indicator_points: rows('macro_indicators'), revised_indicator_points: 0 };
  return { new_flag_rows: Object.fromEntries(Object.keys(after.tables).map((t) => [t, rows(t)])) };
}

/** Node's comparing engine for one sync: `onSwitch` at each switch, `close` when the sync ends. */
export interface Scratch {
  onSwitch(service: Service, after: DatasetState, history?: HistoryChanges): Promise<void>;
  close(): Promise<void>;
}

export class ChangeRecorder {
  private readonly parts: Partial<Record<Service, ServiceChanges>> = {};
  private readonly kept = new Map<Service, { before: Before; keys: string[] }>();
  /** The database each dataset was compared at last (starts at the state before the sync). */
  private readonly seen = new Map<Service, string>();
  readonly errors: string[] = [];

  private constructor(
    private readonly storage: Storage,
    private readonly state: StateStore,
    private readonly before: StoreState,
  ) {
    for (const [s, d] of Object.entries(before.datasets)) this.seen.set(s as Service, d!.database);
  }

  /** Call before the sync starts: what it is compared with is the state now. */
  static async begin(storage: Storage, state: StateStore): Promise<ChangeRecorder> {
    return new ChangeRecorder(storage, state, await state.read());
  }

  /** The datasets `state` names a generation of that this recorder has not compared yet. */
  switching(state: StoreState): Service[] {
    return (Object.keys(state.datasets) as Service[]).filter((s) => state.datasets[s]!.database !== this.seen.get(s));
  }

  /**
   * Step one, `engine` having the OLD generation of `service` attached under its name (or not, where
   * `readsBefore` says the comparison needs none). `history`: what the refresh of the MF history
   * says it changed (the sync's `onSwitch` gets it), the same in both steps.
   */
  async beforeSwitch(service: Service, engine: Engine, history?: HistoryChanges): Promise<void> {
    const before = this.before.datasets[service];
    if (!before) return;
    await this.noted(service, async () => {
      const keys = watchedKeys(await readWatches(this.storage))[KIND_OF[service]];
      this.kept.set(service, { before: await readBefore(engine, before, keys, history), keys });
    });
  }

  /** Step two, `engine` having the NEW generation attached under its name. */
  async afterSwitch(service: Service, after: DatasetState, engine: Engine, history?: HistoryChanges): Promise<void> {
    this.seen.set(service, after.database);
    const kept = this.kept.get(service);
    this.kept.delete(service);
    if (!this.before.datasets[service]) return this.first(after);
    if (!kept) return; // step one failed and said so
    await this.noted(service, async () => {
      this.parts[service] = await diffAfter(engine, kept.before, after, kept.keys, history);
      // Pending watches this generation holds resolve now, for the next sync.
      await resolvePending(this.storage, engine);
    });
  }

  /** A dataset synced for the first time: nothing to compare with. */
  private first(after: DatasetState): void {
    this.seen.set(after.service, after.database);
    this.parts[after.service] = firstSync(after);
  }

  /**
   * Node's `onSwitch` (no store open): both steps in a plain scratch engine, the old generation
   * attached, read and let go of before the new one is attached, and the new one let go of before the
   * sync goes on, so that between switches the engine holds no file (hazard 6: the next dataset's
   * builder opens files in this thread). One engine serves every switch of a sync: starting one costs
   * ~1.5-2 s of CPU, more than a comparison at demo scale (docs/changes.md). `close` ends it.
   */
  inScratch(host: DatabaseHost & AttachHost): Scratch {
    let engine: Engine | null = null;
    const close = async () => {
      const open = engine;
      engine = null;
      await open?.close();
    };
    const onSwitch = async (service: Service, after: DatasetState, history?: HistoryChanges) => {
      const before = this.before.datasets[service];
      if (!before) return this.first(after);
      try {
        engine ??= await host.scratch();
        const old = readsBefore(service, history);
        if (old) await attach(engine, host, before);
        await this.beforeSwitch(service, engine, history);
        if (old) await detach(engine, host, before);
        await attach(engine, host, after);
        await this.afterSwitch(service, after, engine, history);
        await detach(engine, host, after);
      } catch (e) {
        this.errors.push(`${service}: ${(e as Error).message}`);
        await close(); // and whatever it still held goes with it
      }
    };
    return { onSwitch, close };
  }

  /** A comparison that fails is noted and the sync goes on: its data switched all the same. */
  private async noted(service: Service, step: () => Promise<void>): Promise<void> {
    try {
      await step();
    } catch (e) {
      this.errors.push(`${service}: ${(e as Error).message}`);
    }
  }

  /**
   * Call when the sync returned: keeps the record (a quiet sync too) and the replaced indicator values.
   * A failed sync (errors, and no dataset switched) keeps nothing and gives null: it says nothing of
   * what changed. One that switched some datasets and failed others keeps the switched ones' changes.
   */
  async finish(summary: SyncSummary): Promise<KeptChanges | null> {
    const after = await this.state.read();
    const switched = SERVICES.some((s) => after.datasets[s]?.database !== this.before.datasets[s]?.database);
    if (summary.errors.length > 0 && !switched) return null;
    const p = this.parts;
    const totals = emptyTotals();
    totals.new_navs = p.mf?.new_navs ?? 0;
    totals.new_flag_rows = p.flags?.new_flag_rows ?? {};
    totals.new_indicator_points = p.indicators?.new_indicator_points ?? 0;
    totals.revised_indicator_points = p.indicators?.revised_indicator_points ?? 0;
    const rec: KeptChanges = {
      from: pointOf(this.before),
      to: pointOf(after),
      watched: { schemes: p.mf?.schemes ?? [], companies: p.flags?.companies ?? [], indicators: p.indicators?.indicators ?? [] },
      totals,
      base_navs: p.mf?.base_navs ?? {},
    };
    if (this.errors.length) rec.errors = this.errors;
    await appendLog(this.storage, rec);
    const generation = after.datasets.indicators?.generation ?? 0;
    await appendRevisions(
      this.storage,
      (p.indicators?.indicator_revisions ?? []).map((r) => ({ ...r, replaced_at: rec.to.synced_at ?? '', generation })),
    );
    return rec;
  }
}

/**
 * A sync that records its changes (Node front doors: CLI, `npm start`, the desktop core with its
 * store closed): each switch compared in a scratch engine after the caller's own `onSwitch`, the
 * record kept when the sync returns. A sync that throws (cancelled, refused by the lock) records nothing,
 * nor does one that failed without switching anything (`changes` is then null).
 */
export async function syncRecorded(opts: SyncOptions, host: DatabaseHost & AttachHost): Promise<{ summary: SyncSummary; changes: KeptChanges | null }> {
  const recorder = await ChangeRecorder.begin(opts.storage, opts.state ?? fileState(opts.storage));
  const scratch = recorder.inScratch(host);
  let summary: SyncSummary;
  try {
    summary = await sync({
      ...opts,
      onSwitch: async (service, state, history) => {
        await opts.onSwitch?.(service, state, history);
        await scratch.onSwitch(service, state, history);
      },
    });
  } finally {
    await scratch.close();
  }
  return { summary, changes: await recorder.finish(summary) };
}
