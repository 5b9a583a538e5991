import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodRawShape } from 'zod';
import { ApiError, asMissingData, type MissingData } from '../core/contract/api-error.js';
import type { ServerDeps } from './deps.js';

/** One REST endpoint of a service: GET at `path` under the service's prefix. */
export interface Endpoint {
  path: string;
  /** Other paths that answer the same, kept out of /openapi.json (spec: alias routes). */
  aliases?: readonly string[];
  summary: string;
  hide?: boolean;
  /** JSON schemas of the query string and path parameters, for /openapi.json. */
  querystring?: object;
  params?: object;
  /**
   * True: Fastify validates against the schemas above (coercing types) and the service renders its
   * refusals; false: the handler validates through the contract, and the schemas only describe.
   */
  validate?: boolean;
  handler(req: FastifyRequest, reply: FastifyReply): Promise<unknown>;
}

/** One MCP tool: its input as a zod shape (the SDK validates it) and the same core call REST makes. */
export interface Tool {
  name: string;
  description: string;
  input: ZodRawShape;
  /** A string answer goes out as is (TSV with its `# meta:` line); anything else as JSON. */
  run(args: Record<string, unknown>): Promise<unknown>;
}

/**
 * Everything the front doors need to know of one service: where its REST endpoints live, its MCP
 * tools, and how it words what it did not answer itself, each in the service's own envelope. The
 * REST adapter (rest.ts) and the MCP adapter (mcp.ts) hold the plumbing once.
 */
export interface Service {
  name: string;
  /** Where its endpoints are mounted; any path under it is this service's, whatever becomes of it. */
  prefix: string;
  /** The OpenAPI tag of its endpoints. */
  tag: string;
  endpoints: readonly Endpoint[];
  tools: readonly Tool[];
  /** Its schema and tables, whose absence means the dataset is not synced yet. */
  missingData?: MissingData;
  /** No endpoint at this path (`url` as requested, query included). */
  notFound(url: string): ApiError;
  /** A method other than GET or HEAD; absent: such a request is not found either. */
  notAllowed?(method: string): ApiError;
  /** A 4xx refused on the way to the service: a malformed URL, a failed schema, an oversized header. */
  refused(err: Pick<FastifyError, 'statusCode' | 'message' | 'validation' | 'validationContext'>, req?: FastifyRequest): ApiError;
}

export type ServiceModule = (deps: ServerDeps) => Service;

/** A thrown value as the service's deliberate answer, or null when it is a bug (a 500). */
export function asApiError(thrown: unknown, service: Service, req?: FastifyRequest): ApiError | null {
  if (thrown instanceof ApiError) return thrown;
  const missing = service.missingData ? asMissingData(thrown, service.missingData) : null;
  if (missing) return missing;
  const status = (thrown as { statusCode?: number }).statusCode;
  return status !== undefined && status >= 400 && status < 500 ? service.refused(thrown as FastifyError, req) : null;
}

/** Tool arguments as the query REST sees (lists comma-joined), so one validator rules both doors. */
export function toQuery(args: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(args).flatMap(([k, v]) => (v === undefined ? [] : [[k, Array.isArray(v) ? v.join(',') : String(v)]])),
  );
}
