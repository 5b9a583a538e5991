// What the app is configured with, as types and names: a leaf module, so the backends (which serve the
// defaults) and config.svelte.ts (which asks a backend for them) both import it without a cycle.
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
