import type { Command } from './command.js';

/**
 * Each command lives in its own module, loaded by name: a run imports only the command it runs (all of
 * them, with the server's and the MCP SDK's modules, cost ~2.5 s of CPU per start under tsx). Add one
 * line here per command, under its name.
 */
export const commands: Record<string, () => Promise<Command>> = {
  sync: () => import('./sync.js').then((m) => m.default),
  status: () => import('./status.js').then((m) => m.default),
  sql: () => import('./sql.js').then((m) => m.default),
  delete: () => import('./delete.js').then((m) => m.default),
  serve: () => import('./serve.js').then((m) => m.default),
  'import-amfi': () => import('./import-amfi.js').then((m) => m.default),
  series: () => import('./series.js').then((m) => m.default),
  compare: () => import('./compare.js').then((m) => m.default),
  'import-prices': () => import('./import-prices.js').then((m) => m.default),
  watch: () => import('./watch.js').then((m) => m.default),
  changes: () => import('./changes.js').then((m) => m.default),
};
