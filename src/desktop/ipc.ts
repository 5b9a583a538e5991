/**
 * Every argument from the window is validated here before it reaches the core: the renderer is
 * treated as untrusted (a page that ran hostile script must not turn IPC into more than the app does).
 */
import { isService, SERVICES, type Service } from '../core/sync/datasets.js';
import type { HistoryOptions } from '../core/sync/refresh/history.js';
import { isWatchKind, WATCH_KINDS, type WatchKind } from '../core/changes/watches.js';

export class IpcInputError extends Error {}

export interface QueryArgs {
  sql: string;
  params: Array<string | number | boolean | null | bigint>;
}

const MAX_SQL = 1_000_000;
const MAX_PARAMS = 10_000;
/** A prices CSV of ten years of daily closes for a few hundred symbols is a few tens of MB. */
const MAX_CSV = 64 * 2 ** 20;
const MAX_ETAG = 512;

function object(input: unknown, what: string): Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new IpcInputError(`${what} must be an object`);
  return input as Record<string, unknown>;
}

export function validateQuery(input: unknown): QueryArgs {
  const { sql, params = [] } = object(input, 'query arguments');
  validateSql(sql);
  if (!Array.isArray(params) || params.length > MAX_PARAMS) throw new IpcInputError('params must be an array');
  for (const p of params) {
    if (!(p === null || ['string', 'number', 'boolean', 'bigint'].includes(typeof p))) {
      throw new IpcInputError('each param must be a string, number, boolean or null');
    }
  }
  return { sql: sql as string, params: params as QueryArgs['params'] };
}

export function validateSql(sql: unknown): string {
  if (typeof sql !== 'string' || sql.length === 0 || sql.length > MAX_SQL) throw new IpcInputError('sql must be a non-empty string under 1 MB');
  return sql;
}

/**
 * Why `value` cannot be a publisher's base URL, or null if it can: https anywhere, http only on
 * loopback (the stand-in publisher), no credentials, query or fragment (the app appends paths to it).
 */
export function sourceUrlProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a URL';
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return `'${value}' is not a URL`;
  }
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname))) {
    return 'must be https (or http on loopback)';
  }
  if (u.username || u.password) return 'must not carry a user name or password';
  if (u.search || u.hash) return 'must not have a query or fragment (it is the service root)';
  return null;
}

function sourceUrl(value: unknown, field: string): string {
  const problem = sourceUrlProblem(value);
  if (problem) throw new IpcInputError(`${field} ${problem}`);
  return (value as string).replace(/\/+$/, '');
}

export function validateService(value: unknown, field = 'service'): Service {
  if (typeof value !== 'string' || !isService(value)) throw new IpcInputError(`${field} must be one of ${SERVICES.join(', ')}`);
  return value;
}

/** A sync's datasets (default: all) and each one's base URL (default: the settings' source). */
export function validateSyncRequest(
  input: unknown,
  fallback: string | null,
): { only: Service[]; sources: Partial<Record<Service, string>>; history: HistoryOptions } {
  const o = input === undefined || input === null ? {} : object(input, 'sync arguments');
  let only: Service[] = [...SERVICES];
  if (o.only !== undefined) {
    if (!Array.isArray(o.only) || o.only.length === 0 || !o.only.every((s) => typeof s === 'string' && isService(s))) {
      throw new IpcInputError(`only must be a non-empty list of datasets: ${SERVICES.join(', ')}`);
    }
    only = [...new Set(o.only as Service[])];
  }
  const given = o.sources === undefined ? {} : object(o.sources, 'sources');
  const sources: Partial<Record<Service, string>> = {};
  for (const svc of only) {
    const url = given[svc] ?? fallback;
    if (url === undefined || url === null || url === '') {
      throw new IpcInputError(`no source set for ${svc}: enter the publisher's base URL in the Data view first`);
    }
    sources[svc] = sourceUrl(url, `sources.${svc}`);
  }
  return { only, sources, history: historyOptions(o.history) };
}

/** The MF history's options: `full` a boolean, `verifyEveryMs` a non-negative number or null (never). */
function historyOptions(input: unknown): HistoryOptions {
  if (input === undefined || input === null) return {};
  const h = object(input, 'history');
  if (h.full !== undefined && typeof h.full !== 'boolean') throw new IpcInputError('history.full must be true or false');
  const every = h.verifyEveryMs;
  if (every !== undefined && every !== null && !(typeof every === 'number' && Number.isFinite(every) && every >= 0)) {
    throw new IpcInputError('history.verifyEveryMs must be a number of milliseconds (0 or more) or null');
  }
  return { ...(h.full !== undefined ? { full: h.full } : {}), ...(every !== undefined ? { verifyEveryMs: every as number | null } : {}) };
}

export function validateManifestRequest(input: unknown): { service: Service; base: string; etag: string | null } {
  const o = object(input, 'manifest arguments');
  const etag = o.etag ?? null;
  if (etag !== null && (typeof etag !== 'string' || etag.length > MAX_ETAG || /[\r\n]/.test(etag))) {
    throw new IpcInputError('etag must be a short single-line string or null');
  }
  return { service: validateService(o.service), base: sourceUrl(o.base, 'base'), etag };
}

/** An AMFI file's text and its name (kept as the rows' provenance: one plain name, no path). */
export function validateAmfiImport(input: unknown): { text: string; fileName: string } {
  const { text, fileName } = object(input, 'import arguments');
  if (typeof text !== 'string' || text.length > MAX_CSV) throw new IpcInputError('text must be text under 64 MB');
  if (typeof fileName !== 'string' || !/^[^/\\\x00-\x1f]{1,200}$/.test(fileName)) {
    throw new IpcInputError('fileName must be a plain file name of 1 to 200 characters');
  }
  return { text, fileName };
}

/** A watch toggle: kind, the id shown on the page, on or off. */
export function validateWatchSet(input: unknown): { kind: WatchKind; id: string; on: boolean } {
  const { kind, id, on } = object(input, 'watch arguments');
  if (typeof kind !== 'string' || !isWatchKind(kind)) throw new IpcInputError(`kind must be one of ${WATCH_KINDS.join(', ')}`);
  if (typeof id !== 'string' || id.length === 0 || id.length > 100) throw new IpcInputError('id must be a string of 1 to 100 characters');
  if (typeof on !== 'boolean') throw new IpcInputError('on must be true or false');
  return { kind, id, on };
}

/** An exported watchlist to import (JSON text; its entries are checked by the core's parser). */
export function validateWatchImport(input: unknown): string {
  const { text } = object(input, 'import arguments');
  if (typeof text !== 'string' || text.length > 2 ** 20) throw new IpcInputError('text must be text under 1 MB');
  return text;
}

/** `since` for the changes: absent, null or a string (the core checks its form). */
export function validateSince(input: unknown): string | null {
  const since = input === undefined || input === null ? null : object(input, 'changes arguments').since;
  if (since !== undefined && since !== null && (typeof since !== 'string' || since.length > 40)) throw new IpcInputError('since must be a date');
  return (since as string | null | undefined) ?? null;
}

export function validateCsv(input: unknown): string {
  const { csv } = object(input, 'import arguments');
  if (typeof csv !== 'string' || csv.length > MAX_CSV) throw new IpcInputError('csv must be text under 64 MB');
  return csv;
}
