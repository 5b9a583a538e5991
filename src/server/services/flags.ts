import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ENDPOINTS,
  FLAGS_BASE,
  FlagsError,
  SCORECARD_MAX_LIMIT,
  TABLE_NAMES,
  catalog,
  validateCompanyParams,
  validateCompanyScorecardParams,
  validateDataParams,
  validateNoParams,
  validateScorecardParams,
  type RawQuery,
  type Validated,
} from '../../core/contract/flags.js';
import { listCompanies } from '../../core/services/flags/companies.js';
import { companyData, companyTsv } from '../../core/services/flags/company.js';
import { dataTsv, tableData } from '../../core/services/flags/data.js';
import { freshness, listTables } from '../../core/services/flags/freshness.js';
import { companyScorecard, scorecard } from '../../core/services/flags/scorecard.js';
import type { Endpoint, Service, ServiceModule } from '../service.js';
import { toQuery } from '../service.js';

const TSV = 'text/tab-separated-values; charset=utf-8';
const CATALOG_HINT = `GET ${FLAGS_BASE}/ lists the endpoints.`;

function valid<T>(v: Validated<T>): T {
  if (!v.ok) throw new FlagsError(v.error);
  return v.value;
}

/** OpenAPI description from the contract's endpoint table; the handlers validate for themselves. */
function described(path: string, handler: Endpoint['handler']): Endpoint {
  const e = ENDPOINTS.find((x) => x.path === path)!;
  const props = (where: 'path' | 'query') =>
    Object.fromEntries(e.parameters.filter((p) => p.in === where).map((p) => [p.name, { type: 'string', description: p.description }]));
  return {
    path: path.replace(/\{(\w+)\}/g, ':$1'),
    summary: e.description,
    querystring: { type: 'object', properties: props('query') },
    ...(e.parameters.some((p) => p.in === 'path') ? { params: { type: 'object', properties: props('path') } } : {}),
    handler,
  };
}

const query = (req: FastifyRequest): RawQuery => req.query as RawQuery;
const param = (req: FastifyRequest, name: string): string => (req.params as Record<string, string>)[name];
const send = (reply: FastifyReply, format: 'json' | 'tsv', json: unknown, tsv: () => string) =>
  format === 'tsv' ? reply.header('content-type', TSV).send(tsv()) : reply.send(json);

/** The flags tables and schema: their absence means nothing synced yet. */
const missingData = {
  names: ['flags', ...TABLE_NAMES],
  error: () =>
    new FlagsError({
      status: 503,
      error: 'service_unavailable',
      message: 'No red-flag data on this machine yet.',
      hint: "Sync the flags dataset first (the app's Data page, or the CLI sync command), then retry.",
    }),
};

const asOf = z.string().optional().describe('Score as of this date, YYYY-MM-DD; default the latest date in the data.');

/** The corporate red-flag API (spec: flags-and-compare-api.md, part A) over the local store. */
const flags: ServiceModule = (deps): Service => {
  const withoutParams = (answer: () => unknown) => async (req: FastifyRequest) => {
    valid(validateNoParams(query(req)));
    return answer();
  };
  // The bulk files live at the publisher; this mirror answers the same questions from its database.
  const notMirrored = async (req: FastifyRequest) => {
    throw new FlagsError({
      status: 404,
      error: 'not_found',
      message: `${req.url.split('?')[0]} is a publisher file this local mirror does not serve.`,
      hint: `Query the mirrored tables with ${FLAGS_BASE}/data/{table_name} or ${FLAGS_BASE}/company/{identifier}; the publisher's files are fetched by sync.`,
    });
  };

  return {
    name: 'flags',
    prefix: FLAGS_BASE,
    tag: 'flags',
    missingData,
    // Under a prefix, '/' answers both /flags/v1 and /flags/v1/.
    endpoints: [
      described('/', withoutParams(() => catalog())),
      described('/companies', withoutParams(() => listCompanies(deps.engine))),
      described('/company/{identifier}', async (req, reply) => {
        const p = valid(validateCompanyParams(param(req, 'identifier'), query(req)));
        const r = await companyData(deps.engine, p);
        return send(reply, p.format, r, () => companyTsv(r));
      }),
      described('/data/{table_name}', async (req, reply) => {
        const p = valid(validateDataParams(param(req, 'table_name'), query(req)));
        const r = await tableData(deps.engine, p);
        return send(reply, p.format, r, () => dataTsv(r));
      }),
      described('/tables', withoutParams(() => listTables(deps.engine))),
      described('/freshness', withoutParams(() => freshness(deps.engine))),
      described('/scorecard', async (req) => scorecard(deps.engine, valid(validateScorecardParams(query(req))))),
      described('/company/{identifier}/scorecard', async (req) =>
        companyScorecard(deps.engine, valid(validateCompanyScorecardParams(param(req, 'identifier'), query(req)))),
      ),
      { ...described('/download/{table_name}', notMirrored), path: '/download/:name' },
      described('/downloads/manifest', notMirrored),
    ],
    tools: [
      {
        name: 'flags_company',
        description:
          'Corporate red-flag records of one listed Indian company by NSE symbol or ISIN (case-insensitive): credit ratings, insider trades, promoter pledges, SAST filings, encumbrance events, surveillance flags, related-party transactions.',
        input: {
          identifier: z.string().describe('NSE symbol or ISIN, e.g. RELIANCE or INE002A01018.'),
          tables: z.array(z.enum(TABLE_NAMES)).optional().describe('Only these tables; default all seven.'),
        },
        run: async ({ identifier, tables }) => companyData(deps.engine, valid(validateCompanyParams(identifier as string, toQuery({ tables })))),
      },
      {
        name: 'flags_scorecard',
        description:
          "Red-flag scorecard: with identifier, one company's score, rank, points and signals (latest rating and 12-month downgrades, promoter pledge and its trend, encumbrance invocations, promoter selling, surveillance stage, related-party transactions vs revenue); without, companies ranked by score.",
        input: {
          identifier: z.string().optional().describe('NSE symbol or ISIN; omit for the ranked list.'),
          limit: z.number().int().min(1).max(SCORECARD_MAX_LIMIT).optional().describe('Ranked list: rows per page (default 50).'),
          offset: z.number().int().min(0).optional().describe('Ranked list: row offset.'),
          as_of: asOf,
        },
        run: async ({ identifier, limit, offset, as_of }) =>
          identifier !== undefined
            ? companyScorecard(deps.engine, valid(validateCompanyScorecardParams(identifier as string, toQuery({ as_of }))))
            : scorecard(deps.engine, valid(validateScorecardParams(toQuery({ limit, offset, as_of })))),
      },
    ],
    notFound: (url) => new FlagsError({ status: 404, error: 'not_found', message: `No red-flag endpoint at ${url.split('?')[0]}.`, hint: CATALOG_HINT }),
    notAllowed: (method) =>
      new FlagsError({ status: 405, error: 'method_not_allowed', message: `${method} is not allowed; the red-flag API is read-only (GET).`, hint: 'Use GET.' }),
    refused: (err) =>
      new FlagsError({ status: err.statusCode ?? 400, error: 'bad_request', message: err.message, hint: `GET ${FLAGS_BASE}/ lists the endpoints and their parameters.` }),
  };
};

export default flags;
