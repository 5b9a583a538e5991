import type { FastifyInstance, FastifyReply } from 'fastify';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { ServerDeps } from './deps.js';
import { asApiError, type Service, type Tool } from './service.js';

/**
 * A tool's answer as MCP content: errors come back as tool errors carrying the same envelope REST
 * sends (results are body-only: no headers reach the agent, so series TSV carries its `# meta:` line).
 */
function answering(service: Service, tool: Tool, deps: ServerDeps) {
  return async (args: Record<string, unknown>) => {
    try {
      const out = await tool.run(args);
      return { content: [{ type: 'text' as const, text: typeof out === 'string' ? out : JSON.stringify(out) }] };
    } catch (thrown) {
      const err = asApiError(thrown, service);
      if (!err) throw thrown;
      return { isError: true, content: [{ type: 'text' as const, text: JSON.stringify(err.body(tool.name, deps.baseUrl)) }] };
    }
  };
}

/** Idle servers kept for reuse: about the requests in flight at once, no more. */
const POOL_MAX = 16;

/**
 * POST /mcp, Streamable HTTP, stateless: every request gets its own transport, so nothing of one
 * call reaches the next. The SDK binds a server to one transport at a time, and building one (its
 * tool table, schemas and handlers) cost about 14 ms, more than most answers: so servers are built
 * from the tool list made once here, and one whose answer went out whole is closed (which ends its
 * transport and drops every pending handler) and kept for the next request.
 */
export function mountMcp(app: FastifyInstance, deps: ServerDeps, services: readonly Service[]): void {
  const tools = services.flatMap((s) => s.tools.map((t) => ({ tool: t, call: answering(s, t, deps) })));
  const build = () => {
    const server = new McpServer({ name: 'almanac', version: '0.1.0' });
    for (const { tool, call } of tools) {
      server.registerTool(tool.name, { description: tool.description, inputSchema: tool.input, annotations: { readOnlyHint: true } }, call);
    }
    return server;
  };
  const idle: McpServer[] = [];

  app.post('/mcp', async (req, reply) => {
    const server = idle.pop() ?? build();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      // An answer cut short may leave a tool running on this server: that one is not reused.
      const whole = reply.raw.writableFinished;
      server.close().then(
        () => {
          if (whole && idle.length < POOL_MAX) idle.push(server);
        },
        () => undefined, // a server that did not close cleanly is dropped, not reused
      );
    });
    await server.connect(transport);
    await transport.handleRequest(req.raw, reply.raw, req.body);
  });
  const notAllowed = async (_req: unknown, reply: FastifyReply) =>
    reply.code(405).header('allow', 'POST').send({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; use POST.' },
      id: null,
    });
  app.get('/mcp', notAllowed);
  app.delete('/mcp', notAllowed);
}
