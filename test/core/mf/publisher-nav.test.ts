import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishTiny } from '../../helpers/tiny-data.js';
import { startPublisher, type Publisher } from '../../../src/publisher/server.js';
import { publisherSchemeNav, PublisherNavError } from '../../../src/core/services/mf/publisher-nav.js';
import { MfError } from '../../../src/core/contract/mf-params.js';

/** A fetch that counts the requests it makes. */
function counted() {
  const urls: string[] = [];
  const f: typeof fetch = (input, init) => (urls.push(String(input)), fetch(input, init));
  return { f, urls };
}

/** One fund's history from the publisher's own endpoint, for a light store: the stand-in publisher over HTTP, then a hostile one. */
describe('publisherSchemeNav', () => {
  let root = '';
  let publisher: Publisher;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'almanac-publisher-nav-'));
    await publishTiny(root, ['mf']);
    publisher = await startPublisher({ dataDir: root, limits: 'off' });
  }, 300_000);

  afterAll(async () => {
    await publisher?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('gives the answer the endpoint sends, every field kept, by code and by ISIN', { timeout: 120_000 }, async () => {
    const raw = await (await fetch(`${publisher.url}/mf/v1/schemes/115610/nav`)).text();
    const { nav, bytes } = await publisherSchemeNav(fetch, `${publisher.url}/`, '115610');
    expect(nav).toEqual(JSON.parse(raw));
    expect(nav.count).toBeGreaterThan(100);
    expect(bytes).toBe(Buffer.byteLength(raw));
    const byIsin = await publisherSchemeNav(fetch, publisher.url, nav.isin!);
    expect(byIsin.nav).toEqual(nav);
  });

  it("says the publisher's own message for an unknown scheme, and asks nothing for a malformed one", { timeout: 60_000 }, async () => {
    const e = await publisherSchemeNav(fetch, publisher.url, '999999').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PublisherNavError);
    expect((e as PublisherNavError).status).toBe(404);
    expect((e as Error).message).toMatch(/^The publisher refused: .*999999/);
    const { f, urls } = counted();
    await expect(publisherSchemeNav(f, publisher.url, 'abc$%')).rejects.toBeInstanceOf(MfError);
    await expect(publisherSchemeNav(f, publisher.url, 'INF209K01YN1')).rejects.toThrow(/check digit/);
    expect(urls).toEqual([]);
  });

  describe('a hostile publisher', () => {
    let server: Server;
    let base = '';
    /** What the server answers next: status, body, headers. */
    let next: { status: number; body: string | Buffer; headers?: Record<string, string> } = { status: 200, body: '' };
    const good = { scheme_code: 1, scheme_name: 'X', isin: null, isin2: null, first_available_date: '2020-01-01', latest_available_date: '2020-01-02', count: 2, is_active: true, end_of_life: false, data: [{ date: '2020-01-01', nav: 10 }, { date: '2020-01-02', nav: 10.5 }] };

    beforeAll(async () => {
      server = createServer((_req, res) => {
        res.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
        res.end(next.body);
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    const ask = async (answer: typeof next) => {
      next = answer;
      return publisherSchemeNav(fetch, base, '1');
    };
    /** The error the answer is refused with. */
    const refused = (answer: typeof next) => ask(answer).then(
      () => expect.fail('taken'),
      (e: unknown) => e as PublisherNavError,
    );

    it('takes a well-formed answer', async () => {
      expect(await ask({ status: 200, body: JSON.stringify(good) })).toEqual({ nav: good, bytes: JSON.stringify(good).length });
    });

    it.each([
      ['a count that is not the points', { ...good, count: 3 }, 'count'],
      ['a NAV as text', { ...good, data: [{ date: '2020-01-01', nav: '10' }, good.data[1]] }, 'data[].nav'],
      ['a date that is not a date', { ...good, data: [{ date: '1/1/2020', nav: 10 }, good.data[1]] }, 'data[].date'],
      ['no data', { ...good, data: undefined }, 'data'],
      ['a code as text', { ...good, scheme_code: '1' }, 'scheme_code'],
      ['a successor without its dates', { ...good, continued_as: [{ scheme_code: 2, scheme_name: 'Y' }] }, 'continued_as[].first_date'],
    ])('refuses %s, naming the field', async (_what, body, field) => {
      const e = await refused({ status: 200, body: JSON.stringify(body) });
      expect(e).toBeInstanceOf(PublisherNavError);
      expect((e as Error).message).toBe(`The publisher's answer is not a NAV history (${field}).`);
    });

    it('refuses an answer that is not JSON, or too long to be a NAV history', async () => {
      expect((await refused({ status: 200, body: '<html>' })).message).toBe('The publisher answered with something other than JSON.');
      expect((await refused({ status: 200, body: Buffer.alloc(9 << 20, 32) })).message).toMatch(/longer than/);
    });

    it('says when to try again after a 429, and the status behind a page that is no envelope', async () => {
      const limited = await refused({ status: 429, body: JSON.stringify({ error: 'rate_limited', message: 'Too many requests.', retry_after_seconds: 17 }), headers: { 'retry-after': '17' } });
      expect(limited.message).toBe('The publisher refused: Too many requests. Try again in 17 s.');
      expect(limited.status).toBe(429);
      expect((await refused({ status: 502, body: '<h1>Bad Gateway</h1>' })).message).toBe('The publisher refused: HTTP 502');
    });

    it('says the publisher could not be reached', async () => {
      const e = await publisherSchemeNav(fetch, 'http://127.0.0.1:9', '1').then(
        () => expect.fail('reached'),
        (x: unknown) => x as PublisherNavError,
      );
      expect(e).toBeInstanceOf(PublisherNavError);
      expect(e.status).toBeNull();
      expect(e.message).toMatch(/^The publisher could not be reached/);
    });
  });
});
