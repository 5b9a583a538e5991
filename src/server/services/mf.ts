import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  DOWNLOAD_PARAMS,
  LOCAL_DOWNLOAD_FORMATS,
  MF_BASE,
  MF_LIMITS,
  MfError,
  NAV_PARAMS,
  SCHEME_NAV_PARAMS,
  SEARCH_PARAMS,
  parseDownloadParams,
  parseNavParams,
  parseSchemeNavParams,
  parseSearchParams,
  type NavParams,
  type SearchParams,
  type ParamSpec,
} from '../../core/contract/mf-params.js';
import { catalog, terms } from '../../core/services/mf/catalog.js';
import { browse, quickSearch } from '../../core/services/mf/search.js';
import { navBatch, schemeNav } from '../../core/services/mf/nav.js';
import { latestSnapshotCsv } from '../../core/services/mf/snapshot.js';
import { dataLastModified } from '../../core/services/mf/freshness.js';
import { planResponse } from '../../core/http/freshness.js';
import type { Endpoint, Service, ServiceModule } from '../service.js';
import { toQuery } from '../service.js';

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
const CODE = { type: 'object', properties: { code: { type: 'string', description: 'Scheme code or ISIN' } } };

/** MF's schema and tables: their absence means nothing synced yet (a 503 that says what to do). */
const missingData = {
  names: ['mf', 'nav', 'latest'],
  error: () =>
    new MfError({
      status: 503,
      error: 'service_unavailable',
      code: 'no_local_data',
      message: 'No mutual fund data on this machine yet.',
      hint: "Sync the MF dataset first (the app's Data page, or the CLI sync command), then retry.",
    }),
};

const described = Object.fromEntries(SEARCH_PARAMS.map((p) => [p.name, p.description]));
const text = (name: string) => z.string().optional().describe(described[name]);

/**
 * Answers change with every sync, and a Last-Modified alone lets a client's HTTP cache reuse one for
 * hours by heuristics (a tenth of its age): clients revalidate instead, which costs a 304.
 */
const REVALIDATE = 'no-cache';

/** The Mutual Fund NAV API (spec: mf-nav-api.md) over the local store. */
const mf: ServiceModule = (deps): Service => {
  // The spec's two shapes of each answer, chosen by what was asked: several ids (or `schemes`) the
  // wrapped batch, one id the bare series; a filter the browse page, a bare `q` the compact list.
  const nav = (p: NavParams) => (p.wrapped ? navBatch(deps.engine, p) : schemeNav(deps.engine, p));
  const search = (s: SearchParams) => (s.filtered ? browse(deps.engine, s) : quickSearch(deps.engine, s));

  const sendNav = async (req: FastifyRequest, reply: FastifyReply, params: NavParams) => {
    const lastModified = await dataLastModified(deps.engine);
    reply.header('last-modified', lastModified.toUTCString()).header('cache-control', REVALIDATE);
    const lastModifiedSeconds = Math.floor(lastModified.getTime() / 1000);
    if (planResponse({ 'if-modified-since': req.headers['if-modified-since'] }, { lastModifiedSeconds }).status === 304) return reply.code(304).send();
    return reply.send(await nav(params));
  };

  const download: Endpoint['handler'] = async (req, reply) => {
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
    reply.header('etag', snap.etag).header('last-modified', lastModified.toUTCString()).header('cache-control', REVALIDATE);
    const body = Buffer.from(snap.csv, 'utf8');
    const plan = planResponse(req.headers, { etag: snap.etag, lastModifiedSeconds: Math.floor(lastModified.getTime() / 1000), size: body.length });
    if (plan.status === 304) return reply.code(304).send();
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="mf_nav_master_latest.csv"')
      .header('accept-ranges', 'bytes');
    if (plan.status === 416) return reply.code(416).header('content-range', `bytes */${body.length}`).send();
    if (plan.status === 206) {
      return reply.code(206).header('content-range', `bytes ${plan.start}-${plan.end}/${body.length}`).send(body.subarray(plan.start, plan.end + 1));
    }
    return reply.send(body);
  };

  return {
    name: 'mf',
    prefix: MF_BASE,
    tag: 'mf',
    missingData,
    // Under a prefix, '/' answers both /mf/v1 and /mf/v1/.
    endpoints: [
      { path: '/', summary: 'Catalog: endpoints, schema, limits, examples', querystring: querySchema([]), handler: async () => catalog(deps.engine) },
      { path: '/terms', summary: 'License and terms', querystring: querySchema([]), handler: async () => terms() },
      { path: '/search', summary: 'Find or browse schemes', querystring: querySchema(SEARCH_PARAMS), handler: async (req) => search(parseSearchParams(pairs(req))) },
      { path: '/nav', aliases: NAV_ALIASES, summary: 'NAV history, single or bulk', querystring: querySchema(NAV_PARAMS), handler: async (req, reply) => sendNav(req, reply, parseNavParams(pairs(req))) },
      {
        path: '/schemes/:code/nav',
        aliases: SCHEME_NAV_ALIASES,
        summary: 'NAV history of one scheme',
        params: CODE,
        querystring: querySchema(SCHEME_NAV_PARAMS),
        handler: async (req, reply) => sendNav(req, reply, parseSchemeNavParams((req.params as { code: string }).code, pairs(req))),
      },
      { path: '/download', summary: 'Files (this mirror generates the snapshot CSV)', querystring: querySchema(DOWNLOAD_PARAMS), handler: download },
    ],
    tools: [
      {
        name: 'mf_search',
        description:
          'Find Indian mutual fund schemes by name (q) or browse them with filters. Text filters are case-insensitive contains-matches; a comma means OR. Returns scheme codes and ISINs for mf_nav.',
        input: {
          q: text('q'),
          category: text('category'),
          sub_category: text('sub_category'),
          group: text('group'),
          amc: text('amc'),
          plan: text('plan'),
          option: text('option'),
          scheme_type: text('scheme_type'),
          isin: text('isin'),
          txic_code: text('txic_code'),
          exclude: text('exclude'),
          active: z.enum(['true', 'false', 'all']).optional().describe(described.active),
          first_date_from: text('first_date_from'),
          first_date_to: text('first_date_to'),
          last_date_from: text('last_date_from'),
          last_date_to: text('last_date_to'),
          limit: z.number().int().optional().describe(described.limit),
          offset: z.number().int().optional().describe(described.offset),
        },
        run: async (args) => search(parseSearchParams(Object.entries(toQuery(args)))),
      },
      {
        name: 'mf_nav',
        description: `Daily NAV history of Indian mutual fund schemes by scheme code or ISIN (mixed). One id in scheme gives one series; schemes (up to ${MF_LIMITS.bulkSchemesMax}) gives {schemes, not_found}. latest=true gives the latest NAV (as of 'to' when given). Flags end of life (final NAV 0.00) and merger splits.`,
        input: {
          scheme: z.string().optional().describe('One scheme code or ISIN.'),
          schemes: z.array(z.string()).max(MF_LIMITS.bulkSchemesMax).optional().describe('Several scheme codes or ISINs.'),
          since: z.string().optional().describe('First date, YYYY-MM-DD.'),
          to: z.string().optional().describe('Last date, YYYY-MM-DD.'),
          latest: z.boolean().optional().describe('Only the latest NAV in the window.'),
        },
        run: async (args) => nav(parseNavParams(Object.entries(toQuery(args)))),
      },
    ],
    notFound: (url) =>
      new MfError({ status: 404, error: 'not_found', message: `No MF endpoint at ${url.split('?')[0]}.`, hint: `GET ${MF_BASE}/ lists the endpoints.` }),
    notAllowed: (method) => new MfError({ status: 405, error: 'method_not_allowed', message: `${method} is not allowed; the MF API is read-only (GET).` }),
    refused: (err) => new MfError({ status: err.statusCode ?? 400, error: 'bad_request', message: err.message }),
  };
};

export default mf;
