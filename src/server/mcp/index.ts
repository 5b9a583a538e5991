import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServerDeps } from '../deps.js';

export type ToolModule = (server: McpServer, deps: ServerDeps) => void;

/** One line per service: each module registers its MCP tools, calling the same core functions. */
export const toolModules: Array<() => Promise<ToolModule>> = [
  () => import('./mf.js').then((m) => m.default),
  () => import('./flags.js').then((m) => m.default),
  () => import('./indicators.js').then((m) => m.default),
  () => import('./compare.js').then((m) => m.default),
  () => import('./almanac.js').then((m) => m.default),
];
