/**
 * Error bodies per service, in each spec's envelope, built from the contract modules' helpers.
 * Indicators: 422 `detail`, other 4xx `{error,status,path,message,help}`, 429 its own body.
 * MF: every 4xx `{error,status,path,message,help:{catalog,docs}}`. Flags: the contract's envelope.
 */
import type { DownloadError, Service } from '../core/contract/files.js';
import { SERVICE_BASE, manifestPath } from '../core/contract/files.js';
import * as flags from '../core/contract/flags.js';
import * as ind from '../core/contract/indicators.js';
import { mfErrorBody, mfHelp } from '../core/contract/mf-params.js';
import { isQueryPath } from './queries.js';

export type Body = Record<string, unknown>;

/** The routes this publisher answers, per service (what a 404 lists). */
export function servedEndpoints(service: Service): string[] {
  const b = SERVICE_BASE[service];
  const common = [`GET ${b}/`, `GET, HEAD ${manifestPath(service)}`];
  switch (service) {
    case 'indicators':
      return [...common, ...queries(ind.ENDPOINTS.map((e) => e.path.slice(b.length)), service), `GET, HEAD ${b}/download/all`, `GET, HEAD ${b}/download/{table_name}`];
    case 'mf':
      return [
        `GET ${b}/`, `GET ${b}/terms`, `GET ${b}/search`, `GET ${b}/nav`, `GET ${b}/schemes/{code}/nav`,
        `GET, HEAD ${manifestPath(service)}`, `GET, HEAD ${b}/download`, `GET, HEAD ${b}/download/{dataset}`,
      ];
    case 'flags':
      return [...common, ...queries(flags.ENDPOINTS.map((e) => e.path), service), `GET, HEAD ${b}/download/all`, `GET, HEAD ${b}/download/{table_name}`];
  }
}

/** The contract's query endpoints among `paths` (relative to the service's base). */
function queries(paths: string[], service: Service): string[] {
  return paths.filter((p) => isQueryPath(service, p)).map((p) => `GET ${SERVICE_BASE[service]}${p}`);
}

/** A 4xx other than a download parameter error or a rate limit. */
export function errorFor(service: Service, baseUrl: string, status: number, path: string, message: string, extra: Body = {}): Body {
  const slug = SLUGS[status] ?? 'bad_request';
  switch (service) {
    case 'indicators':
      return { ...ind.errorBody(baseUrl, status, path, message), error: slug, ...extra };
    case 'mf':
      return { error: slug, status, path, message, ...extra, help: mfHelp(baseUrl) };
    case 'flags':
      return { error: slug, status, path, message, help: flagsHelp(baseUrl), hint: FLAGS_HINT, ...extra };
  }
}

const SLUGS: Record<number, string> = {
  400: 'bad_request',
  404: 'not_found',
  405: 'method_not_allowed',
  416: 'range_not_satisfiable',
  422: 'unprocessable_entity',
  429: 'too_many_requests',
  500: 'internal_server_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

const FLAGS_HINT = `See the catalog at ${flags.FLAGS_BASE}/ for endpoints, tables and download formats.`;

function flagsHelp(baseUrl: string): { catalog: string; docs: string } {
  return { catalog: `${baseUrl}${flags.FLAGS_BASE}/`, docs: flags.FLAGS_DOCS_URL };
}

export function notFound(service: Service, baseUrl: string, path: string): Body {
  return errorFor(service, baseUrl, 404, path, `No route ${path}.`, { endpoints: servedEndpoints(service) });
}

/** An unknown path outside every service prefix. */
export function notFoundAnywhere(path: string): Body {
  return {
    error: 'not_found',
    status: 404,
    path,
    message: `No route ${path}.`,
    endpoints: Object.fromEntries((['indicators', 'mf', 'flags'] as const).map((s) => [s, servedEndpoints(s)])),
  };
}

/** A bad `format`, table or dataset on a download route, in the service's own envelope. */
export function downloadError(service: Service, baseUrl: string, path: string, e: DownloadError): Body {
  switch (service) {
    case 'indicators': {
      if (e.status !== 422) return errorFor(service, baseUrl, e.status, path, e.message);
      const expected = e.allowed?.map((a) => `'${a}'`).join(', ');
      const item: ind.ValidationItem = {
        loc: [e.where, e.field],
        msg: expected ? `Input should be ${expected}` : e.message,
        type: 'enum',
        input: e.input,
        ...(expected ? { ctx: { expected } } : {}),
      };
      return { detail: [item] };
    }
    case 'mf': {
      const status = e.status === 422 ? 400 : e.status;
      const hint = e.code === 'not_published' ? undefined : `GET ${manifestPath('mf')} lists every published file.`;
      return { ...mfErrorBody({ status, error: status === 404 ? 'not_found' : 'bad_request', code: e.code, field: e.field, message: e.message, hint }, path, baseUrl) };
    }
    case 'flags': {
      if (e.code === 'unknown_table') return { ...flags.errorBody(flags.unknownTable(e.input, e.field), path, baseUrl) };
      const status = e.status === 404 ? 404 : 422;
      return {
        ...flags.errorBody(
          {
            status,
            error: status === 404 ? 'not_found' : 'unprocessable_entity',
            field: e.field,
            message: e.message,
            hint: `format is one of ${(e.allowed ?? Object.keys(flags.TABLE_DOWNLOAD_FORMATS)).join(', ')}; ${manifestPath('flags')} lists the files.`,
          },
          path,
          baseUrl,
        ),
      };
    }
  }
}

/** 429 bodies: indicators' own shape, MF's envelope with the bulk paths, flags' contract body. */
export function rateLimited(service: Service, baseUrl: string, path: string, kind: 'requests' | 'downloads', retryAfter: number, limit: string): Body {
  switch (service) {
    case 'indicators':
      return { ...ind.rateLimitBody(baseUrl, kind), retry_after_seconds: retryAfter };
    case 'mf':
      return {
        error: 'too_many_requests',
        status: 429,
        path,
        message: `Rate limit exceeded: ${limit}. Retry after ${retryAfter} seconds.`,
        retry_after_seconds: retryAfter,
        bulk: {
          manifest: `${baseUrl}${manifestPath('mf')}`,
          full_history: `${baseUrl}${SERVICE_BASE.mf}/download?format=parquet`,
          latest_snapshot: `${baseUrl}${SERVICE_BASE.mf}/download?format=latest`,
        },
        hint: 'Use the bulk form of /nav (schemes=) and the whole-file downloads instead of many small calls.',
        help: mfHelp(baseUrl),
      };
    case 'flags': {
      const spec = flags.rateLimited(kind === 'requests' ? 'queries' : 'downloads');
      return { ...flags.errorBody(spec, path, baseUrl), retry_after_seconds: retryAfter };
    }
  }
}
