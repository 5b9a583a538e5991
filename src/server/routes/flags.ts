import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteModule } from './index.js';
import {
  ENDPOINTS,
  FLAGS_BASE,
  FlagsError,
  catalog,
  errorBody,
  validateCompanyParams,
  validateCompanyScorecardParams,
  validateDataParams,
  validateNoParams,
  validateScorecardParams,
  type ErrorSpec,
  type RawQuery,
  type Validated,
} from '../../core/contract/flags.js';
import { listCompanies } from '../../core/services/flags/companies.js';
import { companyData, companyTsv } from '../../core/services/flags/company.js';
import { dataTsv, tableData } from '../../core/services/flags/data.js';
import { freshness, listTables } from '../../core/services/flags/freshness.js';
import { asMissingData } from '../../core/services/flags/missing.js';
import { companyScorecard, scorecard } from '../../core/services/flags/scorecard.js';
import type { ServerDeps } from '../deps.js';

const TSV = 'text/tab-separated-values; charset=utf-8';

function valid<T>(v: Validated<T>): T {
  if (!v.ok) throw new FlagsError(v.error);
  return v.value;
}

/** OpenAPI description from the contract's endpoint table; the handlers validate for themselves. */
function route(path: string) {
  const e = ENDPOINTS.find((x) => x.path === path)!;
  const props = (where: 'path' | 'query') =>
    Object.fromEntries(e.parameters.filter((p) => p.in === where).map((p) => [p.name, { type: 'string', description: p.description }]));
  return {
    schema: {
      summary: e.description,
      tags: ['flags'],
      querystring: { type: 'object', properties: props('query') },
      ...(e.parameters.some((p) => p.in === 'path') ? { params: { type: 'object', properties: props('path') } } : {}),
    },
    validatorCompiler: () => () => true,
  };
}

const query = (req: FastifyRequest): RawQuery => req.query as RawQuery;

function register(scope: FastifyInstance, deps: ServerDeps): void {
  scope.setErrorHandler((thrown: Error & { statusCode?: number }, req, reply) => {
    const spec = thrown instanceof FlagsError ? thrown.spec : asMissingData(thrown)?.spec;
    if (spec) return reply.code(spec.status).send(errorBody(spec, req.url, deps.baseUrl));
    if (thrown.statusCode && thrown.statusCode >= 400 && thrown.statusCode < 500) {
      const body = errorBody({ status: 422, error: 'unprocessable_entity', message: thrown.message, hint: `GET ${FLAGS_BASE}/ lists the endpoints and their parameters.` }, req.url, deps.baseUrl);
      return reply.code(thrown.statusCode).send({ ...body, status: thrown.statusCode, error: 'bad_request' });
    }
    throw thrown;
  });
  scope.setNotFoundHandler((req, reply) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const spec: ErrorSpec = { status: 405, error: 'method_not_allowed', message: `${req.method} is not allowed; the red-flag API is read-only (GET).`, hint: 'Use GET.' };
      return reply.code(405).header('allow', 'GET, HEAD').send(errorBody(spec, req.url, deps.baseUrl));
    }
    const spec: ErrorSpec = { status: 404, error: 'not_found', message: `No red-flag endpoint at ${req.url.split('?')[0]}.`, hint: `GET ${FLAGS_BASE}/ lists the endpoints.` };
    return reply.code(404).send(errorBody(spec, req.url, deps.baseUrl));
  });

  const send = (reply: FastifyReply, format: 'json' | 'tsv', json: unknown, tsv: () => string) =>
    format === 'tsv' ? reply.header('content-type', TSV).send(tsv()) : reply.send(json);

  // Under a prefix, '/' answers both /flags/v1 and /flags/v1/.
  scope.get('/', route('/'), async (req) => {
    valid(validateNoParams(query(req)));
    return catalog();
  });
  scope.get('/companies', route('/companies'), async (req) => {
    valid(validateNoParams(query(req)));
    return listCompanies(deps.engine);
  });
  scope.get<{ Params: { identifier: string } }>('/company/:identifier', route('/company/{identifier}'), async (req, reply) => {
    const p = valid(validateCompanyParams(req.params.identifier, query(req)));
    const r = await companyData(deps.engine, p);
    return send(reply, p.format, r, () => companyTsv(r));
  });
  scope.get<{ Params: { table_name: string } }>('/data/:table_name', route('/data/{table_name}'), async (req, reply) => {
    const p = valid(validateDataParams(req.params.table_name, query(req)));
    const r = await tableData(deps.engine, p);
    return send(reply, p.format, r, () => dataTsv(r));
  });
  scope.get('/tables', route('/tables'), async (req) => {
    valid(validateNoParams(query(req)));
    return listTables(deps.engine);
  });
  scope.get('/freshness', route('/freshness'), async (req) => {
    valid(validateNoParams(query(req)));
    return freshness(deps.engine);
  });
  scope.get('/scorecard', route('/scorecard'), async (req) => scorecard(deps.engine, valid(validateScorecardParams(query(req)))));
  scope.get<{ Params: { identifier: string } }>('/company/:identifier/scorecard', route('/company/{identifier}/scorecard'), async (req) =>
    companyScorecard(deps.engine, valid(validateCompanyScorecardParams(req.params.identifier, query(req)))),
  );

  // The bulk files live at the publisher; this mirror answers the same questions from its database.
  const notMirrored = async (req: FastifyRequest) => {
    throw new FlagsError({
      status: 404,
      error: 'not_found',
      message: `${req.url.split('?')[0]} is a publisher file this local mirror does not serve.`,
      hint: `Query the mirrored tables with ${FLAGS_BASE}/data/{table_name} or ${FLAGS_BASE}/company/{identifier}; the publisher's files are fetched by sync.`,
    });
  };
  scope.get('/download/:name', route('/download/{table_name}'), notMirrored);
  scope.get('/downloads/manifest', route('/downloads/manifest'), notMirrored);
}

const flagsRoutes: RouteModule = async (app, deps) => {
  await app.register(async (scope) => register(scope, deps), { prefix: FLAGS_BASE });
};

export default flagsRoutes;
