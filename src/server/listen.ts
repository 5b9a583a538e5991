import type { FastifyInstance } from 'fastify';
import { buildServer } from './app.js';
import type { ServerDeps } from './deps.js';
import { QUIET_MS, warmUp } from '../core/services/warm-up.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

export interface ListenOptions {
  host?: string;
  port?: number;
  /** Binding to a non-loopback address exposes the user's data to the network: only on request. */
  allowNonLoopback?: boolean;
  allowedOrigins?: string[];
  warn?: (message: string) => void;
}

export interface RunningServer {
  url: string;
  mcpUrl: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

export class BindError extends Error {}

/** Starts the local REST + MCP server; loopback only unless explicitly told otherwise. */
export async function listen(deps: Omit<ServerDeps, 'baseUrl'>, opts: ListenOptions = {}): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host)) {
    if (!opts.allowNonLoopback) {
      throw new BindError(`refusing to bind to ${host}: the local server serves your data; pass --allow-non-loopback to expose it`);
    }
    (opts.warn ?? console.warn)(`warning: serving on ${host}, reachable from other machines; anyone who can reach it can read your local data`);
  }
  const holder: ServerDeps = { ...deps, baseUrl: '' };
  const app = await buildServer(holder, { allowedOrigins: opts.allowedOrigins });
  await app.listen({ host, port: opts.port ?? 0 });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  holder.baseUrl = `http://${shownHost}:${port}`;
  // After listening, never before: readiness does not wait for it; and only between clients' requests.
  // The start counts as a client's: whoever started the server is likely to ask at once.
  let closing = false;
  let lastClient = performance.now();
  const seen = () => void (lastClient = performance.now());
  app.server.on('connection', seen).on('request', seen);
  const warming = warmUp(deps.engine, () => closing, () => performance.now() - lastClient >= QUIET_MS);
  const close = async () => {
    closing = true;
    await warming;
    await app.close();
  };
  return { url: holder.baseUrl, mcpUrl: `${holder.baseUrl}/mcp`, app, close };
}
