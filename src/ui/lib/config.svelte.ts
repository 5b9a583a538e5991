import { backend } from './backend.js';

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
