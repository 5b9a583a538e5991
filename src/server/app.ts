import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { AlmanacError } from '../core/contract/almanac.js';
import type { ServerDeps } from './deps.js';
import { jsonBody } from './json-body.js';
import { mountMcp } from './mcp.js';
import { mountRest, sendError, serviceOf } from './rest.js';
import type { Service } from './service.js';
import almanac from './services/almanac.js';
import compare from './services/compare.js';
import flags from './services/flags.js';
import { indicators, legacy } from './services/indicators.js';
import mf from './services/mf.js';

export interface BuildOptions {
  /** Origins allowed to call the API from a browser (the app's own origin). */
  allowedOrigins?: string[];
  logger?: boolean;
}

/** `/v2/*` is a silent alias of `/v1/*` (spec: Versioning): rewritten before routing. */
function rewriteV2(req: { url?: string }): string {
  const url = req.url ?? '/';
  return /^\/v2(\/|\?|$)/.test(url) ? `/v1${url.slice(3)}` : url;
}

/** The request line's path, from the bytes of a request Node refused to parse (e.g. headers too large). */
function requestPath(raw: Buffer | undefined): string {
  const line = raw?.subarray(0, 8192).toString('latin1').split('\r\n', 1)[0] ?? '';
  return /^[A-Z]+ (\/\S*) HTTP\/1\.[01]$/.exec(line)?.[1] ?? '/';
}

/**
 * A socket that has not sent its whole request head within HEADERS_TIMEOUT_MS, or its whole request
 * within REQUEST_TIMEOUT_MS, is closed (checked every second, not Node's default 30 s): a client that
 * trickles its headers (slowloris) would otherwise hold its socket for a minute. Clients on loopback
 * send a request in one write; the largest body here is an MCP call.
 */
const HEADERS_TIMEOUT_MS = 5_000;
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * The local REST + MCP server. Loopback-only by default (see cli serve). Every 4xx is in the envelope
 * of the service whose path it is, Almanac's own elsewhere, including requests refused before
 * routing (a malformed URL, an oversized header); anything else is a bug: a 500 with a JSON body,
 * logged.
 */
export async function buildServer(deps: ServerDeps, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const own = almanac(deps);
  const services: Service[] = [mf(deps), flags(deps), indicators(deps), legacy(deps), compare(deps), own];
  const owner = (url: string) => serviceOf(url, services, own);

  const app = Fastify({
    logger: opts.logger ?? false,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 2048 },
    rewriteUrl: rewriteV2,
    requestTimeout: REQUEST_TIMEOUT_MS,
    http: { headersTimeout: HEADERS_TIMEOUT_MS, connectionsCheckingInterval: 1_000 },
    // Refused by the router before any route (bad percent-encoding, an over-long parameter).
    frameworkErrors: (err, req, reply) => sendError(reply, owner(req.url).refused(err, req), deps),
    // Refused by Node's HTTP parser: no request object, so the answer is written to the socket.
    clientErrorHandler: (err, socket) => {
      if (err.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return void socket.destroy();
      const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      const path = requestPath(Buffer.isBuffer(err.rawPacket) ? err.rawPacket : undefined);
      const message = status === 431 ? 'The request headers are too large.' : status === 408 ? 'The request took too long to arrive.' : 'The request is not valid HTTP.';
      const body = JSON.stringify(owner(path).refused({ statusCode: status, message }).body(path, deps.baseUrl));
      socket.end(
        `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\n` +
          `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    },
  });
  const allowed = new Set(opts.allowedOrigins ?? []);

  // DNS-rebinding and cross-site guard: only loopback Host names, only our own origins.
  app.addHook('onRequest', async (req, reply) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
    if (!['127.0.0.1', 'localhost', '::1'].includes(host) && !process.env.ALMANAC_ALLOW_ANY_HOST) {
      return sendError(reply, new AlmanacError(403, `Host '${host}' is not a loopback name.`), deps);
    }
    const origin = req.headers.origin;
    if (origin) {
      if (!allowed.has(origin)) return sendError(reply, new AlmanacError(403, `Origin '${origin}' may not call this server.`), deps);
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

  // Fastify sends a Buffer as it is: JSON replies leave as bytes built in small pieces (json-body.ts).
  app.setReplySerializer((payload) => jsonBody(payload) as unknown as string);
  // Before the routes: it collects their schemas into /openapi.json as they register.
  await app.register(swagger, { openapi: { openapi: '3.1.0', info: { title: 'Almanac local API', version: '3.1.0' } } });
  await mountRest(app, deps, services, own);
  mountMcp(app, deps, services);
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  return app;
}
