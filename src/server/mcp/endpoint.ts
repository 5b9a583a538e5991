import type { FastifyInstance } from 'fastify';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { ServerDeps } from '../deps.js';
import { toolModules } from './index.js';

/**
 * POST /mcp, Streamable HTTP, stateless: each request gets a fresh server and transport, so no
 * session state outlives a call (the tools are read-only queries).
 */
export async function registerMcp(app: FastifyInstance, deps: ServerDeps): Promise<void> {
  const modules = await Promise.all(toolModules.map((load) => load()));
  const build = () => {
    const server = new McpServer({ name: 'almanac', version: '0.1.0' });
    for (const register of modules) register(server, deps);
    return server;
  };
  app.post('/mcp', async (req, reply) => {
    const server = build();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req.raw, reply.raw, req.body);
  });
  const notAllowed = async (_req: unknown, reply: import('fastify').FastifyReply) =>
    reply.code(405).header('allow', 'POST').send({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; use POST.' },
      id: null,
    });
  app.get('/mcp', notAllowed);
  app.delete('/mcp', notAllowed);
}
