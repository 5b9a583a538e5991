import { backend } from './backend.js';
import { VERIFY_EVERY_MS, type HistoryOptions } from '../../core/sync/refresh/history.js';
import type { AppConfig, SourceName, Sources } from './app-config.js';

const KEY = 'almanac-sources';

export const config = $state<{ value: AppConfig | null; defaults: Sources | null }>({ value: null, defaults: null });

/** Loads the served defaults (the browser's config.json, the desktop's settings); user edits override them. */
export async function loadConfig(): Promise<AppConfig> {
  const served = await backend().appConfig();
  // A page on http(s) defaults to its own origin (`npm start` serves the publisher there too); the
  // desktop window's app:// origin serves no data.
  const fallback = /^https?:$/.test(location.protocol) ? location.origin : '';
  const defaults: Sources = {
    indicators: served.sources?.indicators ?? fallback,
    mf: served.sources?.mf ?? fallback,
    flags: served.sources?.flags ?? fallback,
  };
  const saved = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<Sources>;
  const value: AppConfig = { sources: { ...defaults, ...saved }, server: served.server };
  config.defaults = defaults;
  config.value = value;
  return value;
}

export function saveSource(name: SourceName, url: string): void {
  if (!config.value) return;
  config.value.sources[name] = url.replace(/\/+$/, '');
  const saved = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<Sources>;
  if (config.defaults && url === config.defaults[name]) delete saved[name];
  else saved[name] = config.value.sources[name];
  localStorage.setItem(KEY, JSON.stringify(saved));
}

/** The MF history's full verification (docs/sync.md): how often, and whether a metered connection puts it off. */
export interface VerifySettings {
  everyDays: number;
  /** Put it off while the browser says the connection should save data (navigator.connection.saveData). */
  deferOnMetered: boolean;
}

const VERIFY_KEY = 'almanac-verify';
const VERIFY_DEFAULT: VerifySettings = { everyDays: VERIFY_EVERY_MS / 86_400_000, deferOnMetered: true };

function loadVerify(): VerifySettings {
  try {
    const v = JSON.parse(localStorage.getItem(VERIFY_KEY) ?? '{}') as Partial<VerifySettings>;
    const days = Number(v.everyDays);
    return { everyDays: Number.isFinite(days) && days >= 1 ? Math.round(days) : VERIFY_DEFAULT.everyDays, deferOnMetered: v.deferOnMetered ?? VERIFY_DEFAULT.deferOnMetered };
  } catch {
    return { ...VERIFY_DEFAULT };
  }
}

export const verify = $state<{ value: VerifySettings }>({ value: loadVerify() });

export function saveVerify(v: VerifySettings): void {
  verify.value = { everyDays: Math.max(1, Math.round(v.everyDays)), deferOnMetered: v.deferOnMetered };
  localStorage.setItem(VERIFY_KEY, JSON.stringify(verify.value));
}

/** The connection asks to save data (Save-Data / data saver), where the browser says so. */
export function savingData(): boolean {
  return (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true;
}

/** What a sync passes for the history: verified every N days, or never by itself while saving data. */
export function historyOptions(full = false): HistoryOptions {
  if (full) return { full: true };
  const put = verify.value.deferOnMetered && savingData();
  return { verifyEveryMs: put ? null : verify.value.everyDays * 86_400_000 };
}
