import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import type { ServerDeps } from './deps.js';
import { routeModules } from './routes/index.js';
import { registerMcp } from './mcp/endpoint.js';
import { rewriteV2 } from './routes/indicators.js';

export interface BuildOptions {
  /** Origins allowed to call the API from a browser (the app's own origin). */
  allowedOrigins?: string[];
  logger?: boolean;
}

/**
 * The local REST + MCP server. Loopback-only by default (see cli serve). Every response that is not
 * a deliberate 4xx from a service is a bug: it becomes a 500 with a JSON body and is logged.
 */
/**
 * A socket that has not sent its whole request head within HEADERS_TIMEOUT_MS, or its whole request
 * within REQUEST_TIMEOUT_MS, is closed (checked every second, not Node's default 30 s): a client that
 * trickles its headers (slowloris) would otherwise hold its socket for a minute. Clients on loopback
 * send a request in one write; the largest body here is an MCP call.
 */
const HEADERS_TIMEOUT_MS = 5_000;
const REQUEST_TIMEOUT_MS = 30_000;

export async function buildServer(deps: ServerDeps, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? false,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 2048 },
    rewriteUrl: rewriteV2,
    requestTimeout: REQUEST_TIMEOUT_MS,
    http: { headersTimeout: HEADERS_TIMEOUT_MS, connectionsCheckingInterval: 1_000 },
  });
  const allowed = new Set(opts.allowedOrigins ?? []);

  // DNS-rebinding and cross-site guard: only loopback Host names, only our own origins.
  app.addHook('onRequest', async (req, reply) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
    if (!['127.0.0.1', 'localhost', '::1'].includes(host) && !process.env.ALMANAC_ALLOW_ANY_HOST) {
      return reply.code(403).send({ error: 'forbidden', status: 403, path: req.url, message: `Host '${host}' is not a loopback name.` });
    }
    const origin = req.headers.origin;
    if (origin) {
      if (!allowed.has(origin)) {
        return reply.code(403).send({ error: 'forbidden', status: 403, path: req.url, message: `Origin '${origin}' may not call this server.` });
      }
      reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
      if (req.method === 'OPTIONS') {
        return reply
          .code(204)
          .header('access-control-allow-methods', 'GET, HEAD, POST, OPTIONS')
          .header('access-control-allow-headers', 'content-type, accept, mcp-protocol-version, if-none-match, if-modified-since')
          .header('access-control-expose-headers', 'etag, last-modified, x-v2-unknown-ids, x-v2-empty-ids, x-v2-count')
          .send();
      }
    }
  });

  app.setErrorHandler((err: Error, req, reply) => {
    const status = (err as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      return reply.code(status).send({ error: 'bad_request', status, path: req.url, message: err.message });
    }
    req.log.error(err);
    process.stderr.write(`[almanac server] ${req.method} ${req.url}: ${err.stack ?? err.message}\n`);
    return reply.code(500).send({ error: 'internal_error', status: 500, path: req.url, message: 'Internal error; it has been logged.' });
  });

  // Before the routes: it collects their schemas into /openapi.json as they register.
  await app.register(swagger, { openapi: { openapi: '3.1.0', info: { title: 'Almanac local API', version: '3.1.0' } } });
  for (const load of routeModules) await (await load())(app, deps);
  await registerMcp(app, deps);
  // Paths outside the three services: the same kind of envelope, naming where the APIs live.
  app.setNotFoundHandler((req, reply) =>
    reply.code(404).send({
      error: 'not_found',
      status: 404,
      path: req.url,
      message: `No endpoint at ${req.method} ${req.url.split('?')[0]}.`,
      help: { catalog: '/v1/', docs: '/openapi.json', indicators: '/v1/', mutual_funds: '/mf/v1/', red_flags: '/flags/v1/', compare: '/v1/compare', mcp: 'POST /mcp', openapi: '/openapi.json' },
    }),
  );
  return app;
}
