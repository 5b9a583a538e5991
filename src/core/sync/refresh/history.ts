import type { PlannedFile } from '../datasets.js';
import { downloadPath } from '../../contract/files.js';
import { sizeHuman } from '../../contract/indicators.js';
import type { Storage } from '../../storage/storage.js';
import { fetchFile } from '../fetch-file.js';
import { runHook } from '../hooks.js';
import { files, type DatasetState, type HistoryState, type SourceState } from '../metadata.js';
import type { FileResult, HistoryChanges, NavKey } from '../progress.js';
import { record, rethrowStop, type DatasetRun } from '../run.js';
import { FOOTER_PROBE, differingGroups, footerLength, parseFooter, sameRows, sameSchema, type Footer } from './footer.js';
import { fetchTail } from './tail.js';
import { diffSnapshots, readSnapshot } from './snapshot.js';
import { fillGaps, type GapRow } from './gaps.js';
import { overlay, type FreshRows, type Overlay } from './overlay.js';

export type { Overlay } from './overlay.js';

export type { HistoryOptions } from '../options.js';

export const VERIFY_EVERY_MS = 7 * 86_400_000;

/**
 * Deltas a history may carry before it is downloaded whole again. Each is one publish's rows and all
 * of them are re-read into every new generation, so they are kept to about a month of daily syncs;
 * the weekly verification compacts long before, unless it was put off.
 */
export const MAX_DELTAS = 32;

/** Name of the NAV endpoint's own entry in a sync's summary. */
export const NAV_ENDPOINT = 'nav endpoint';

/** What the history's refresh hands the rest of the sync. */
export interface HistoryPatch {
  changed: boolean;
  /** How the builder makes `nav` without the file; null: from the file, as any table. */
  overlay: Overlay | null;
  /** The history's state in the generation switched to (none when it never came). */
  next(sources: Record<string, SourceState>): HistoryState | undefined;
  changes: HistoryChanges;
}

export interface HistoryPlan {
  file: PlannedFile;
  /** Runs after every other file of the dataset has been fetched. */
  run(): Promise<HistoryPatch>;
}

/**
 * The history's last whole download, once the publish has moved past it: the history then reads its
 * base database and deltas, no request can be answered 304 for that copy (its ETag is no longer the
 * publish's), and the next whole download replaces it. ~100 MB of the store at full scale, kept for
 * nothing until the weekly verification; null while it may still serve (the same ETag, or the footer).
 */
export function supersededDownload(d: DatasetState): string | null {
  const h = d.history;
  const src = h ? d.sources[h.file] : undefined;
  if (!h?.base || !src || src.etag === h.etag || historyFiles(h).includes(src.store)) return null;
  return src.store;
}

/** Store files a history state holds on to (beyond the generation's own database and sources). */
export function historyFiles(h: HistoryState | undefined): string[] {
  if (!h) return [];
  return [h.footer, ...(h.snapshot ? [h.snapshot] : []), ...(h.base ? [h.base, `${h.base}.wal`] : []), ...h.deltas.map((d) => d.store)];
}

/**
 * The MF history's own path, when the dataset has one; every other file is fetched as usual. `planned`
 * is the plan before a light sync left tables out (`skipTables`): a history held then stays as it is,
 * base, deltas and bookkeeping (its snapshot the one its rows match), and the next full sync refreshes
 * it from there; a history never held gets no bookkeeping.
 */
export function planHistory(d: DatasetRun, plan: readonly PlannedFile[], planned: readonly PlannedFile[]): HistoryPlan | null {
  if (d.service !== 'mf') return null;
  const only = (files: readonly PlannedFile[], t: string) => files.find((f) => f.tables?.length === 1 && f.tables[0] === t) ?? null;
  const file = only(plan, 'nav');
  if (file) return { file, run: () => refreshHistory(d, file, only(plan, 'latest')) };
  const left = only(planned, 'nav');
  const h = d.prev?.history;
  if (!left || !h || !d.prev!.tables.nav) return null;
  return { file: left, run: async () => patched(d, left, { ...h, fresh: null, changed: false }) };
}

/** Why the history must come whole this time, or null when a refresh may try. */
function wholeReason(d: DatasetRun, file: PlannedFile): string | null {
  const { prev, opts } = d;
  const h = prev?.history;
  const every = opts.history?.verifyEveryMs === undefined ? VERIFY_EVERY_MS : opts.history.verifyEveryMs;
  if (opts.history?.full) return 'full verification asked for';
  if (!prev || !h || !prev.tables.nav) return 'no earlier full download to refresh from';
  if (prev.source_url !== d.base) return 'another publisher';
  if (file.suffix !== 'parquet') return `the history comes as ${file.suffix}; only parquet can be refreshed in part`;
  if (file.rows === null) return 'the manifest gives no row count for the history';
  if (every !== null && Date.parse(d.now) - Date.parse(h.verified_at) >= every) {
    return `full verification due (last ${h.verified_at.slice(0, 10)}, every ${Math.round(every / 86_400_000)} days)`;
  }
  if (h.deltas.length >= MAX_DELTAS) return `${h.deltas.length} refreshes since the last full download: compacted`;
  return null;
}

/**
 * Plan, fetch, verify: what the history needs from the publisher, as little as the counts allow. The
 * build (overlay.ts) and the switch (sync.ts) follow. Any doubt brings the file whole, saying why.
 */
async function refreshHistory(d: DatasetRun, file: PlannedFile, snap: PlannedFile | null): Promise<HistoryPatch> {
  const why = wholeReason(d, file);
  if (why) return whole(d, file, snap, why);
  const { opts, service } = d;
  const h = d.prev!.history!;
  const local = d.prev!.tables.nav.rows;
  let tail;
  try {
    tail = await fetchTail(d.exchange(file.name), `${d.base}${downloadPath(service, file.name)}`, h.etag, file.size);
  } catch (e) {
    rethrowStop(e, opts);
    return whole(d, file, snap, `the footer could not be read (${(e as Error).message})`);
  }
  await runHook(opts.hook, 'refresh:plan', { service, file: file.name });
  if (tail.status === 'unchanged') {
    d.sources[file.name] = d.prev!.sources[file.name];
    record(opts, d.summary, { service, name: file.name, status: 'not_modified', body_bytes: 0 });
    return patched(d, file, { etag: h.etag, footer: h.footer, snapshot: h.snapshot, fresh: null, refresh: h.refresh, detail: h.detail, changed: false });
  }
  const footer = parseFooter(tail.bytes);
  let heldBytes: Uint8Array;
  let held: Footer;
  try {
    heldBytes = await readTail(opts.storage, h.footer);
    held = parseFooter(heldBytes);
  } catch (e) {
    return whole(d, file, snap, `the footer held is unreadable (${(e as Error).message})`, tail.body_bytes);
  }
  const footerStore = `${files.source(service, d.generation, file.name)}.footer`;
  const note = (x: Pick<FileResult, 'refresh' | 'detail'>) =>
    record(opts, d.summary, { service, name: file.name, status: 'patched', body_bytes: tail.body_bytes, ...x });

  // New or retyped columns (schema drift): rows from a snapshot or the NAV endpoint could not carry
  // them, and the build's drift rules (docs/sync.md) read the whole file.
  if (!sameSchema(held, footer)) return whole(d, file, snap, 'the history\'s columns changed', tail.body_bytes);
  if (file.rows === local) {
    // A new ETag (a hash of the content) over a footer identical to the byte: only the pages changed, so
    // values were revised in place with every size and statistic kept. A rebuild rewrites the footer.
    if (sameBytes(heldBytes, tail.bytes)) return whole(d, file, snap, 'past NAVs revised: the file changed under an identical footer', tail.body_bytes);
    if (!sameRows(held, footer)) {
      const groups = differingGroups(held, footer);
      return whole(d, file, snap, `past NAVs revised: row group${groups.length === 1 ? '' : 's'} ${groups.join(', ')} of ${footer.groups.length} differ`, tail.body_bytes);
    }
    await writeOnce(opts.storage, footerStore, tail.bytes);
    const detail = 'rebuilt with the same rows: only the footer read';
    note({ refresh: 'ranges', detail });
    return patched(d, file, { etag: tail.etag, footer: footerStore, snapshot: h.snapshot, fresh: null, refresh: 'ranges', detail, changed: true });
  }
  if (file.rows! < local) return whole(d, file, snap, `the publish has ${file.rows} rows, fewer than the ${local} held`, tail.body_bytes);
  const now = snap && d.sources[snap.name];
  if (!snap || !now || !h.snapshot || now.store === h.snapshot || now.suffix !== 'parquet') {
    return whole(d, file, snap, 'the history grew but no new parquet snapshot came with it', tail.body_bytes);
  }
  const diff = diffSnapshots(await readSnapshot(opts.host, h.snapshot), await readSnapshot(opts.host, now.store));
  const missing = file.rows! - local - diff.appended.length;
  if (missing < 0) {
    return whole(d, file, snap, `counts do not add up: ${local} held + ${diff.appended.length} from the snapshot > ${file.rows} published`, tail.body_bytes);
  }
  let gaps: GapRow[] = [];
  if (missing > 0) {
    const fill = await fillGaps(d.exchange(NAV_ENDPOINT), d.base, diff.gaps, missing).catch((e: unknown) => {
      rethrowStop(e, opts);
      return (e as Error).message;
    });
    if (fill !== null && typeof fill !== 'string') {
      record(opts, d.summary, { service, name: NAV_ENDPOINT, status: 'downloaded', body_bytes: fill.body_bytes });
    }
    if (fill === null || typeof fill === 'string') {
      const more = fill === null ? `more than the NAV endpoint's budget allows` : `the NAV endpoint failed (${fill})`;
      return whole(d, file, snap, `${missing} rows missing beyond the snapshot across ${diff.gaps.length} schemes: ${more}`, tail.body_bytes);
    }
    if (fill.rows.length !== missing) {
      return whole(d, file, snap, `counts do not add up: ${missing} rows missing beyond the snapshot, the NAV endpoint gave ${fill.rows.length}`, tail.body_bytes);
    }
    gaps = fill.rows;
  }
  await runHook(opts.hook, 'refresh:fetched', { service, file: file.name });
  await writeOnce(opts.storage, footerStore, tail.bytes);
  const fresh: FreshRows = { store: `${files.source(service, d.generation, file.name)}.delta`, appended: diff.appended, gaps };
  const detail = appendedWords(d, snap.name, fresh, tail.body_bytes);
  note({ refresh: 'append', detail });
  return patched(d, file, { etag: tail.etag, footer: footerStore, snapshot: now.store, fresh, refresh: 'append', detail, changed: true });
}

/** "appended 1 day (13,852 rows) from the latest snapshot, 1.1 MB"; a tiny publish in KB, not "0.0 MB". */
function appendedWords(d: DatasetRun, snapName: string, fresh: FreshRows, footerBytes: number): string {
  const days = new Set([...fresh.appended, ...fresh.gaps].map((r) => r.date)).size;
  const moved = d.summary.files.filter((f) => f.service === d.service && (f.name === snapName || f.name === NAV_ENDPOINT)).reduce((n, f) => n + f.body_bytes, footerBytes);
  const from = fresh.gaps.length ? 'from the latest snapshot and the NAV endpoint' : 'from the latest snapshot';
  return `appended ${days} day${days === 1 ? '' : 's'} (${fresh.appended.length + fresh.gaps.length} rows) ${from}, ${sizeHuman(moved)}`;
}

interface PatchedAs {
  etag: string | null;
  footer: string;
  snapshot: string | null;
  fresh: FreshRows | null;
  refresh: HistoryState['refresh'];
  detail: string;
  changed: boolean;
}

/** The history as the base's table plus its deltas (and this publish's rows, if any), without the file. */
function patched(d: DatasetRun, file: PlannedFile, p: PatchedAs): HistoryPatch {
  const prev = d.prev!;
  const h = prev.history!;
  d.sources[file.name] = prev.sources[file.name];
  const deltas = [...h.deltas];
  const nav = prev.tables.nav;
  // A history that was a table of the previous generation becomes the base its deltas build on.
  const base = h.base ?? prev.database;
  const baseRows = h.base ? h.base_rows : nav.rows;
  const spec = {
    service: d.service, file: file.name, columns: nav.columns, changes: nav.changes ?? [], base_rows: baseRows,
    deltas: [...h.deltas], fresh: p.fresh,
    // Rows added: the publish's count; none (kept as held, rebuilt, a failed download): the rows held.
    expect: p.fresh ? file.rows! : nav.rows,
    onDelta: async (x: HistoryState['deltas'][number]) => {
      deltas.push(x);
      await runHook(d.opts.hook, 'refresh:delta', { service: d.service, file: file.name });
    },
  };
  const appended: NavKey[] = p.fresh ? [...p.fresh.appended, ...p.fresh.gaps.map(({ scheme_code, date }) => ({ scheme_code, date }))] : [];
  return {
    changed: p.changed,
    overlay: overlay(spec),
    next: () => ({
      file: file.name, etag: p.etag, footer: p.footer, snapshot: p.snapshot, base, base_rows: baseRows, deltas,
      verified_at: h.verified_at, refresh: p.refresh, detail: p.detail,
    }),
    changes: { refresh: p.refresh, detail: p.detail, appended, revised: [] },
  };
}

/** The history downloaded whole (or confirmed by a 304 on the copy held) and rebuilt from the file. */
async function whole(d: DatasetRun, file: PlannedFile, snap: PlannedFile | null, reason: string, spent = 0): Promise<HistoryPatch> {
  const prev = d.prev;
  const detail = `downloaded whole: ${reason}`;
  await fetchFile(d, file, { refresh: 'full', reason, detail });
  const entry = d.summary.files.findLast((f) => f.service === d.service && f.name === file.name);
  if (entry) entry.body_bytes += spent;
  const got = d.sources[file.name];
  // A failed download must not fall back to the kept file when deltas were added to it since.
  if (!got && prev?.history?.base) return patched(d, file, { ...prev.history, fresh: null, changed: false });
  if (!got) return { changed: false, overlay: null, next: () => prev?.history, changes: { refresh: 'full', detail, reason, appended: null, revised: null } };
  return {
    // A copy the publisher confirms unchanged is still rebuilt when asked for in full, or to fold deltas in.
    changed: got.store !== prev?.sources[file.name]?.store || !!d.opts.history?.full || !!prev?.history?.base,
    overlay: null,
    next: (sources) => ({
      file: file.name, etag: got.etag, footer: got.store, snapshot: (snap && sources[snap.name]?.store) ?? null, base: null, base_rows: 0,
      deltas: [], verified_at: d.now, refresh: 'full', detail,
    }),
    changes: { refresh: 'full', detail, reason, appended: null, revised: null },
  };
}

/** The last bytes of store file `name`, enough to hold its parquet footer. */
async function readTail(storage: Storage, name: string): Promise<Uint8Array> {
  const blob = await storage.blob(name);
  const read = async (n: number) => new Uint8Array(await blob.slice(Math.max(0, blob.size - n)).arrayBuffer());
  return read(footerLength(await read(FOOTER_PROBE)) + 8);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

async function writeOnce(storage: Storage, name: string, bytes: Uint8Array): Promise<void> {
  const w = await storage.openWriter(name, 0);
  try {
    await w.write(bytes);
  } finally {
    await w.close();
  }
}

