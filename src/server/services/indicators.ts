import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  CATEGORIES,
  CATEGORY_IDS,
  ENDPOINTS,
  LEGACY_MAP,
  INDICATOR_LIMITS,
  PARAMS,
  ServiceError,
  ValidationError,
  endpointsList,
  legacyPayload,
  parseFindParams,
  parseSeriesParams,
  type ValidationItem,
} from '../../core/contract/indicators.js';
import { catalog } from '../../core/services/indicators/catalog.js';
import { categories } from '../../core/services/indicators/categories.js';
import { categoryIndicators, compactCategoryIndicators } from '../../core/services/indicators/category-indicators.js';
import { find } from '../../core/services/indicators/find.js';
import { series, seriesHeaders, seriesTsv } from '../../core/services/indicators/series.js';
import { downloadFile, localManifest } from '../../core/services/indicators/downloads.js';
import type { Service, ServiceModule } from '../service.js';

/** Ajv's first complaint, in the spec's 422 `detail` shape (pydantic's types and wording). */
function detailFrom(err: Pick<FastifyError, 'validation' | 'validationContext'>, req: FastifyRequest | undefined): ValidationItem[] {
  const where = err.validationContext === 'params' ? 'path' : 'query';
  const source = (where === 'path' ? req?.params : req?.query) as Record<string, unknown> | undefined;
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

/** A failed schema is the spec's 422 `detail`; any other refusal is the 4xx envelope. */
const refused: Service['refused'] = (err, req) =>
  err.validation ? new ValidationError(detailFrom(err, req)) : new ServiceError(err.statusCode ?? 400, err.message);

/** The indicator tables and schema: their absence means nothing synced yet. */
const missingData = {
  names: ['indicators', 'indicator_config', 'macro_indicators', 'stock_prices'],
  error: () =>
    new ServiceError(503, 'No indicator data on this machine yet.', {
      error: 'service_unavailable',
      hint: "Sync the indicators dataset first (the app's Data page, or `npm run cli -- sync`), then retry.",
    }),
};

const summary = (path: string) => ENDPOINTS.find((e) => e.path === path)!.summary;
const MENU = CATEGORIES.map((c) => `- ${c.category}: ${c.one_liner}`).join('\n');

/** The unified indicator data service (spec: indicator-api.md) over the local store; `/v2` is its alias (app.ts). */
export const indicators: ServiceModule = (deps): Service => {
  // The spec's two shapes of a category's listing, chosen by `compact`.
  const listing = (category: string, compact: boolean) =>
    compact ? compactCategoryIndicators(deps.engine, category) : categoryIndicators(deps.engine, category);
  const sendFile = async (reply: FastifyReply, table: string, format: string) => {
    const file = await downloadFile(deps.engine, table, format);
    return reply
      .type(file.contentType)
      .header('content-disposition', `attachment; filename="${file.name}"`)
      .header('etag', file.etag)
      .send(Buffer.from(file.bytes));
  };
  const q = (req: FastifyRequest) => req.query as Record<string, string>;

  return {
    name: 'indicators',
    prefix: '/v1',
    tag: 'indicators',
    missingData,
    // Under a prefix, '/' answers both /v1 and /v1/. Fastify validates against the contract's schemas.
    endpoints: [
      { path: '/', summary: summary('/v1/'), validate: true, handler: async () => catalog(deps.engine, { baseUrl: deps.baseUrl }) },
      { path: '/categories', summary: summary('/v1/categories'), validate: true, handler: async () => categories(deps.engine, { baseUrl: deps.baseUrl }) },
      {
        path: '/categories/:category/indicators',
        summary: summary('/v1/categories/{category}/indicators'),
        ...PARAMS.categoryIndicators,
        validate: true,
        handler: async (req) => listing((req.params as { category: string }).category, (req.query as { compact?: boolean }).compact ?? false),
      },
      { path: '/find', summary: summary('/v1/find'), ...PARAMS.find, validate: true, handler: async (req) => find(deps.engine, parseFindParams(q(req))) },
      {
        path: '/series',
        summary: summary('/v1/series'),
        ...PARAMS.series,
        validate: true,
        handler: async (req, reply) => {
          const params = parseSeriesParams(q(req));
          const result = await series(deps.engine, params, { maxRows: deps.maxSeriesRows });
          reply.headers(seriesHeaders(result));
          if (params.format === 'tsv') return reply.type('text/tab-separated-values; charset=utf-8').send(seriesTsv(result));
          return result;
        },
      },
      { path: '/downloads/manifest', summary: summary('/v1/downloads/manifest'), validate: true, handler: async () => localManifest(deps.engine) },
      {
        path: '/download/all',
        summary: summary('/v1/download/all'),
        ...PARAMS.downloadAll,
        validate: true,
        handler: async (req, reply) => sendFile(reply, 'all', q(req).format),
      },
      {
        path: '/download/:table_name',
        summary: summary('/v1/download/{table_name}'),
        ...PARAMS.downloadTable,
        validate: true,
        handler: async (req, reply) => sendFile(reply, (req.params as { table_name: string }).table_name, q(req).format),
      },
    ],
    tools: [
      {
        name: 'list_categories',
        description: `List the 8 indicator categories with one-line summaries and indicator counts. Start here, then list one category, then pull series by id.\n${MENU}`,
        input: {},
        run: async () => categories(deps.engine, { baseUrl: deps.baseUrl }),
      },
      {
        name: 'list_indicators_in_category',
        description:
          'List the indicators of one category. Full rows carry notes with caveats (annualisation, sign conventions, cumulative vs per-period, base years, breaks): read them before computing. compact=true returns only indicator_id, name, frequency, last_date.',
        input: {
          category: z.string().describe(`One of: ${CATEGORY_IDS.join(', ')}`),
          compact: z.boolean().optional().describe('Only indicator_id, name, frequency, last_date (default false)'),
        },
        run: async (args) => listing(args.category as string, (args.compact as boolean | undefined) ?? false),
      },
      {
        name: 'find_indicator',
        description: `Search indicators across all categories: case-insensitive substring of indicator_id or name (${INDICATOR_LIMITS.find_query_min_length}-${INDICATOR_LIMITS.find_query_max_length} characters). Each hit names its category.`,
        input: {
          query: z.string().describe('Text to find in ids and names'),
          limit: z.number().int().optional().describe(`${INDICATOR_LIMITS.find_limit_min} to ${INDICATOR_LIMITS.find_limit_max}, default ${INDICATOR_LIMITS.find_limit_default}`),
        },
        run: async (args) => find(deps.engine, parseFindParams(args as { query: string; limit?: number })),
      },
      {
        name: 'v2_get_series',
        description: `Time series for up to ${INDICATOR_LIMITS.max_ids_per_series_call} comma-separated ids (macro indicators and market symbols may be mixed), one row per date, one column per id; columns are empty where an indicator has no observation that day. unknown_ids (typos) and empty_ids (no rows in range) are diagnostics, not errors. format=tsv starts with '# meta: count=N unknown=[...] empty=[...]'. At most ${INDICATOR_LIMITS.max_rows_per_response} rows; beyond that meta.next_from says where to continue.`,
        input: {
          ids: z.string().describe('Comma-separated ids, at most 10'),
          from: z.string().optional().describe('Start date YYYY-MM-DD, inclusive'),
          to: z.string().optional().describe('End date YYYY-MM-DD, inclusive'),
          format: z.string().optional().describe("'json' (default) or 'tsv'"),
        },
        run: async (args) => {
          const params = parseSeriesParams(args as { ids: string; from?: string; to?: string; format?: string });
          const result = await series(deps.engine, params, { maxRows: deps.maxSeriesRows });
          return params.format === 'tsv' ? seriesTsv(result) : result;
        },
      },
    ],
    notFound: (url) => {
      const path = url.split('?')[0];
      return new ServiceError(404, `No endpoint at ${path}.`, { hint: 'GET /v1/ is the catalog; the endpoints are listed here.', ...endpointsList(deps.baseUrl) });
    },
    notAllowed: (method) => new ServiceError(405, `${method} is not allowed; the indicator API is read-only (GET).`),
    refused,
  };
};

/** The frozen legacy surface: its map, and a 404 naming the current endpoint for every other path. */
export const legacy: ServiceModule = (deps) => ({
  name: 'legacy',
  prefix: '/legacy/v1',
  tag: 'legacy',
  missingData,
  endpoints: [{ path: '/', summary: 'Legacy surface: map of legacy paths to current endpoints', validate: true, handler: async () => legacyPayload(deps.baseUrl) }],
  tools: [],
  notFound: (url) => {
    const path = url.split('?')[0];
    const bare = path.replace(/\/$/, '');
    const current = LEGACY_MAP[bare] ?? (bare.startsWith('/legacy/v1/download/') ? LEGACY_MAP['/legacy/v1/download/{table}'] : undefined);
    return new ServiceError(404, `The legacy endpoint ${path} is not served by this local mirror.`, {
      hint: current ? `Use ${current} instead.` : 'GET /legacy/v1/ maps every legacy path to its current endpoint.',
      unified_endpoint_map: LEGACY_MAP,
    });
  },
  refused,
});
