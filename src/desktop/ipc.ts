/**
 * The narrow, typed API between the renderer and the desktop core. The preload script exposes exactly
 * these channels; every argument is validated here before it reaches the core, because the renderer
 * is treated as untrusted.
 */
export const CHANNELS = ['engine:all', 'engine:arrow', 'settings:get', 'settings:set', 'server:status', 'sync:run', 'sync:status'] as const;
export type Channel = (typeof CHANNELS)[number];

export class IpcInputError extends Error {}

export interface QueryArgs {
  sql: string;
  params: Array<string | number | boolean | null>;
}

const MAX_SQL = 1_000_000;
const MAX_PARAMS = 10_000;

export function validateQuery(input: unknown): QueryArgs {
  if (typeof input !== 'object' || input === null) throw new IpcInputError('query arguments must be an object');
  const { sql, params = [] } = input as Record<string, unknown>;
  if (typeof sql !== 'string' || sql.length === 0 || sql.length > MAX_SQL) throw new IpcInputError('sql must be a non-empty string under 1 MB');
  if (!Array.isArray(params) || params.length > MAX_PARAMS) throw new IpcInputError('params must be an array');
  for (const p of params) {
    if (!(p === null || ['string', 'number', 'boolean'].includes(typeof p))) throw new IpcInputError('each param must be a string, number, boolean or null');
  }
  return { sql, params: params as QueryArgs['params'] };
}

export function isChannel(c: unknown): c is Channel {
  return typeof c === 'string' && (CHANNELS as readonly string[]).includes(c);
}
