/**
 * Requests refused before any route (a malformed or over-long URL, oversized headers, a body of the
 * wrong type) answer in the envelope of the service their path names, and in Almanac's own elsewhere.
 * Raw HTTP over a socket, so the bytes on the wire are exactly the ones under test.
 */
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { NodeEngine } from '../../src/core/engine/node.js';
import { listen } from '../../src/server/listen.js';

interface Answer {
  status: number;
  headers: string;
  body: any;
}

/** One request written as given; the answer read until the server closes or the body is complete. */
function raw(port: number, head: string, body = ''): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    const done = () => {
      const at = data.indexOf('\r\n\r\n');
      const text = data.slice(at + 4);
      socket.destroy();
      try {
        resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1]), headers: data.slice(0, at).toLowerCase(), body: JSON.parse(text) });
      } catch (e) {
        reject(new Error(`not JSON: ${data.slice(0, 400)} (${String(e)})`));
      }
    };
    socket.setEncoding('latin1');
    socket.on('data', (c) => {
      data += c;
      const at = data.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(data.slice(0, at))?.[1]);
      if (at >= 0 && Buffer.byteLength(data.slice(at + 4), 'latin1') >= length) done();
    });
    socket.on('end', done);
    socket.on('error', reject);
    socket.write(`${head}\r\nhost: 127.0.0.1\r\nconnection: close\r\n${body ? `content-length: ${Buffer.byteLength(body)}\r\n` : ''}\r\n${body}`);
  });
}

const str = (v: unknown) => typeof v === 'string';
/** The shapes the specs give each service's 4xx (the fuzz campaign checks the same). */
const envelope = {
  mf: (b: any, status: number) => b.status === status && str(b.error) && str(b.path) && str(b.message) && str(b.help?.catalog) && b.help.catalog.endsWith('/mf/v1/'),
  flags: (b: any, status: number) => b.status === status && str(b.error) && str(b.path) && str(b.message) && str(b.hint) && b.help?.catalog.endsWith('/flags/v1/'),
  indicators: (b: any, status: number) => b.status === status && str(b.error) && str(b.path) && str(b.message) && b.help?.catalog.endsWith('/v1/'),
  compare: (b: any, status: number) => b.success === false && b.status === status && str(b.error) && str(b.message) && str(b.hint),
  almanac: (b: any, status: number) => b.status === status && str(b.error) && str(b.path) && str(b.message) && b.code === undefined,
};

describe('requests refused before routing, in the envelope their path names', async () => {
  const engine = await NodeEngine.open();
  const server = await listen({ engine });
  const port = Number(new URL(server.url).port);
  afterAll(async () => {
    await server.close();
    await engine.close();
  });

  it.each([
    ['/flags/v1/data/%zz', 'flags'],
    ['/flags/v1/company/%c0%ae/scorecard', 'flags'],
    ['/mf/v1/%c0%ae%c0%ae%c0%af', 'mf'],
    ['/mf/v1/schemes/%zz/nav', 'mf'],
    ['/v1/categories/%zz/indicators', 'indicators'],
    ['/v2/download/%e0%a4', 'indicators'],
    ['/legacy/v1/download/%zz', 'indicators'],
    ['/v1/compare/%zz', 'compare'],
    ['/almanac/v1/%zz', 'almanac'],
    ['/elsewhere/%zz', 'almanac'],
  ] as const)('malformed percent-encoding: GET %s is a 400 in the %s envelope', async (path, service) => {
    const r = await raw(port, `GET ${path} HTTP/1.1`);
    expect(r.status).toBe(400);
    expect(String(r.body.code)).not.toMatch(/^FST_/);
    expect(envelope[service](r.body, 400), JSON.stringify(r.body)).toBe(true);
  });

  it('a path parameter over the router limit is a 414 in the service envelope', async () => {
    const r = await raw(port, `GET /flags/v1/company/${'A'.repeat(3000)} HTTP/1.1`);
    expect(r.status).toBe(414);
    expect(envelope.flags(r.body, 414), JSON.stringify(r.body)).toBe(true);
  });

  it.each([
    ['/mf/v1/search?q=a', 'mf'],
    ['/flags/v1/tables', 'flags'],
    ['/v1/find?q=abc', 'indicators'],
    ['/nowhere', 'almanac'],
  ] as const)('headers over the HTTP limit: GET %s is a 431 in the %s envelope', async (path, service) => {
    const r = await raw(port, `GET ${path} HTTP/1.1\r\nx-filler: ${'x'.repeat(20_000)}`);
    expect(r.status).toBe(431);
    expect(envelope[service](r.body, 431), JSON.stringify(r.body)).toBe(true);
  });

  it('a body of a type the server does not read is a 415 in Almanac\'s envelope', async () => {
    const r = await raw(port, 'POST /mcp HTTP/1.1\r\ncontent-type: application/x-unknown', 'hello');
    expect(r.status).toBe(415);
    expect(envelope.almanac(r.body, 415), JSON.stringify(r.body)).toBe(true);
  });

  it("another method on a service's path is its 405, with Allow", async () => {
    const r = await raw(port, 'POST /flags/v1/companies HTTP/1.1\r\ncontent-type: application/x-unknown', 'x');
    expect(r.status).toBe(405);
    expect(r.headers).toContain('allow: get, head');
    expect(envelope.flags(r.body, 405), JSON.stringify(r.body)).toBe(true);
  });

  it('a service without its data answers 503 in its envelope; Almanac lists the APIs', async () => {
    const r = await raw(port, 'GET /mf/v1/search?q=abc HTTP/1.1');
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ error: 'service_unavailable', code: 'no_local_data' });
    const own = await raw(port, 'GET /almanac/v1/ HTTP/1.1');
    expect(own.status).toBe(200);
    expect(own.body.apis).toMatchObject({ mutual_funds: '/mf/v1/', red_flags: '/flags/v1/', mcp: 'POST /mcp' });
  });
});
