import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildServer } from '../../src/server/app.js';
import { LATEST_COLUMNS } from '../../src/core/contract/mf.js';
import { TINY_CASES } from '../../src/gen/mf.js';
import type { Engine } from '../../src/core/engine/engine.js';
import { openTinyMfStore } from '../helpers/mf-store.js';

const code = (label: string) => TINY_CASES[label][0];

describe('MF REST and MCP over HTTP (local server, DuckDB-WASM, tiny data synced from the publisher)', () => {
  let app: FastifyInstance;
  let base: string;
  let engine: Engine;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ engine, close } = await openTinyMfStore(mkdtempSync(path.join(tmpdir(), 'almanac-mf-store-'))));
    app = await buildServer({ engine, baseUrl: 'http://127.0.0.1' });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await app?.close();
    await close?.();
  });

  const get = (p: string, headers: Record<string, string> = {}) => fetch(`${base}${p}`, { headers });
  const json = async (p: string) => {
    const r = await get(p);
    return { status: r.status, body: (await r.json()) as Record<string, any>, headers: r.headers };
  };
  const isinOf = async (c: number) =>
    (await engine.all<{ isin: string; isin2: string }>('SELECT isin, isin2 FROM mf.latest WHERE scheme_code = ?', [c]))[0];

  it('serves the catalog (with and without the slash) and the terms', async () => {
    const a = await json('/mf/v1/');
    expect(a.status).toBe(200);
    expect(Object.keys(a.body.schema.latest_snapshot.column_notes)).toEqual([...LATEST_COLUMNS]);
    expect(a.body.limits).toMatchObject({ bulkSchemesMax: 50, searchLimitMax: 100 });
    expect(a.body.examples.length).toBeGreaterThan(3);
    expect((await json('/mf/v1')).body).toEqual(a.body);
    const t = await json('/mf/v1/terms');
    expect(t.body.license).toMatch(/CC0/);
  });

  it('declares the canonical MF routes (not the aliases) in OpenAPI', async () => {
    const paths = Object.keys((await json('/openapi.json')).body.paths).filter((p) => p.startsWith('/mf/'));
    expect(paths.sort()).toEqual(['/mf/v1/', '/mf/v1/download', '/mf/v1/nav', '/mf/v1/schemes/{code}/nav', '/mf/v1/search', '/mf/v1/terms']);
    const search = (await json('/openapi.json')).body.paths['/mf/v1/search'].get;
    expect(search.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['q', 'sub_category', 'txic_code', 'last_date_to']));
  });

  it('every 4xx has the envelope; validation errors add code, field and docs_url', async () => {
    const cases: [string, string, string][] = [
      ['/mf/v1/search?q=%20', 'blank_query', 'q'],
      ['/mf/v1/search?q=x&colour=red', 'unknown_parameter', 'colour'],
      ['/mf/v1/search?q=x&limit=ten', 'invalid_integer', 'limit'],
      ['/mf/v1/search?q=x&limit=1&limit=2', 'conflicting_values', 'limit'],
      ['/mf/v1/search?amc=x&first_date_from=2020-02-01&first_date_to=2020-01-01', 'impossible_window', 'first_date_from'],
      ['/mf/v1/nav?scheme=1&since=2020-02-01&until=2020-01-01', 'impossible_window', 'since'],
      ['/mf/v1/nav?category=equity', 'use_search', 'category'],
      ['/mf/v1/nav?amc=hdfc', 'use_search', 'amc'],
    ];
    for (const [p, c, field] of cases) {
      const { status, body } = await json(p);
      expect(status, p).toBe(400);
      expect(body, p).toEqual({
        error: 'bad_request',
        status: 400,
        path: p,
        message: expect.any(String),
        code: c,
        field,
        docs_url: `http://127.0.0.1/mf/v1/#parameters.${field}`,
        ...(c === 'use_search' ? { hint: expect.stringContaining('/mf/v1/search') } : {}),
        help: { catalog: 'http://127.0.0.1/mf/v1/', docs: 'http://127.0.0.1/openapi.json' },
      });
    }
    expect((await json('/mf/v1/nav?amc=hdfc')).body.message).toMatch(/\/mf\/v1\/search.*\/mf\/v1\/nav\?schemes=/);
    const nf = await json('/mf/v1/nope');
    expect(nf).toMatchObject({ status: 404, body: { error: 'not_found', status: 404, path: '/mf/v1/nope' } });
    const post = await fetch(`${base}/mf/v1/nav?scheme=1`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(await post.json()).toMatchObject({ error: 'method_not_allowed', help: { catalog: 'http://127.0.0.1/mf/v1/' } });
  });

  it('search: compact for q, rich with total_matches for filters, repeated filter = comma list', async () => {
    const q = await json('/mf/v1/search?name=liquid');
    expect(q.status).toBe(200);
    expect(Object.keys(q.body)).toEqual(['query', 'count', 'results']);
    expect(Object.keys(q.body.results[0]).sort()).toEqual(['category_sub', 'is_active', 'isin', 'isin2', 'relevance', 'scheme_code', 'scheme_name']);
    const f = await json('/mf/v1/search?amc=hdfc,kotak&active=all');
    expect(f.body.total_matches).toBeGreaterThan(0);
    expect(f.body.results[0]).toHaveProperty('amc');
    expect((await json('/mf/v1/search?amc=hdfc&amc=kotak&active=all')).body).toEqual(f.body);
    const none = await json('/mf/v1/search?amc=nobody&option=growth');
    expect(none.body).toMatchObject({ count: 0, total_matches: 0 });
    expect(none.body.valid_values.option).toContain('Growth');
    expect(none.body.valid_values.amc.length).toBeGreaterThan(5);
  });

  it('nav: single shape by code, same rows by ISIN and isin2, wrapped batch with not_found', async () => {
    const c = code('both_isins');
    const { isin, isin2 } = await isinOf(c);
    const one = await json(`/mf/v1/nav?scheme=${c}&since=2025-01-01`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ scheme_code: c, isin, isin2 });
    expect(one.body.count).toBe(one.body.data.length);
    expect(one.headers.get('last-modified')).toBeTruthy();
    // Revalidated by clients, not reused from a cache by heuristics.
    expect(one.headers.get('cache-control')).toBe('no-cache');
    expect((await json(`/mf/v1/nav?isin=${isin2}&from=2025-01-01`)).body).toEqual(one.body);
    const bad = isin.slice(0, 11) + String((Number(isin[11]) + 1) % 10);
    const batch = await json(`/mf/v1/nav?scheme=${c},${isin},${bad},123&latest=TRUE`);
    expect(Object.keys(batch.body.schemes)).toEqual([String(c), isin]);
    expect(batch.body.not_found).toEqual([bad, '123']);
    expect(batch.body.schemes[String(c)].count).toBe(1);
  });

  it('nav: unknown and corrupted ids are 404s with the search hint', async () => {
    const unknown = await json('/mf/v1/nav?scheme=999999');
    expect(unknown).toMatchObject({ status: 404, body: { error: 'not_found', code: 'unknown_scheme', hint: expect.stringContaining('/mf/v1/search') } });
    const { isin } = await isinOf(code('both_isins'));
    const bad = isin.slice(0, 11) + String((Number(isin[11]) + 1) % 10);
    const corrupted = await json(`/mf/v1/schemes/${bad}/nav`);
    expect(corrupted).toMatchObject({ status: 404, body: { code: 'corrupted_isin', path: `/mf/v1/schemes/${bad}/nav` } });
    expect(corrupted.body.message).toMatch(/retrying will not help/);
  });

  it('empty window: count 0 with the available dates and Last-Modified; If-Modified-Since gives 304', async () => {
    const c = code('zero_final_nav');
    const r = await json(`/mf/v1/nav?scheme=${c}&since=2099-01-01`);
    expect(r.body).toMatchObject({ count: 0, data: [], first_available_date: expect.any(String), latest_available_date: expect.any(String), end_of_life: true });
    const lm = r.headers.get('last-modified')!;
    expect(Date.parse(lm)).toBeGreaterThan(Date.parse('2026-01-01'));
    expect((await get(`/mf/v1/nav?scheme=${c}`, { 'if-modified-since': lm })).status).toBe(304);
    const older = new Date(Date.parse(lm) - 86_400_000).toUTCString();
    expect((await get(`/mf/v1/nav?scheme=${c}`, { 'if-modified-since': older })).status).toBe(200);
  });

  it('the path form and every alias route answer like the canonical routes', async () => {
    const c = code('weekend_nav');
    const canonical = (await json(`/mf/v1/nav?scheme=${c}&since=2026-09-01`)).body;
    for (const p of ['/nav-history', '/history', '/nav/history', '/series']) {
      expect((await json(`/mf/v1${p}?scheme=${c}&start=2026-09-01`)).body, p).toEqual(canonical);
    }
    for (const p of ['schemes/{c}/nav', 'scheme/{c}/nav', 'nav/{c}', 'schemes/{c}', 'scheme/{c}', 'history/{c}', 'schemes/{c}/history', 'series/{c}']) {
      expect((await json(`/mf/v1/${p.replace('{c}', String(c))}?since=2026-09-01`)).body, p).toEqual(canonical);
    }
    expect((await json(`/mf/v1/schemes/${c}/nav?scheme=1`)).status).toBe(400);
  });

  it('surfaces merger splits in the NAV response', async () => {
    const r = await json(`/mf/v1/schemes/${code('merger_old')}/nav?latest=true`);
    expect(r.body.is_active).toBe(false);
    expect(TINY_CASES.merger_new).toContain(r.body.continued_as[0].scheme_code);
  });

  it('download?format=latest: the snapshot CSV with ETag, Content-Length and 304s', async () => {
    const r = await get('/mf/v1/download?format=latest');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/csv/);
    const text = await r.text();
    expect(Number(r.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    const [{ n }] = await engine.all<{ n: number }>('SELECT count(*) AS n FROM mf.latest');
    expect(text.trimEnd().split('\n')).toHaveLength(n + 1);
    const etag = r.headers.get('etag')!;
    expect((await get('/mf/v1/download?format=latest.csv', { 'if-none-match': etag })).status).toBe(304);
    expect((await get('/mf/v1/download?format=latest', { 'if-none-match': '"other"' })).status).toBe(200);
    const part = await get('/mf/v1/download?format=latest', { range: 'bytes=0-99' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-99/${Buffer.byteLength(text)}`);
    expect(await part.text()).toBe(Buffer.from(text).subarray(0, 100).toString());
    const stale = await get('/mf/v1/download?format=latest', { range: 'bytes=0-99', 'if-range': '"older"' });
    expect(stale.status).toBe(200);
    expect((await get('/mf/v1/download?format=latest', { range: 'bytes=999999999-' })).status).toBe(416);
    // The publisher's rules (core/http/freshness.ts): If-None-Match compares weakly, If-Range takes a date.
    expect((await get('/mf/v1/download?format=latest', { 'if-none-match': `"other", W/${etag}` })).status).toBe(304);
    const lastModified = r.headers.get('last-modified')!;
    expect(r.headers.get('cache-control')).toBe('no-cache');
    expect((await get('/mf/v1/download?format=latest', { range: 'bytes=0-99', 'if-range': lastModified })).status).toBe(206);
    const earlier = new Date(Date.parse(lastModified) - 1000).toUTCString();
    expect((await get('/mf/v1/download?format=latest', { range: 'bytes=0-99', 'if-range': earlier })).status).toBe(200);
    expect((await json('/mf/v1/download?format=parquet')).body).toMatchObject({ status: 404, code: 'not_mirrored' });
    expect((await json('/mf/v1/download?format=xls')).body).toMatchObject({ status: 400, code: 'invalid_format' });
  });

  it('MCP tools answer from the same core functions', async () => {
    const client = new Client({ name: 'mf-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual(expect.arrayContaining(['mf_search', 'mf_nav']));
      const text = (r: unknown) => JSON.parse((r as { content: { text: string }[] }).content[0].text);
      const s = await client.callTool({ name: 'mf_search', arguments: { amc: 'hdfc', active: 'all' } });
      expect(text(s)).toEqual((await json('/mf/v1/search?amc=hdfc&active=all')).body);
      const c = code('both_isins');
      const n = await client.callTool({ name: 'mf_nav', arguments: { schemes: [String(c), '999999'], latest: true } });
      expect(text(n)).toEqual((await json(`/mf/v1/nav?schemes=${c},999999&latest=true`)).body);
      const e = await client.callTool({ name: 'mf_search', arguments: { q: ' ' } });
      expect(e.isError).toBe(true);
      expect(text(e)).toMatchObject({ error: 'bad_request', code: 'blank_query', path: 'mf_search' });
    } finally {
      await client.close();
    }
  });
});
