import type { HistoryRefresh, SyncEvent } from '../../core/sync/progress.js';
import type { Service } from '../../core/sync/datasets.js';
import { refusalIn } from '../../core/sync/drift.js';

/** What one file's row in the sync panel shows, folded from the sync engine's events. */
export interface FileProgress {
  service: Service;
  file: string;
  bytes: number;
  total: number;
  rate: number;
  eta: number | null;
  status: 'waiting' | 'downloading' | 'done' | 'not_modified' | 'failed' | 'cancelled';
  /** Seconds left of a 429 / Retry-After wait, counted down by the panel. */
  waitUntil: number | null;
  waitReason: string | null;
  error: string | null;
  rows: number | null;
  /** A table of this file being loaded: rows moved so far, of the manifest's count when known. */
  loading: { table: string; rows: number; total: number | null } | null;
  /** Body bytes this sync fetched; less than `total` when a partial download was resumed. */
  fetched: number | null;
  resumed: boolean;
  /** The MF history: how it was refreshed, in words ("appended 1 day from the latest snapshot, 0.9 MB"). */
  detail: string | null;
  /** The MF history: the refresh path (a whole download's words carry no size; the panel adds it). */
  refresh: HistoryRefresh | null;
}

/** A wait before a dataset's manifest (rate limit, 429, backoff), counted down by the panel. */
export interface ServiceWait {
  until: number;
  reason: string;
}

export interface SyncRun {
  running: boolean;
  /** Cancel was pressed; the sync stops at its next safe point. */
  cancelling: boolean;
  files: Record<string, FileProgress>;
  waits: Partial<Record<Service, ServiceWait>>;
  serviceErrors: Partial<Record<Service, string>>;
  switched: Partial<Record<Service, number>>;
  log: string[];
}

export const run = $state<SyncRun>({ running: false, cancelling: false, files: {}, waits: {}, serviceErrors: {}, switched: {}, log: [] });

/** The sync was cancelled: what was still under way stopped (its partial download is kept). */
export function markCancelled(): void {
  for (const f of Object.values(run.files)) {
    if (f.status === 'waiting' || f.status === 'downloading' || f.loading) Object.assign(f, { status: 'cancelled', waitUntil: null, loading: null });
  }
  run.waits = {};
}

export function resetRun(): void {
  run.cancelling = false;
  run.files = {};
  run.waits = {};
  run.serviceErrors = {};
  run.switched = {};
  run.log = [];
}

function entry(service: Service, file: string): FileProgress {
  const key = `${service}/${file}`;
  return (run.files[key] ??= {
    service, file, bytes: 0, total: 0, rate: 0, eta: null, status: 'waiting',
    waitUntil: null, waitReason: null, error: null, rows: null, loading: null, fetched: null, resumed: false, detail: null, refresh: null,
  });
}

export function onSyncEvent(e: SyncEvent): void {
  switch (e.type) {
    case 'manifest':
      delete run.waits[e.service];
      run.log.push(`${e.service}: manifest ${e.status === 'fetched' ? 'fetched' : 'unchanged (304)'}`);
      break;
    case 'file-start': {
      const f = entry(e.service, e.file);
      Object.assign(f, { status: 'downloading', total: e.total, bytes: e.offset, waitUntil: null, error: null });
      break;
    }
    case 'progress': {
      const f = entry(e.service, e.file);
      Object.assign(f, { status: 'downloading', bytes: e.bytes, total: e.total, rate: e.rate, eta: e.eta, waitUntil: null });
      break;
    }
    case 'waiting': {
      const until = Date.now() + e.seconds * 1000;
      if (e.file) {
        const f = entry(e.service, e.file);
        f.waitUntil = until;
        f.waitReason = waitReason(e.reason);
      } else {
        run.waits[e.service] = { until, reason: waitReason(e.reason) };
      }
      run.log.push(`${e.service}: waiting ${e.seconds} s (${e.reason})`);
      break;
    }
    case 'file-done': {
      const f = entry(e.service, e.file);
      f.waitUntil = null;
      f.detail = e.detail ?? null;
      f.refresh = e.refresh ?? null;
      if (e.detail) run.log.push(`${e.service}: ${e.file} ${e.detail}`);
      if (e.status === 'failed') Object.assign(f, { status: 'failed', error: e.error ?? 'failed' });
      else if (e.status === 'not_modified') Object.assign(f, { status: 'not_modified', bytes: f.total });
      else {
        // An entry with no download of its own before this (the NAV endpoint's answers) is what they carried.
        const total = f.total || e.body_bytes;
        Object.assign(f, { status: 'done', total, bytes: Math.max(f.bytes, total), fetched: e.body_bytes, resumed: e.status === 'resumed' });
      }
      break;
    }
    case 'ingest-progress': {
      const f = entry(e.service, e.file);
      f.loading = { table: e.table, rows: e.rows, total: e.total };
      break;
    }
    case 'ingest': {
      const f = entry(e.service, e.file);
      f.loading = null;
      f.rows = (f.rows ?? 0) + e.rows;
      run.log.push(`${e.service}: loaded ${e.table} (${e.rows.toLocaleString('en-US')} rows)`);
      break;
    }
    case 'switched':
      run.switched[e.service] = e.generation;
      run.log.push(`${e.service}: generation ${e.generation} is now current`);
      break;
    case 'service-failed':
      run.serviceErrors[e.service] = e.error;
      run.log.push(`${e.service} failed: ${e.error}`);
      break;
  }
}

function waitReason(reason: 'rate-limit' | 'retry-after' | 'backoff'): string {
  if (reason === 'backoff') return 'retrying after an error';
  if (reason === 'retry-after') return 'rate limit (HTTP 429): waiting as the publisher asked';
  return 'keeping to the published rate limit';
}

/** What the user can do about an error, in words. */
export function advice(error: string): string {
  if (refusalIn(error)) return "The publisher changed this file's layout in a way Almanac will not take; the previous copy keeps answering. The source's card says what changed.";
  if (/429|rate/i.test(error)) return 'The publisher is rate-limiting: wait a minute and press Sync again; finished files are kept.';
  if (/fetch|network|Failed to fetch|ECONN|unreachable/i.test(error)) return 'The source did not answer: check the base URL and your connection, then Sync again. Partial downloads resume.';
  if (/quota|QuotaExceeded|space/i.test(error)) return 'The browser ran out of storage: delete a dataset or allow persistent storage, then Sync again.';
  if (/refused/i.test(error)) return 'The publisher sent something unsafe or malformed; it was not used. Check the base URL points at the right service.';
  if (/HTTP 4\d\d/.test(error)) return 'The source rejected the request: check the base URL (it should be the service root, without /v1).';
  return 'Press Sync again; if it keeps failing, check the base URL. Your previous data stays available meanwhile.';
}
