import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import parseRange from 'range-parser';
import type { RouteModule } from './index.js';
import {
  DOWNLOAD_PARAMS,
  LOCAL_DOWNLOAD_FORMATS,
  MF_BASE,
  MfError,
  NAV_PARAMS,
  SCHEME_NAV_PARAMS,
  SEARCH_PARAMS,
  mfErrorBody,
  parseDownloadParams,
  parseNavParams,
  parseSchemeNavParams,
  parseSearchParams,
  type NavParams,
  type ParamSpec,
} from '../../core/contract/mf-params.js';
import { catalog, terms } from '../../core/services/mf/catalog.js';
import { search } from '../../core/services/mf/search.js';
import { nav } from '../../core/services/mf/nav.js';
import { latestSnapshotCsv } from '../../core/services/mf/snapshot.js';
import { asMissingData, dataLastModified, notModifiedSince } from '../../core/services/mf/freshness.js';
import type { ServerDeps } from '../deps.js';

/** Accepted, kept out of the catalog (spec: alias routes). */
const NAV_ALIASES = ['/nav-history', '/history', '/nav/history', '/series'];
const SCHEME_NAV_ALIASES = ['/scheme/:code/nav', '/nav/:code', '/schemes/:code', '/scheme/:code', '/history/:code', '/schemes/:code/history', '/series/:code'];

/**
 * The raw query string, pair by pair: the MF rules (repeated parameters, aliases, unknown names are
 * 400) need every occurrence in order, which a parsed object loses.
 */
function pairs(req: FastifyRequest): [string, string][] {
  const i = req.url.indexOf('?');
  return i < 0 ? [] : [...new URLSearchParams(req.url.slice(i + 1))];
}

/** For OpenAPI only: the handlers validate themselves (see pairs). */
function querySchema(specs: readonly ParamSpec[]) {
  const type = (k: ParamSpec['kind']) => (k === 'int' ? 'integer' : k === 'bool' ? 'boolean' : 'string');
  return {
    type: 'object',
    properties: Object.fromEntries(
      specs.map((s) => [s.name, { type: type(s.kind), description: s.description, ...(s.kind === 'date' ? { format: 'date' } : {}) }]),
    ),
  };
}
const noValidation = () => () => true;

const route = (summary: string, specs: readonly ParamSpec[], hide = false, path = false) => ({
  schema: {
    summary,
    tags: ['mf'],
    ...(hide ? { hide: true } : {}),
    ...(path ? { params: { type: 'object', properties: { code: { type: 'string', description: 'Scheme code or ISIN' } } } } : {}),
    querystring: querySchema(specs),
  },
  validatorCompiler: noValidation,
});

async function sendNav(deps: ServerDeps, req: FastifyRequest, reply: FastifyReply, params: NavParams) {
  const lastModified = await dataLastModified(deps.engine);
  reply.header('last-modified', lastModified.toUTCString());
  if (notModifiedSince(lastModified, req.headers['if-modified-since'])) return reply.code(304).send();
  return reply.send(await nav(deps.engine, params));
}

function register(scope: FastifyInstance, deps: ServerDeps): void {
  scope.setErrorHandler((thrown: Error & { statusCode?: number }, req, reply) => {
    const err = asMissingData(thrown) ?? thrown;
    if (err instanceof MfError) return reply.code(err.spec.status).send(mfErrorBody(err.spec, req.url, deps.baseUrl));
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      const body = mfErrorBody({ status: 400, error: 'bad_request', message: err.message }, req.url, deps.baseUrl);
      return reply.code(err.statusCode).send({ ...body, status: err.statusCode });
    }
    throw err;
  });
  scope.setNotFoundHandler((req, reply) => {
    // Every MF endpoint is GET: another method on any MF path is not allowed rather than missing.
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const spec = { status: 405, error: 'method_not_allowed', message: `${req.method} is not allowed; the MF API is read-only (GET).` } as const;
      return reply.code(405).header('allow', 'GET, HEAD').send(mfErrorBody(spec, req.url, deps.baseUrl));
    }
    const spec = { status: 404, error: 'not_found', message: `No MF endpoint at ${req.url.split('?')[0]}.`, hint: `GET ${MF_BASE}/ lists the endpoints.` } as const;
    return reply.code(404).send(mfErrorBody(spec, req.url, deps.baseUrl));
  });

  // Under a prefix, '/' answers both /mf/v1 and /mf/v1/.
  scope.get('/', route('Catalog: endpoints, schema, limits, examples', []), async () => catalog(deps.engine));
  scope.get('/terms', route('License and terms', []), async () => terms());
  scope.get('/search', route('Find or browse schemes', SEARCH_PARAMS), async (req) => search(deps.engine, parseSearchParams(pairs(req))));

  for (const path of ['/nav', ...NAV_ALIASES]) {
    scope.get(path, route('NAV history, single or bulk', NAV_PARAMS, path !== '/nav'), async (req, reply) =>
      sendNav(deps, req, reply, parseNavParams(pairs(req))),
    );
  }
  for (const path of ['/schemes/:code/nav', ...SCHEME_NAV_ALIASES]) {
    scope.get<{ Params: { code: string } }>(path, route('NAV history of one scheme', SCHEME_NAV_PARAMS, path !== '/schemes/:code/nav', true), async (req, reply) =>
      sendNav(deps, req, reply, parseSchemeNavParams(req.params.code, pairs(req))),
    );
  }

  scope.get('/download', route('Files (this mirror generates the snapshot CSV)', DOWNLOAD_PARAMS), async (req, reply) => {
    const format = parseDownloadParams(pairs(req));
    if (!LOCAL_DOWNLOAD_FORMATS.includes(format)) {
      throw new MfError({
        status: 404,
        error: 'not_found',
        code: 'not_mirrored',
        message: `format=${format} is a publisher file this local mirror does not serve.`,
        hint: `The local mirror serves format=latest (the snapshot CSV). Query NAV history with ${MF_BASE}/nav.`,
      });
    }
    const [snap, lastModified] = await Promise.all([latestSnapshotCsv(deps.engine), dataLastModified(deps.engine)]);
    reply.header('etag', snap.etag).header('last-modified', lastModified.toUTCString());
    const inm = req.headers['if-none-match'];
    const fresh = inm !== undefined ? inm.split(',').some((t) => t.trim() === snap.etag || t.trim() === '*') : notModifiedSince(lastModified, req.headers['if-modified-since']);
    if (fresh) return reply.code(304).send();
    const body = Buffer.from(snap.csv, 'utf8');
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="mf_nav_master_latest.csv"')
      .header('accept-ranges', 'bytes');
    // One byte range gets a 206 (an If-Range naming an older version gets the whole file); several
    // ranges or a malformed header get the whole file, which RFC 9110 allows.
    const range = req.headers.range;
    const ifRange = req.headers['if-range'];
    if (range && (ifRange === undefined || ifRange === snap.etag)) {
      const ranges = parseRange(body.length, range, { combine: true });
      if (ranges === -1) return reply.code(416).header('content-range', `bytes */${body.length}`).send();
      if (ranges !== -2 && ranges.type === 'bytes' && ranges.length === 1) {
        const { start, end } = ranges[0];
        return reply.code(206).header('content-range', `bytes ${start}-${end}/${body.length}`).send(body.subarray(start, end + 1));
      }
    }
    return reply.send(body);
  });
}

const mfRoutes: RouteModule = async (app, deps) => {
  await app.register(async (scope) => register(scope, deps), { prefix: MF_BASE });
};

export default mfRoutes;
