import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiError } from '../core/contract/api-error.js';
import type { ServerDeps } from './deps.js';
import { asApiError, type Service } from './service.js';

/** Schemas that only describe (for /openapi.json): the handler validates through the contract. */
const describeOnly = () => () => true;

/**
 * The service a path belongs to: the longest prefix it falls under, segment by segment
 * (`/v1/compare?x` is compare's, `/v1/compared` is the indicators'), else `fallback`.
 */
export function serviceOf(url: string, services: readonly Service[], fallback: Service): Service {
  let best = fallback;
  for (const s of services) {
    const next = url.charAt(s.prefix.length);
    if (url.startsWith(s.prefix) && (next === '' || next === '/' || next === '?') && s.prefix.length > (best === fallback ? -1 : best.prefix.length)) best = s;
  }
  return best;
}

/** Sends a service's deliberate answer in its envelope. */
export function sendError(reply: FastifyReply, err: ApiError, deps: ServerDeps): FastifyReply {
  return reply.code(err.status).headers(err.headers).send(err.body(reply.request.url, deps.baseUrl));
}

/**
 * The one REST adapter: mounts every service's endpoints under its prefix, and answers what no
 * endpoint did (an unknown path, a wrong method, a thrown error) in the envelope of the service the
 * path belongs to. Requests outside every service get `fallback`'s (Almanac's own) envelope.
 */
export async function mountRest(app: FastifyInstance, deps: ServerDeps, services: readonly Service[], fallback: Service): Promise<void> {
  const owner = (url: string) => serviceOf(url, services, fallback);

  app.setErrorHandler((thrown: FastifyError, req, reply) => {
    const err = asApiError(thrown, owner(req.url), req);
    if (err) return sendError(reply, err, deps);
    req.log.error(thrown);
    process.stderr.write(`[almanac server] ${req.method} ${req.url}: ${thrown.stack ?? thrown.message}\n`);
    return reply.code(500).send({ error: 'internal_error', status: 500, path: req.url, message: 'Internal error; it has been logged.' });
  });

  app.setNotFoundHandler((req: FastifyRequest, reply) => {
    const s = owner(req.url);
    // Every service is read-only: another method on any of its paths is not allowed rather than missing.
    if (s.notAllowed && req.method !== 'GET' && req.method !== 'HEAD') {
      const err = s.notAllowed(req.method);
      err.headers = { allow: 'GET, HEAD' };
      return sendError(reply, err, deps);
    }
    return sendError(reply, s.notFound(req.url), deps);
  });

  // After the handlers: a route takes the error handler in force when it registers.
  for (const s of services) {
    await app.register(
      async (scope) => {
        for (const e of s.endpoints) {
          for (const path of [e.path, ...(e.aliases ?? [])]) {
            const schema = {
              tags: [s.tag],
              summary: e.summary,
              ...(e.hide || path !== e.path ? { hide: true } : {}),
              ...(e.querystring ? { querystring: e.querystring } : {}),
              ...(e.params ? { params: e.params } : {}),
            };
            scope.get(path, { schema, ...(e.validate ? {} : { validatorCompiler: describeOnly }) }, e.handler);
          }
        }
      },
      { prefix: s.prefix },
    );
  }
}
