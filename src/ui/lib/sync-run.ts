import { backend, desktopBackend } from './backend.js';
import { config, historyOptions } from './config.svelte.js';
import { deviceInfo, lightByDefault } from './memory.js';
import { run, resetRun, onSyncEvent, markCancelled } from './sync-progress.svelte.js';
import type { SourceName } from './app-config.js';

/**
 * Starting a sync from this window, one way for every door that starts one: the Data view's Sync and
 * "Verify now", and the sync at open (updates.svelte.ts). The run's progress is `run`, folded from
 * the backend's events by `followSyncs`, whichever view is open.
 */

const HISTORY_KEY = 'almanac-mf-history';

/**
 * Whether syncs take the MF NAV history: the user's choice, else light on small or low-memory
 * devices (docs/mobile.md). The desktop app always syncs it all.
 */
export function historyChosen(): boolean {
  if (desktopBackend()) return true;
  return (localStorage.getItem(HISTORY_KEY) ?? (lightByDefault(deviceInfo()) ? 'no' : 'yes')) === 'yes';
}

export function saveHistoryChoice(on: boolean): void {
  localStorage.setItem(HISTORY_KEY, on ? 'yes' : 'no');
}

/** The tables the light choice leaves out, per source. */
export function skippedTables(): Partial<Record<SourceName, string[]>> {
  return historyChosen() ? {} : { mf: ['nav'] };
}

/** How a sync started here ended, for the view to say: why it did not run or stopped, or what failed. */
export interface SyncEnd {
  notice: string | null;
  error: string | null;
}

/** Syncs `only`; `verify`: the MF history downloaded whole and rebuilt ("Verify now"). */
export async function startSync(only: SourceName[], verify = false): Promise<SyncEnd> {
  const end: SyncEnd = { notice: null, error: null };
  resetRun();
  run.running = true;
  try {
    const r = await backend().sync({ only, sources: config.value!.sources, skipTables: verify ? undefined : skippedTables(), history: historyOptions(verify) });
    if (r.outcome === 'done') {
      // A file refused while building (schema drift) arrived fine: only the summary says it failed.
      for (const f of r.summary.files) {
        if (f.status === 'failed') onSyncEvent({ type: 'file-done', service: f.service, file: f.name, status: 'failed', body_bytes: f.body_bytes, error: f.error });
      }
      run.log.push(`done: ${r.summary.requests} requests, ${r.summary.body_bytes.toLocaleString('en-US')} bytes downloaded`);
    } else if (r.outcome === 'cancelled') {
      markCancelled();
      end.notice = 'Sync cancelled. Your previous data still answers; files already downloaded are kept and partial downloads resume on the next Sync.';
    } else if (r.outcome === 'busy') end.notice = `Not started: ${r.message}.`;
    else end.error = r.message;
  } catch (e) {
    end.error = e instanceof Error ? e.message : String(e);
  } finally {
    run.running = false;
    run.cancelling = false;
  }
  return end;
}

/**
 * Folds this window's sync events into `run` for the whole page (started once, by the nav), so a sync
 * started at open shows its progress when the Data view is opened half way.
 */
export function followSyncs(): () => void {
  return backend().subscribe((e) => {
    if (e.type !== 'changes' && e.type !== 'changed') onSyncEvent(e);
  });
}
