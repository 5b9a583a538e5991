import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { gunzipSync } from 'node:zlib';
import { unzipSync } from 'fflate';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildServer } from '../../src/server/app.js';
import type { NodeEngine } from '../../src/core/engine/node.js';
import { CATEGORY_IDS, ENDPOINTS, INDICATOR_LIMITS, MARKET_SYMBOLS } from '../../src/core/contract/indicators.js';
import { tinyIndicators } from '../core/indicators/fixture.js';

let engine: NodeEngine;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  ({ engine } = await tinyIndicators());
  app = await buildServer({ engine, baseUrl: 'http://127.0.0.1:1' });
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
});

afterAll(async () => {
  await app?.close();
  await engine?.close();
});

async function get(path: string, init?: RequestInit) {
  const res = await fetch(`${base}${path}`, init);
  const type = res.headers.get('content-type') ?? '';
  const body = type.includes('json') ? await res.json() : await res.text();
  return { status: res.status, headers: res.headers, body };
}

/** A 422 in the spec's shape: detail items with loc, msg, type (and input, ctx where known). */
function expect422(r: { status: number; body: any }, loc: (string | number)[], type: string) {
  expect(r.status).toBe(422);
  expect(Array.isArray(r.body.detail)).toBe(true);
  const item = r.body.detail[0];
  expect(item.loc).toEqual(loc);
  expect(item.type).toBe(type);
  expect(typeof item.msg).toBe('string');
}

function expectEnvelope(r: { status: number; body: any }, status: number, error: string, path: string) {
  expect(r.status).toBe(status);
  expect(r.body).toMatchObject({ error, status, path, help: { catalog: 'http://127.0.0.1:1/v1/', docs: 'http://127.0.0.1:1/openapi.json' } });
  expect(typeof r.body.message).toBe('string');
}

describe('GET /v1/ and /v1/categories', () => {
  it('catalog carries the categories, the tool summary and the limits block', async () => {
    const r = await get('/v1/');
    expect(r.status).toBe(200);
    expect(r.body.categories.map((c: any) => c.category)).toEqual([...CATEGORY_IDS]);
    expect(r.body.limits).toEqual({ per_ip_per_minute: 60, per_ip_downloads_per_minute: 10, max_ids_per_series_call: 10, max_rows_per_response: 10000 });
    expect(r.body.tools.mcp.tools).toEqual(['list_categories', 'list_indicators_in_category', 'find_indicator', 'v2_get_series']);
    expect(r.body.tools.rest.map((e: any) => e.path)).toEqual(ENDPOINTS.map((e) => e.path));
    expect((await get('/v1')).body).toEqual(r.body);
  });

  it('menu of the 8 categories with one-liners and counts of visible indicators', async () => {
    const r = await get('/v1/categories');
    expect(r.body.count).toBe(8);
    const markets = r.body.categories.find((c: any) => c.category === 'markets');
    expect(markets.count).toBe(16);
    expect(markets.one_liner).toMatch(/16 symbols/);
    for (const c of r.body.categories) expect(c.count).toBeGreaterThan(0);
  });
});

describe('GET /v1/categories/{category}/indicators', () => {
  it('full rows carry every spec field, notes included; hidden indicators are not listed', async () => {
    const r = await get('/v1/categories/us_macro/indicators');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ category: 'us_macro', backend: 'macro_indicators', compact: false });
    expect(r.body.count).toBe(r.body.indicators.length);
    const row = r.body.indicators[0];
    expect(Object.keys(row).sort()).toEqual(
      ['country', 'first_date', 'frequency', 'indicator_id', 'last_date', 'name', 'notes', 'record_count', 'seasonally_adjusted', 'source', 'source_category', 'source_series_id', 'unit'].sort(),
    );
    expect(typeof row.seasonally_adjusted).toBe('boolean');
    expect(row.first_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const i of r.body.indicators) expect(i.notes.length).toBeGreaterThan(40);
    expect(r.body.indicators.map((i: any) => i.indicator_id)).not.toContain('TEDRATE');
  });

  it('compact rows carry only indicator_id, name, frequency, last_date', async () => {
    const r = await get('/v1/categories/markets/indicators?compact=true');
    expect(r.body.compact).toBe(true);
    expect(r.body.backend).toBe('stock_prices');
    expect(r.body.indicators.map((i: any) => i.indicator_id).sort()).toEqual(MARKET_SYMBOLS.map((s) => s.symbol).sort());
    for (const i of r.body.indicators) expect(Object.keys(i).sort()).toEqual(['frequency', 'indicator_id', 'last_date', 'name']);
  });

  it('unknown category: 404 whose body lists the valid categories', async () => {
    const r = await get('/v1/categories/us_macros/indicators');
    expectEnvelope(r, 404, 'not_found', '/v1/categories/us_macros/indicators');
    expect(r.body.valid_categories).toEqual([...CATEGORY_IDS]);
  });

  it('invalid parameter type: 422', async () => {
    expect422(await get('/v1/categories/markets/indicators?compact=perhaps'), ['query', 'compact'], 'bool_parsing');
  });
});

describe('GET /v1/find', () => {
  it('case-insensitive substring of id or name across categories; each hit names its category', async () => {
    const r = await get('/v1/find?query=TREASURY');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ query: 'TREASURY', limit: 50 });
    expect(r.body.count).toBe(r.body.matches.length);
    expect(r.body.matches.length).toBeGreaterThan(1);
    for (const m of r.body.matches) {
      expect(`${m.indicator_id} ${m.name}`.toLowerCase()).toContain('treasury');
      expect(CATEGORY_IDS).toContain(m.category);
      expect(Object.keys(m).sort()).toEqual(['category', 'country', 'first_date', 'frequency', 'indicator_id', 'last_date', 'name']);
    }
    const byId = await get('/v1/find?q=gspc');
    expect(byId.body.matches[0]).toMatchObject({ indicator_id: '^GSPC', category: 'markets' });
  });

  it('q is an alias of query; limit caps the hits; wildcards are literal', async () => {
    const r = await get('/v1/find?q=us&limit=2');
    expect(r.body.count).toBe(2);
    expect((await get('/v1/find?q=%25%25')).body.count).toBe(0);
  });

  it('out-of-range values: 422', async () => {
    expect422(await get('/v1/find?q=x'), ['query', 'q'], 'string_too_short');
    expect422(await get(`/v1/find?query=${'a'.repeat(61)}`), ['query', 'query'], 'string_too_long');
    expect422(await get('/v1/find?query=gdp&limit=0'), ['query', 'limit'], 'greater_than_equal');
    expect422(await get('/v1/find?query=gdp&limit=201'), ['query', 'limit'], 'less_than_equal');
    expect422(await get('/v1/find?query=gdp&limit=ten'), ['query', 'limit'], 'int_parsing');
    expect422(await get('/v1/find'), ['query', 'query'], 'missing');
    expect((await get('/v1/find?query=gdp&limit=200')).status).toBe(200);
  });
});

describe('GET /v1/series', () => {
  it('wide rows mixing frequencies and market closes, with empty cells and diagnostics', async () => {
    const r = await get('/v1/series?ids=DGS10,FEDFUNDS,^GSPC,NOPE_X,TEDRATE&from=2026-08-01&to=2026-10-31');
    expect(r.status).toBe(200);
    expect(r.body.ids).toEqual(['DGS10', 'FEDFUNDS', '^GSPC', 'TEDRATE']);
    expect(r.body.columns).toEqual(['DGS10', 'FEDFUNDS', '^GSPC']);
    expect(r.body.meta).toMatchObject({ unknown_ids: ['NOPE_X'], empty_ids: ['TEDRATE'], truncated: false });
    expect(r.body.count).toBe(r.body.rows.length);
    expect(r.headers.get('x-v2-unknown-ids')).toBe('NOPE_X');
    expect(r.headers.get('x-v2-empty-ids')).toBe('TEDRATE');
    expect(r.headers.get('x-v2-count')).toBe(String(r.body.count));
    const dates = r.body.rows.map((x: any) => x.date);
    expect(dates).toEqual([...dates].sort());
    expect(dates[0] >= '2026-08-01' && dates[dates.length - 1] <= '2026-10-31').toBe(true);
    const monthly = r.body.rows.filter((x: any) => x.FEDFUNDS !== null);
    expect(monthly.map((x: any) => x.date)).toEqual(['2026-08-01', '2026-09-01', '2026-10-01'].filter((d) => dates.includes(d)));
    expect(r.body.rows.some((x: any) => x.FEDFUNDS === null && x.DGS10 !== null)).toBe(true);
    expect(r.body.rows.every((x: any) => typeof x['^GSPC'] === 'number' || x['^GSPC'] === null)).toBe(true);
  });

  it('agrees with the bulk file: a market close is the stock_prices close', async () => {
    const csv = gunzipSync(Buffer.from(await (await fetch(`${base}/v1/download/stock_prices?format=csv.gz`)).arrayBuffer())).toString('utf8');
    const line = csv.split('\n').find((l) => l.startsWith('^GSPC,2026-11-13,'))!;
    const close = Number(line.split(',')[5]);
    const r = await get('/v1/series?ids=%5EGSPC&from=2026-11-13&to=2026-11-13');
    expect(r.body.rows).toEqual([{ date: '2026-11-13', '^GSPC': close }]);
  });

  it('TSV: meta comment first, then the header, then one line per date', async () => {
    const r = await get('/v1/series?ids=dgs10,FEDFUNDS,typo1&from=2026-09-28&to=2026-10-02&format=tsv');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/tab-separated-values/);
    expect((r.body as string).endsWith('\n')).toBe(true);
    const lines = (r.body as string).slice(0, -1).split('\n');
    expect(lines[0]).toBe(`# meta: count=${lines.length - 2} unknown=[typo1] empty=[]`);
    expect(lines[1]).toBe('date\tDGS10\tFEDFUNDS');
    for (const l of lines.slice(2)) expect(l).toMatch(/^\d{4}-\d{2}-\d{2}\t[-\d.]+\t[-\d.]*$/);
    expect(lines.find((l) => l.startsWith('2026-10-01'))!.split('\t')[2]).not.toBe('');
    expect(r.headers.get('x-v2-count')).toBe(String(lines.length - 2));
  });

  it('typos and ranges without rows are diagnostics, not errors', async () => {
    const r = await get('/v1/series?ids=zzz,DGS10&from=1990-01-01&to=1990-12-31&format=tsv');
    expect(r.status).toBe(200);
    expect((r.body as string).split('\n').slice(0, 2)).toEqual(['# meta: count=0 unknown=[zzz] empty=[DGS10]', 'date']);
  });

  it('an id echoed into a header or the meta line cannot inject a line', async () => {
    const r = await get(`/v1/series?ids=${encodeURIComponent('a\nb,c d,[x]')}&format=tsv`);
    expect(r.status).toBe(200);
    expect((r.body as string).split('\n')[0]).toBe('# meta: count=0 unknown=[a%0Ab,c%20d,%5Bx%5D] empty=[]');
    expect(r.headers.get('x-v2-unknown-ids')).toBe('a%0Ab,c%20d,%5Bx%5D');
  });

  it('more than 10 ids, malformed dates, from after to, unsupported format, missing ids: 422', async () => {
    const eleven = Array.from({ length: 11 }, (_, i) => `ID${i}`).join(',');
    expect422(await get(`/v1/series?ids=${eleven}`), ['query', 'ids'], 'too_long');
    expect((await get(`/v1/series?ids=${eleven.split(',').slice(0, INDICATOR_LIMITS.max_ids_per_series_call).join(',')}`)).status).toBe(200);
    expect422(await get('/v1/series?ids=DGS10&from=2024-13-01'), ['query', 'from'], 'date_parsing');
    expect422(await get('/v1/series?ids=DGS10&to=2024-02-30'), ['query', 'to'], 'date_parsing');
    expect422(await get('/v1/series?ids=DGS10&from=20240101'), ['query', 'from'], 'date_parsing');
    expect422(await get('/v1/series?ids=DGS10&from=2025-01-02&to=2025-01-01'), ['query', 'from'], 'value_error');
    expect422(await get('/v1/series?ids=DGS10&format=csv'), ['query', 'format'], 'enum');
    expect422(await get('/v1/series'), ['query', 'ids'], 'missing');
    expect422(await get('/v1/series?ids=,,'), ['query', 'ids'], 'value_error');
  });

  it('/v2/* is a silent alias of /v1/*', async () => {
    const v1 = await get('/v1/series?ids=DGS10&from=2026-11-01');
    const v2 = await get('/v2/series?ids=DGS10&from=2026-11-01');
    expect(v2.status).toBe(200);
    expect(v2.body).toEqual(v1.body);
    expect((await get('/v2/categories')).body).toEqual((await get('/v1/categories')).body);
  });
});

describe('row cap', () => {
  it('returns the earliest max rows with truncated and next_from; the next page continues there', async () => {
    const { engine: e2 } = await tinyIndicators(11);
    const capped = await buildServer({ engine: e2, baseUrl: 'http://127.0.0.1:1', maxSeriesRows: 7 });
    await capped.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(capped.server.address() as { port: number }).port}`;
    try {
      const first = await (await fetch(`${url}/v1/series?ids=DGS10&from=2026-01-01`)).json();
      expect(first.count).toBe(7);
      expect(first.meta).toMatchObject({ truncated: true, max_rows: 7 });
      const second = await (await fetch(`${url}/v1/series?ids=DGS10&from=${first.meta.next_from}`)).json();
      expect(second.rows[0].date).toBe(first.meta.next_from);
      expect(second.rows[0].date > first.rows[6].date).toBe(true);
      const tsv = await (await fetch(`${url}/v1/series?ids=DGS10&from=2026-01-01&format=tsv`)).text();
      expect(tsv.split('\n')[0]).toBe(`# meta: count=7 unknown=[] empty=[] truncated=true next_from=${first.meta.next_from}`);
    } finally {
      await capped.close();
      await e2.close();
    }
  });
});

describe('downloads', () => {
  it('manifest lists what this mirror serves, with sizes and row counts that match the files', async () => {
    const m = (await get('/v1/downloads/manifest')).body;
    expect(typeof m.generated_at).toBe('string');
    const names = Object.keys(m.files);
    expect(names).toContain('stock_prices.csv.gz');
    let total = 0;
    for (const [name, f] of Object.entries<any>(m.files)) {
      const [table, ...rest] = name.split('.');
      const format = rest.join('.');
      const param = { 'csv.zip': 'csv', 'tsv.zip': 'tsv', 'csv.gz': 'csv.gz', 'tsv.gz': 'tsv.gz' }[format]!;
      const res = await fetch(`${base}/v1/download/${table}?format=${param}`);
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(bytes.length, name).toBe(f.size_bytes);
      const text = format.endsWith('.gz')
        ? gunzipSync(bytes).toString('utf8')
        : new TextDecoder().decode(unzipSync(bytes)[`${table}.${format.split('.')[0]}`]);
      expect(text.trimEnd().split('\n').length - 1, name).toBe(f.row_count);
      if (format.endsWith('.zip')) expect(Object.keys(unzipSync(bytes))).toContain('README.md');
      if (format === 'csv.gz') total += f.row_count;
    }
    expect(m.total_rows).toBe(total);
  });

  it('HEAD answers like GET without a body', async () => {
    const head = await fetch(`${base}/v1/downloads/manifest`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const file = await fetch(`${base}/v1/download/indicator_config?format=tsv.gz`, { method: 'HEAD' });
    expect(file.status).toBe(200);
    expect(file.headers.get('etag')).toMatch(/^"[0-9a-f]+"$/);
  });

  it('invalid table or format: 422; publisher-only files: 404 saying where they are', async () => {
    expect422(await get('/v1/download/prices'), ['path', 'table_name'], 'enum');
    expect422(await get('/v1/download/stock_prices?format=xlsx'), ['query', 'format'], 'enum');
    expect422(await get('/v1/download/all?format=csv'), ['query', 'format'], 'enum');
    const all = await get('/v1/download/all');
    expectEnvelope(all, 404, 'not_found', '/v1/download/all');
    expect(all.body.hint).toBeTruthy();
    expectEnvelope(await get('/v1/download/stock_prices'), 404, 'not_found', '/v1/download/stock_prices');
  });
});

describe('errors, legacy surface, OpenAPI', () => {
  it('unknown path under /v1/: 404 listing all endpoints and the docs', async () => {
    const r = await get('/v1/indicators');
    expectEnvelope(r, 404, 'not_found', '/v1/indicators');
    expect(r.body.endpoints.map((e: any) => e.path)).toEqual(ENDPOINTS.map((e) => e.path));
    expect(r.body.docs).toBe('http://127.0.0.1:1/openapi.json');
    expectEnvelope(await get('/v1/series', { method: 'POST' }), 405, 'method_not_allowed', '/v1/series');
  });

  it('/legacy/v1/ publishes unified_endpoint_map; renamed legacy paths point to their successor', async () => {
    const r = await get('/legacy/v1/');
    expect(r.body.unified_endpoint_map).toMatchObject({
      '/legacy/v1/indicators': '/v1/categories or /v1/find',
      '/legacy/v1/directory': '/v1/categories',
      '/legacy/v1/markets': '/v1/find',
      '/legacy/v1/market_series': '/v1/series',
    });
    const old = await get('/legacy/v1/market_series');
    expectEnvelope(old, 404, 'not_found', '/legacy/v1/market_series');
    expect(old.body.hint).toBe('Use /v1/series instead.');
  });

  it('/openapi.json is OpenAPI 3.1.0 and documents the indicator parameters', async () => {
    const r = await get('/openapi.json');
    expect(r.body.openapi).toBe('3.1.0');
    const find = r.body.paths['/v1/find'].get;
    const limit = find.parameters.find((p: any) => p.name === 'limit');
    expect(limit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 200, default: 50 });
    expect(r.body.paths['/v1/series'].get.parameters.map((p: any) => p.name).sort()).toEqual(['format', 'from', 'ids', 'to']);
    expect(r.body.paths['/v1/categories/{category}/indicators']).toBeTruthy();
  });
});

describe('before any sync', () => {
  it('answers 503 in the envelope with a hint to sync, never a bare 500', async () => {
    const { NodeEngine } = await import('../../src/core/engine/node.js');
    const empty = await NodeEngine.open();
    const bare = await buildServer({ engine: empty, baseUrl: 'http://127.0.0.1:1' });
    await bare.listen({ host: '127.0.0.1', port: 0 });
    try {
      const url = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;
      for (const path of ['/v1/categories', '/v1/series?ids=DGS10', '/v1/find?q=gdp']) {
        const res = await fetch(`${url}${path}`);
        expect(res.status, path).toBe(503);
        const body = await res.json();
        expect(body).toMatchObject({ error: 'service_unavailable', status: 503 });
        expect(body.hint).toMatch(/sync/i);
      }
      const client = new Client({ name: 'indicators-empty', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
      try {
        const r = await client.callTool({ name: 'list_categories', arguments: {} });
        expect(r.isError).toBe(true);
        expect(JSON.parse((r.content as { text: string }[])[0].text)).toMatchObject({ error: 'service_unavailable', status: 503 });
      } finally {
        await client.close();
      }
    } finally {
      await bare.close();
      await empty.close();
    }
  });
});

describe('MCP (Streamable HTTP, SDK client)', () => {
  it('lists the four tools and answers each from the same services', async () => {
    const client = new Client({ name: 'indicators-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    try {
      const tools = (await client.listTools()).tools;
      const names = tools.map((t) => t.name);
      for (const n of ['list_categories', 'list_indicators_in_category', 'find_indicator', 'v2_get_series']) expect(names).toContain(n);
      const menu = tools.find((t) => t.name === 'list_categories')!.description!;
      for (const c of CATEGORY_IDS) expect(menu).toContain(c);

      const text = (r: Awaited<ReturnType<typeof client.callTool>>) => (r.content as { text: string }[])[0].text;
      const cats = JSON.parse(text(await client.callTool({ name: 'list_categories', arguments: {} })));
      expect(cats).toEqual((await get('/v1/categories')).body);

      const listing = JSON.parse(text(await client.callTool({ name: 'list_indicators_in_category', arguments: { category: 'currencies', compact: true } })));
      expect(listing).toEqual((await get('/v1/categories/currencies/indicators?compact=true')).body);
      const bad = await client.callTool({ name: 'list_indicators_in_category', arguments: { category: 'nope' } });
      expect(bad.isError).toBe(true);
      expect(JSON.parse(text(bad)).valid_categories).toEqual([...CATEGORY_IDS]);

      const found = JSON.parse(text(await client.callTool({ name: 'find_indicator', arguments: { query: 'treasury', limit: 3 } })));
      expect(found).toEqual((await get('/v1/find?query=treasury&limit=3')).body);
      const short = await client.callTool({ name: 'find_indicator', arguments: { query: 'x' } });
      expect(short.isError).toBe(true);
      expect(JSON.parse(text(short)).detail[0].type).toBe('string_too_short');

      const tsv = text(await client.callTool({ name: 'v2_get_series', arguments: { ids: 'DGS10,^GSPC,oops', from: '2026-11-02', to: '2026-11-06', format: 'tsv' } }));
      expect(tsv).toBe((await get('/v1/series?ids=DGS10,%5EGSPC,oops&from=2026-11-02&to=2026-11-06&format=tsv')).body);
      expect(tsv.startsWith('# meta: count=5 unknown=[oops] empty=[]\ndate\tDGS10\t^GSPC\n')).toBe(true);
      const json = JSON.parse(text(await client.callTool({ name: 'v2_get_series', arguments: { ids: 'DGS10', from: '2026-11-02' } })));
      expect(json.meta.unknown_ids).toEqual([]);
      const tooMany = await client.callTool({ name: 'v2_get_series', arguments: { ids: 'a,b,c,d,e,f,g,h,i,j,k' } });
      expect(tooMany.isError).toBe(true);
      expect(JSON.parse(text(tooMany)).detail[0].type).toBe('too_long');
    } finally {
      await client.close();
    }
  });
});
