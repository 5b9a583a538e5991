import { backend } from './backend.js';
import { config, savingData } from './config.svelte.js';
import { checkSource, type SourceCheck } from './datasets.js';
import { SOURCE_NAMES, type SourceName } from './app-config.js';
import type { StoreState } from '../../core/sync/metadata.js';
import { run } from './sync-progress.svelte.js';
import { skippedTables, startSync } from './sync-run.js';

/**
 * What the publishers have that this copy lacks, and what the app does about it when it opens: the
 * person who opens Almanac every morning sees at once that there is a new publish (the Data item's
 * badge), or has it synced without a visit to the Data view. Conditional manifest requests, so a
 * morning with nothing new costs three 304s.
 */
export type AtOpen = 'check' | 'sync' | 'off';

export const AT_OPEN_LABELS: Record<AtOpen, string> = {
  check: 'Check for new data',
  sync: 'Sync new data',
  off: 'Do nothing',
};

const KEY = 'almanac-at-open';

function readAtOpen(): AtOpen {
  const v = localStorage.getItem(KEY);
  return v === 'sync' || v === 'off' ? v : 'check';
}

export const updates = $state<{ atOpen: AtOpen; services: SourceName[]; error: string | null }>({ atOpen: readAtOpen(), services: [], error: null });

export function saveAtOpen(v: AtOpen): void {
  updates.atOpen = v;
  if (v === 'check') localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, v);
}

/** The page's newest check of the sources (the Data view's, or the one at open), while it runs and after. */
let latest: Promise<SourceCheck[]> | null = null;

/**
 * Asks `services`' manifests, as stored and chosen (format, the light copy), conditionally. The result
 * is the newest word on what is behind, so the Data item's badge follows it.
 */
export function checkSources(stored: StoreState, services: readonly SourceName[]): Promise<SourceCheck[]> {
  const skip = skippedTables();
  latest = Promise.all(services.map((s) => checkSource(s, config.value!.sources[s], stored.datasets[s], stored.choices[s] ?? 'auto', skip[s]))).then((checks) => {
    updates.services = checks.filter((c) => c.local === 'update').map((c) => c.service);
    return checks;
  });
  return latest;
}

/**
 * At open: asks each synced source's manifest (304 when nothing changed), unless this page has. With "Sync new data", syncs
 * the sources that are behind, unless the browser asks to save data (then it only says so). Sources
 * never synced are left to the user's first Sync, where the Data view explains the choices.
 */
export async function checkAtOpen(): Promise<void> {
  if (updates.atOpen === 'off') return;
  try {
    // A page opened on the Data view has asked already (or is asking): its answer serves.
    if (!latest) {
      const stored = await backend().status();
      await checkSources(stored, SOURCE_NAMES.filter((s) => stored.datasets[s]));
    } else await latest;
    if (updates.atOpen !== 'sync' || updates.services.length === 0 || run.running || savingData()) return;
    const end = await startSync([...updates.services]);
    updates.error = end.error;
    if (!end.error && !end.notice) updates.services = [];
  } catch (e) {
    // Offline at open, or a publisher down: the local copy answers as before; the Data view says why.
    updates.error = e instanceof Error ? e.message : String(e);
  }
}
