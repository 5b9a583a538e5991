/**
 * The local server is the user's data: it binds to loopback unless told otherwise, and answers only
 * requests whose Host is a loopback name (DNS rebinding) and whose Origin, if any, is the app's own
 * (other sites). Extends test/server/listen.test.ts with the whole matrix and counts it.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeEngine } from '../../src/core/engine/node.js';
import { BindError, listen, type RunningServer } from '../../src/server/listen.js';
import { writeFigures } from './figures.js';

const APP_ORIGIN = 'http://127.0.0.1:5173';

function raw(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; body: string; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = request(url, { method: opts.method ?? 'GET', headers: opts.headers, setHost: !opts.headers?.host }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const MCP_CALL = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_categories', arguments: {} } });
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('binding, Host and Origin guard', () => {
  let engine: NodeEngine;
  let server: RunningServer;
  let port: number;
  const tally = { 'bind attempts refused': 0, 'hostile requests': 0, 'hostile requests refused (403)': 0, 'hostile answers carrying CORS allow': 0, 'own-origin requests answered': 0 };

  beforeAll(async () => {
    engine = await NodeEngine.open();
    server = await listen({ engine }, { allowedOrigins: [APP_ORIGIN] });
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    await server?.close();
    await engine?.close();
    writeFigures({
      campaign: 'origin',
      title: 'Loopback binding, DNS rebinding and cross-origin guard',
      checks: [
        'listen() refuses every non-loopback address without allowNonLoopback, and warns when it is given.',
        'Requests with a foreign Host (rebinding names, look-alikes, other addresses) or a foreign Origin (other sites, other ports, `null`) get 403 in JSON and no Access-Control-Allow-Origin, on GET, preflight OPTIONS and MCP POST; the app\'s own origin is answered with CORS headers.',
      ],
      counts: tally,
    });
  });

  it.each(['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', 'example.com', '127.0.0.2'])('refuses to bind to %s without the explicit flag', async (host) => {
    await expect(listen({ engine }, { host })).rejects.toThrow(BindError);
    tally['bind attempts refused']++;
  });

  it('binds to a non-loopback address only when told, with a warning', async () => {
    const warnings: string[] = [];
    const s = await listen({ engine }, { host: '0.0.0.0', allowNonLoopback: true, warn: (m) => warnings.push(m) });
    try {
      expect(warnings.join()).toMatch(/reachable from other machines/);
    } finally {
      await s.close();
    }
  });

  const HOSTS = ['attacker.example', 'attacker.example:80', '127.0.0.1.evil.example', 'localhost.evil.example', 'evil.localhost', '[::2]', '0.0.0.0', '192.168.1.10', '127.0.0.2', 'LOCALHOST.evil', ''];
  const ORIGINS = ['https://evil.example', 'null', 'http://127.0.0.1', 'http://127.0.0.1:1', 'http://localhost:5173', 'https://127.0.0.1:5173', 'http://127.0.0.1:5173.evil.example', 'file://'];
  const PATHS = ['/v1/', '/mf/v1/search?q=a', '/flags/v1/tables', '/v1/compare?symbols=SPY&start_date=2024-01-01&end_date=2024-02-01', '/openapi.json'];

  it('refuses foreign Host headers on every route, MCP included', async () => {
    for (const host of HOSTS) {
      for (const p of [...PATHS, '/mcp']) {
        const mcp = p === '/mcp';
        const r = await raw(`http://127.0.0.1:${port}${p}`, { method: mcp ? 'POST' : 'GET', headers: { host: host === '' ? ' ' : host, ...(mcp ? MCP_HEADERS : {}) }, body: mcp ? MCP_CALL : undefined });
        tally['hostile requests']++;
        if (r.headers['access-control-allow-origin']) tally['hostile answers carrying CORS allow']++;
        expect({ host, p, status: r.status }).toEqual({ host, p, status: 403 });
        expect(JSON.parse(r.body)).toMatchObject({ error: 'forbidden', status: 403 });
        tally['hostile requests refused (403)']++;
      }
    }
  });

  it('refuses foreign Origins on GET, preflight and MCP POST; answers its own with CORS headers', async () => {
    for (const origin of ORIGINS) {
      for (const [method, p] of [['GET', '/v1/'], ['GET', '/flags/v1/tables'], ['OPTIONS', '/v1/series'], ['POST', '/mcp']] as const) {
        const r = await raw(`http://127.0.0.1:${port}${p}`, {
          method,
          headers: { origin, ...(method === 'POST' ? MCP_HEADERS : {}), ...(method === 'OPTIONS' ? { 'access-control-request-method': 'GET' } : {}) },
          body: method === 'POST' ? MCP_CALL : undefined,
        });
        tally['hostile requests']++;
        if (r.headers['access-control-allow-origin']) tally['hostile answers carrying CORS allow']++;
        expect({ origin, method, p, status: r.status, acao: r.headers['access-control-allow-origin'] }).toEqual({ origin, method, p, status: 403, acao: undefined });
        tally['hostile requests refused (403)']++;
      }
    }
    const pre = await raw(`http://127.0.0.1:${port}/v1/series`, { method: 'OPTIONS', headers: { origin: APP_ORIGIN, 'access-control-request-method': 'GET' } });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    const own = await raw(`http://127.0.0.1:${port}/flags/v1/`, { headers: { origin: APP_ORIGIN } });
    expect(own.status).toBe(200);
    expect(own.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    tally['own-origin requests answered'] += 2;
    for (const host of ['localhost', `localhost:${port}`, '[::1]', `127.0.0.1:${port}`]) {
      const r = await raw(`http://127.0.0.1:${port}/flags/v1/`, { headers: { host } });
      expect({ host, status: r.status }).toEqual({ host, status: 200 });
      tally['own-origin requests answered']++;
    }
  });
});
