import type { Command } from './command.js';

/** Each command lives in its own module; add one line here per command. */
export const commands: Array<() => Promise<Command>> = [
  () => import('./sync.js').then((m) => m.default),
  () => import('./status.js').then((m) => m.default),
  () => import('./sql.js').then((m) => m.default),
  () => import('./delete.js').then((m) => m.default),
  () => import('./serve.js').then((m) => m.default),
  () => import('./import-amfi.js').then((m) => m.default),
  () => import('./series.js').then((m) => m.default),
  () => import('./compare.js').then((m) => m.default),
  () => import('./import-prices.js').then((m) => m.default),
  () => import('./watch.js').then((m) => m.default),
  () => import('./changes.js').then((m) => m.default),
];
