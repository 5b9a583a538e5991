/** The three sources the app syncs from. `npm start` serves config.json naming its embedded publisher. */
export interface Sources {
  indicators: string;
  mf: string;
  flags: string;
}
export type SourceName = keyof Sources;
export const SOURCE_NAMES: SourceName[] = ['indicators', 'mf', 'flags'];
export const SOURCE_LABELS: Record<SourceName, string> = {
  indicators: 'Indicators',
  mf: 'Mutual-fund NAVs',
  flags: 'Corporate red flags',
};

export interface AppConfig {
  sources: Sources;
  /** The local REST/MCP server, when `npm start` runs one. */
  server?: string;
}

const KEY = 'almanac-sources';

export const config = $state<{ value: AppConfig | null; defaults: Sources | null }>({ value: null, defaults: null });

/** Loads config.json (network-first through the service worker); user edits override it. */
export async function loadConfig(): Promise<AppConfig> {
  let served: Partial<AppConfig> = {};
  try {
    const res = await fetch('./config.json', { cache: 'no-cache' });
    if (res.ok) served = await res.json();
  } catch {
    // Offline on a first visit: no served defaults; the user can type the base URLs.
  }
  const fallback = location.origin;
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
