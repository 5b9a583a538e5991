import { describe, it, expect, afterAll } from 'vitest';
import { request } from 'node:http';
import { connect } from 'node:net';
import { NodeEngine } from '../../src/core/engine/node.js';
import { listen, BindError } from '../../src/server/listen.js';

/** Raw request so the Host and Origin headers are exactly what a rebinding page would send. */
function get(url: string, headers: Record<string, string>): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('local server binding and origin guard', async () => {
  const engine = await NodeEngine.open();
  const server = await listen({ engine }, { allowedOrigins: ['http://127.0.0.1:5173'] });
  afterAll(async () => {
    await server.close();
    await engine.close();
  });

  it('binds to loopback and refuses other addresses without the explicit flag', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await expect(listen({ engine }, { host: '0.0.0.0' })).rejects.toThrow(BindError);
  });

  it('closes a socket that trickles its headers and never ends them (slowloris), and still answers others', async () => {
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => {});
    const closed = new Promise<string>((resolve) => {
      let got = '';
      socket.on('data', (b) => (got += b));
      socket.once('close', () => resolve(got));
    });
    socket.write('GET /mf/v1/terms HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const trickle = setInterval(() => socket.write('x-slow: 1\r\n'), 500);
    try {
      expect((await get(`${server.url}/mf/v1/terms`, { host: '127.0.0.1' })).status).toBe(200);
      // Node answers a head that timed out with 408 and closes the socket.
      expect(await closed).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const res = await get(`${server.url}/mcp`, { host: 'attacker.example:80' });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ error: 'forbidden', status: 403 });
  });

  it("refuses other sites' origins and answers the app's own with CORS headers", async () => {
    const evil = await get(`${server.url}/no-such-path`, { origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    const own = await get(`${server.url}/no-such-path`, { origin: 'http://127.0.0.1:5173' });
    expect(own.status).toBe(404);
    expect(own.headers['access-control-allow-origin']).toBe('http://127.0.0.1:5173');
  });
});

describe('paths outside the services', async () => {
  const engine = await NodeEngine.open();
  const server = await listen({ engine });
  afterAll(async () => {
    await server.close();
    await engine.close();
  });

  it('answer 404 in an envelope that says where the APIs are, and long segments are not a 414', async () => {
    const res = await fetch(`${server.url}/mf/`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: 'not_found', status: 404, help: { mutual_funds: '/mf/v1/' } });
    const long = await fetch(`${server.url}/mf/v1/schemes/${'9'.repeat(300)}/nav`);
    // No MF data on this server: the service's own 503 "sync first", not the router's 414.
    expect(long.status).toBe(503);
    expect(await long.json()).toMatchObject({ status: 503 });
  });
});
