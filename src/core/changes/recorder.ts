/**
 * Records what a sync changed, one dataset switch at a time, while the old generation is still on
 * disk (the sync's `onSwitch` runs before it is removed). Storage hazards decide where the comparison
 * runs (docs/storage.md): never in a builder engine (direct I/O wipes an existing file it attaches);
 * in the browser only the page's store may open the files (OPFS handles are exclusive), so there the
 * store itself attaches the old file beside the new one; in Node, with no store open, a plain scratch
 * engine attaches both and closes before the old file goes.
 */
import type { Engine } from '../engine/engine.js';
import type { Storage } from '../storage/storage.js';
import type { Service } from '../sync/datasets.js';
import { sqlString, type DatabaseHost } from '../sync/host.js';
import type { DatasetState, StateStore, StoreState } from '../sync/state.js';
import type { AttachHost } from '../store/store.js';
import { diffService, previous, type ServiceChanges } from './diff.js';
import { appendLog, appendRevisions, pointOf } from './log.js';
import { emptyTotals, type KeptChanges } from './shape.js';
import { resolvePending, watchedKeys, WATCH_SERVICE, type WatchKind } from './watches.js';
import { sync, type SyncOptions } from '../sync/sync.js';
import type { SyncSummary } from '../sync/progress.js';
import { fileState } from '../sync/state.js';

/** Runs `read` on an engine where `service` is the new generation and `prev_<service>` the old one. */
export type WithBoth = <T>(service: Service, before: DatasetState, after: DatasetState, read: (engine: Engine) => Promise<T>) => Promise<T>;

/** In an engine that already has the new generation attached as `service` (a live store): attach the old beside it. */
export function besideCurrent(engine: Engine, host: AttachHost): WithBoth {
  return async (service, before, _after, read) => {
    await engine.exec(`ATTACH ${sqlString(await host.attachPath(engine, before.database))} AS ${previous(service)}`);
    try {
      return await read(engine);
    } finally {
      await engine.exec(`DETACH ${previous(service)}`);
      await host.forget(engine, before.database);
    }
  };
}

/** With no store open (CLI, desktop during a sync): a plain scratch engine attaches both, then closes. */
export function inScratch(host: DatabaseHost & AttachHost): WithBoth {
  return async (service, before, after, read) => {
    const engine = await host.scratch();
    try {
      await engine.exec(`ATTACH ${sqlString(await host.attachPath(engine, after.database))} AS ${service}`);
      return await besideCurrent(engine, host)(service, before, after, read);
    } finally {
      await engine.close();
    }
  };
}

const KIND_OF = Object.fromEntries(Object.entries(WATCH_SERVICE).map(([kind, service]) => [service, kind])) as Record<Service, WatchKind>;

/** The datasets' changes without a previous generation to compare: every row is new. */
function firstSync(after: DatasetState): ServiceChanges {
  const rows = (t: string) => after.tables[t]?.rows ?? 0;
  if (after.service === 'mf') return { new_navs: rows('nav') };
  if (after.service === 'indicators') return { new_indicator_points: rows('macro_indicators'), revised_indicator_points: 0 };
  return { new_flag_rows: Object.fromEntries(Object.keys(after.tables).map((t) => [t, rows(t)])) };
}

export class ChangeRecorder {
  private readonly parts: Partial<Record<Service, ServiceChanges>> = {};
  readonly errors: string[] = [];

  private constructor(
    private readonly storage: Storage,
    private readonly state: StateStore,
    private readonly before: StoreState,
    private readonly withBoth: WithBoth,
  ) {}

  /** Call before the sync starts: what it is compared with is the state now. */
  static async begin(storage: Storage, state: StateStore, withBoth: WithBoth): Promise<ChangeRecorder> {
    return new ChangeRecorder(storage, state, await state.read(), withBoth);
  }

  /**
   * The sync's `onSwitch`. A comparison that fails is noted and the sync goes on: its data is
   * already switched, and the news about it is worth less than the data.
   */
  readonly switched = async (service: Service, after: DatasetState): Promise<void> => {
    const before = this.before.datasets[service];
    try {
      if (!before) {
        this.parts[service] = firstSync(after);
        return;
      }
      this.parts[service] = await this.withBoth(service, before, after, async (engine) => {
        const keys = watchedKeys(await resolvePending(this.storage, engine))[KIND_OF[service]];
        return diffService(engine, service, before, after, keys);
      });
    } catch (e) {
      this.errors.push(`${service}: ${(e as Error).message}`);
    }
  };

  /** Call when the sync ended, however it ended: keeps the record (a quiet sync too) and the replaced indicator values. */
  async finish(): Promise<KeptChanges> {
    const after = await this.state.read();
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

/** True when a sync changed something the user watches (what the desktop notifies of). */
export function watchedChanged(c: KeptChanges): boolean {
  return c.watched.schemes.length + c.watched.companies.length + c.watched.indicators.length > 0;
}

/**
 * A sync that records its changes: each switch compared through `withBoth` (after the caller's own
 * `onSwitch`, so a live store has re-attached first), the record kept when the sync returns. A sync
 * that throws (cancelled, refused by the lock) records nothing.
 */
export async function syncRecorded(opts: SyncOptions, withBoth: WithBoth): Promise<{ summary: SyncSummary; changes: KeptChanges }> {
  const recorder = await ChangeRecorder.begin(opts.storage, opts.state ?? fileState(opts.storage), withBoth);
  const summary = await sync({
    ...opts,
    onSwitch: async (service, state) => {
      await opts.onSwitch?.(service, state);
      await recorder.switched(service, state);
    },
  });
  return { summary, changes: await recorder.finish() };
}
