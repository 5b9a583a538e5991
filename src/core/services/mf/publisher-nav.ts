import { classifySchemeId, MF_BASE, MfError, parseSchemeNavParams, schemeNotFound } from '../../contract/mf-params.js';
import { isIsoDate } from '../../contract/dates.js';
import { readCapped } from '../../sync/fetch-manifest.js';
import type { NavPoint, SchemeNav } from './nav.js';

/**
 * One scheme's NAV history asked of the publisher's own endpoint, for a store that keeps no history
 * (the light choice on a phone, docs/mobile.md): the scheme page draws it instead of the local
 * `mf.nav`, which that store does not have. The answer is the contract's SchemeNav, checked field by
 * field: nothing from the network is trusted.
 */
export interface PublisherNav {
  nav: SchemeNav;
  /** Bytes of the answer's body, as the page says what the fetch cost. */
  bytes: number;
}

/** The longest scheme at full scale is ~5k points (~0.2 MB of JSON); anything near this is not a NAV history. */
const MAX_ANSWER = 8 * 1024 * 1024;

/** Why the publisher gave no history: its own message (the spec's envelope), or what went wrong on the way. */
export class PublisherNavError extends Error {
  constructor(
    message: string,
    /** HTTP status, or null when the publisher was not reached. */
    readonly status: number | null,
  ) {
    super(message);
  }
}

export async function publisherSchemeNav(fetchFn: typeof fetch, base: string, code: string, signal?: AbortSignal): Promise<PublisherNav> {
  // The same rules as a local query: an id that cannot name a scheme is refused here, before any request.
  const [id] = parseSchemeNavParams(code, []).ids;
  const kind = classifySchemeId(id).kind;
  if (kind === 'malformed' || kind === 'corrupt_isin') throw new MfError(schemeNotFound(id, kind));
  let res: Response;
  try {
    // Revalidated, never taken from the HTTP cache as it stands: the answer carries Last-Modified and
    // no Cache-Control, which a browser may otherwise reuse for hours by heuristics (seen: a kept
    // history fetched again after a publish came back as the day before's).
    res = await fetchFn(`${base.replace(/\/+$/, '')}${MF_BASE}/schemes/${encodeURIComponent(id)}/nav`, { headers: { Accept: 'application/json' }, signal, cache: 'no-cache' });
  } catch (e) {
    if (signal?.aborted) throw e;
    throw new PublisherNavError(`The publisher could not be reached (${e instanceof Error ? e.message : String(e)}).`, null);
  }
  const text = await readCapped(res, MAX_ANSWER, 'NAV endpoint answer');
  if (res.status !== 200) throw new PublisherNavError(refusal(res, text), res.status);
  const bytes = new TextEncoder().encode(text).length;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new PublisherNavError('The publisher answered with something other than JSON.', res.status);
  }
  return { nav: schemeNavFrom(body), bytes };
}

/** The envelope's message (and when to try again after a 429), or the bare status. */
function refusal(res: Response, text: string): string {
  let env: { message?: unknown; hint?: unknown; retry_after_seconds?: unknown } = {};
  try {
    env = JSON.parse(text) as typeof env;
  } catch {
    // Not the spec's envelope (a proxy's page): the status says enough.
  }
  const message = typeof env.message === 'string' ? env.message : `HTTP ${res.status}`;
  const retry = Number(env.retry_after_seconds ?? res.headers.get('retry-after'));
  const when = res.status === 429 && Number.isFinite(retry) ? ` Try again in ${Math.ceil(retry)} s.` : '';
  return `The publisher refused: ${message}${when}`;
}

const notNav = (field: string): never => {
  throw new PublisherNavError(`The publisher's answer is not a NAV history (${field}).`, 200);
};

/** Typed reads of one object's fields; a field of another type fails the whole answer, naming it. */
function fields(v: unknown, where: string) {
  const o = (v !== null && typeof v === 'object' ? v : {}) as Record<string, unknown>;
  const at = (k: string) => `${where}${k}`;
  const str = (k: string): string => (typeof o[k] === 'string' ? (o[k] as string) : notNav(at(k)));
  return {
    raw: o,
    str,
    optStr: (k: string): string | null => (o[k] == null ? null : str(k)),
    date: (k: string): string => (isIsoDate(str(k)) ? (o[k] as string) : notNav(at(k))),
    int: (k: string): number => (Number.isInteger(o[k]) ? (o[k] as number) : notNav(at(k))),
    num: (k: string): number => (typeof o[k] === 'number' && Number.isFinite(o[k]) ? (o[k] as number) : notNav(at(k))),
    flag: (k: string): boolean => (typeof o[k] === 'boolean' ? (o[k] as boolean) : notNav(at(k))),
    list: (k: string): unknown[] | null => (o[k] == null ? null : Array.isArray(o[k]) ? (o[k] as unknown[]) : notNav(at(k))),
  };
}

/** The answer as a SchemeNav, or an error naming the first field that is not what the contract says. */
export function schemeNavFrom(body: unknown): SchemeNav {
  const f = fields(body, '');
  const data: NavPoint[] = (f.list('data') ?? notNav('data')).map((p) => {
    const q = fields(p, 'data[].');
    return { date: q.date('date'), nav: q.num('nav') };
  });
  if (f.int('count') !== data.length) notNav('count');
  const nav: SchemeNav = {
    scheme_code: f.int('scheme_code'),
    scheme_name: f.str('scheme_name'),
    isin: f.optStr('isin'),
    isin2: f.optStr('isin2'),
    first_available_date: f.date('first_available_date'),
    latest_available_date: f.date('latest_available_date'),
    count: data.length,
    data,
    is_active: f.flag('is_active'),
    end_of_life: f.flag('end_of_life'),
  };
  const notes = f.list('notes');
  if (notes) nav.notes = notes.map((n) => (typeof n === 'string' ? n : notNav('notes[]')));
  const next = f.list('continued_as');
  if (next) {
    nav.continued_as = next.map((s) => {
      const c = fields(s, 'continued_as[].');
      return { scheme_code: c.int('scheme_code'), scheme_name: c.str('scheme_name'), isin: c.optStr('isin'), first_date: c.date('first_date'), last_date: c.date('last_date'), is_active: c.flag('is_active') };
    });
  }
  return nav;
}
