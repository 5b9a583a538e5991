import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteModule } from './index.js';
import {
  ENDPOINTS,
  LEGACY_MAP,
  PARAMS,
  ServiceError,
  ValidationError,
  endpointsList,
  errorBody,
  legacyPayload,
  parseFindParams,
  parseSeriesParams,
  type ValidationItem,
} from '../../core/contract/indicators.js';
import { catalog } from '../../core/services/indicators/catalog.js';
import { categories } from '../../core/services/indicators/categories.js';
import { categoryIndicators } from '../../core/services/indicators/category-indicators.js';
import { find } from '../../core/services/indicators/find.js';
import { series, seriesHeaders, seriesTsv } from '../../core/services/indicators/series.js';
import { downloadFile, localManifest } from '../../core/services/indicators/downloads.js';
import { asMissingData } from '../../core/services/indicators/missing-data.js';
import type { ServerDeps } from '../deps.js';

const tags = ['indicators'];

/** Ajv's first complaint, in the spec's 422 `detail` shape (pydantic's types and wording). */
function detailFrom(err: FastifyError, req: FastifyRequest): ValidationItem[] {
  const where = err.validationContext === 'params' ? 'path' : 'query';
  const source = (where === 'path' ? req.params : req.query) as Record<string, unknown>;
  return (err.validation ?? []).map((v) => {
    const params = v.params as Record<string, unknown>;
    const field = v.keyword === 'required' ? String(params.missingProperty) : v.instancePath.replace(/^\//, '');
    const input = source?.[field];
    const loc = [where, field];
    switch (v.keyword) {
      case 'required':
        return { loc, msg: 'Field required', type: 'missing', input: null };
      case 'type':
        return params.type === 'integer'
          ? { loc, msg: 'Input should be a valid integer, unable to parse string as an integer', type: 'int_parsing', input }
          : params.type === 'boolean'
            ? { loc, msg: 'Input should be a valid boolean, unable to interpret input', type: 'bool_parsing', input }
            : { loc, msg: `Input should be a valid ${String(params.type)}`, type: `${String(params.type)}_type`, input };
      case 'minimum':
        return { loc, msg: `Input should be greater than or equal to ${params.limit}`, type: 'greater_than_equal', input, ctx: { ge: params.limit } };
      case 'maximum':
        return { loc, msg: `Input should be less than or equal to ${params.limit}`, type: 'less_than_equal', input, ctx: { le: params.limit } };
      case 'minLength':
        return { loc, msg: `String should have at least ${params.limit} characters`, type: 'string_too_short', input, ctx: { min_length: params.limit } };
      case 'maxLength':
        return { loc, msg: `String should have at most ${params.limit} characters`, type: 'string_too_long', input, ctx: { max_length: params.limit } };
      case 'enum': {
        const allowed = (params.allowedValues as unknown[]).map((x) => `'${String(x)}'`);
        const expected = allowed.length > 1 ? `${allowed.slice(0, -1).join(', ')} or ${allowed[allowed.length - 1]}` : allowed[0];
        return { loc, msg: `Input should be ${expected}`, type: 'enum', input, ctx: { expected } };
      }
      default:
        return { loc, msg: v.message ?? 'Invalid value', type: 'value_error', input };
    }
  });
}

function pathOf(req: FastifyRequest): string {
  return req.url.split('?')[0];
}

function register(scope: FastifyInstance, deps: ServerDeps): void {
  scope.setErrorHandler((thrown: FastifyError, req, reply) => {
    const err = asMissingData(thrown) ?? thrown;
    if ('validation' in err && err.validation) return reply.code(422).send({ detail: detailFrom(err, req) });
    if (err instanceof ValidationError) return reply.code(422).send({ detail: err.detail });
    if (err instanceof ServiceError) return reply.code(err.status).send(errorBody(deps.baseUrl, err.status, pathOf(req), err.message, err.extra));
    if (thrown.statusCode && thrown.statusCode >= 400 && thrown.statusCode < 500) {
      return reply.code(thrown.statusCode).send(errorBody(deps.baseUrl, thrown.statusCode, pathOf(req), thrown.message));
    }
    throw thrown;
  });

  scope.setNotFoundHandler((req, reply) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return reply
        .code(405)
        .header('allow', 'GET, HEAD')
        .send(errorBody(deps.baseUrl, 405, pathOf(req), `${req.method} is not allowed; the indicator API is read-only (GET).`));
    }
    return reply.code(404).send(
      errorBody(deps.baseUrl, 404, pathOf(req), `No endpoint at ${pathOf(req)}.`, {
        hint: 'GET /v1/ is the catalog; the endpoints are listed here.',
        ...endpointsList(deps.baseUrl),
      }),
    );
  });

  const summary = (path: string) => ENDPOINTS.find((e) => e.path === path)!.summary;

  // Under a prefix, '/' answers both /v1 and /v1/.
  scope.get('/', { schema: { tags, summary: summary('/v1/') } }, async () => catalog(deps.engine, { baseUrl: deps.baseUrl }));
  scope.get('/categories', { schema: { tags, summary: summary('/v1/categories') } }, async () => categories(deps.engine, { baseUrl: deps.baseUrl }));
  scope.get<{ Params: { category: string }; Querystring: { compact: boolean } }>(
    '/categories/:category/indicators',
    { schema: { tags, summary: summary('/v1/categories/{category}/indicators'), ...PARAMS.categoryIndicators } },
    async (req) => categoryIndicators(deps.engine, { category: req.params.category, compact: req.query.compact ?? false }),
  );
  scope.get<{ Querystring: { query?: string; q?: string; limit?: number } }>(
    '/find',
    { schema: { tags, summary: summary('/v1/find'), ...PARAMS.find } },
    async (req) => find(deps.engine, parseFindParams(req.query)),
  );
  scope.get<{ Querystring: { ids?: string; from?: string; to?: string; format?: string } }>(
    '/series',
    { schema: { tags, summary: summary('/v1/series'), ...PARAMS.series } },
    async (req, reply) => {
      const params = parseSeriesParams(req.query);
      const result = await series(deps.engine, params, { maxRows: deps.maxSeriesRows });
      reply.headers(seriesHeaders(result));
      if (params.format === 'tsv') return reply.type('text/tab-separated-values; charset=utf-8').send(seriesTsv(result));
      return result;
    },
  );

  scope.get('/downloads/manifest', { schema: { tags, summary: summary('/v1/downloads/manifest') } }, async () =>
    localManifest(deps.engine),
  );
  const sendFile = async (reply: FastifyReply, table: string, format: string) => {
    const file = await downloadFile(deps.engine, table, format);
    return reply
      .type(file.contentType)
      .header('content-disposition', `attachment; filename="${file.name}"`)
      .header('etag', file.etag)
      .send(Buffer.from(file.bytes));
  };
  scope.get<{ Querystring: { format: string } }>(
    '/download/all',
    { schema: { tags, summary: summary('/v1/download/all'), ...PARAMS.downloadAll } },
    async (req, reply) => sendFile(reply, 'all', req.query.format),
  );
  scope.get<{ Params: { table_name: string }; Querystring: { format: string } }>(
    '/download/:table_name',
    { schema: { tags, summary: summary('/v1/download/{table_name}'), ...PARAMS.downloadTable } },
    async (req, reply) => sendFile(reply, req.params.table_name, req.query.format),
  );
}

function registerLegacy(scope: FastifyInstance, deps: ServerDeps): void {
  scope.get('/', { schema: { tags: ['legacy'], summary: 'Legacy surface: map of legacy paths to current endpoints' } }, async () =>
    legacyPayload(deps.baseUrl),
  );
  scope.setNotFoundHandler((req, reply) => {
    const path = pathOf(req).replace(/\/$/, '');
    const current = LEGACY_MAP[path] ?? (path.startsWith('/legacy/v1/download/') ? LEGACY_MAP['/legacy/v1/download/{table}'] : undefined);
    return reply.code(404).send(
      errorBody(deps.baseUrl, 404, pathOf(req), `The legacy endpoint ${pathOf(req)} is not served by this local mirror.`, {
        hint: current ? `Use ${current} instead.` : 'GET /legacy/v1/ maps every legacy path to its current endpoint.',
        unified_endpoint_map: LEGACY_MAP,
      }),
    );
  });
}

/** `/v2/*` is a silent alias of `/v1/*` (spec: Versioning): rewritten before routing. */
export function rewriteV2(req: { url?: string }): string {
  const url = req.url ?? '/';
  return /^\/v2(\/|\?|$)/.test(url) ? `/v1${url.slice(3)}` : url;
}

const indicatorRoutes: RouteModule = async (app, deps) => {
  await app.register(async (scope) => register(scope, deps), { prefix: '/v1' });
  await app.register(async (scope) => registerLegacy(scope, deps), { prefix: '/legacy/v1' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
};

export default indicatorRoutes;
