import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildServer } from '../../src/server/app.js';
import { NodeEngine } from '../../src/core/engine/node.js';
import { ENDPOINTS, FLAGS_LIMITS, TABLE_NAMES, FLAGS_TABLES, type Manifest } from '../../src/core/contract/flags.js';
import { isValidIsin } from '../../src/core/contract/isin.js';
import { TINY_SCORECARD_CASES } from '../../src/gen/flags.js';
import { openTinyFlagsStore, type TinyFlagsStore } from '../helpers/flags-store.js';

let store: TinyFlagsStore;
let app: FastifyInstance;
let base: string;
let manifest: Manifest;

beforeAll(async () => {
  store = await openTinyFlagsStore();
  manifest = JSON.parse(await readFile(path.join(store.published, 'manifest.json'), 'utf8'));
  app = await buildServer({ engine: store.engine, baseUrl: 'http://127.0.0.1' });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await app?.close();
  await store?.close();
});

const api = (p: string) => `${base}/flags/v1${p}`;
async function get(p: string): Promise<{ status: number; body: any; type: string }> {
  const res = await fetch(api(p));
  const type = res.headers.get('content-type') ?? '';
  return { status: res.status, type, body: type.includes('json') ? await res.json() : await res.text() };
}

function expectEnvelope(body: any, status: number, error: string) {
  expect(body).toMatchObject({ error, status, help: { catalog: 'http://127.0.0.1/flags/v1/' } });
  expect(typeof body.path).toBe('string');
  expect(typeof body.message).toBe('string');
  expect(typeof body.hint).toBe('string');
  expect(body.help.docs).toMatch(/flags/);
}

describe('GET /flags/v1/ (catalog)', () => {
  it('lists the spec endpoints, the scorecard extensions and the seven tables with their columns', async () => {
    for (const p of ['/', '']) {
      const { status, body } = await get(p);
      expect(status).toBe(200);
      expect(body.endpoints.map((e: { path: string }) => e.path)).toEqual(ENDPOINTS.map((e) => e.path));
      expect(body.endpoints.filter((e: { extension?: boolean }) => e.extension).map((e: { path: string }) => e.path)).toEqual(['/scorecard', '/company/{identifier}/scorecard']);
      expect(body.tables.map((t: { name: string }) => t.name)).toEqual([...TABLE_NAMES]);
      expect(body.tables[0].columns.slice(0, 3).map((c: { name: string }) => c.name)).toEqual(['symbol', 'isin', 'company_name']);
      expect(body.limits).toEqual({ queries_per_minute: 30, downloads_per_minute: 10, max_page_size: 5000 });
    }
  });
});

describe('GET /companies', () => {
  it('is the unique list of companies across all tables, with valid ISINs and where each appears', async () => {
    const { status, body } = await get('/companies');
    expect(status).toBe(200);
    expect(body.count).toBe(40);
    expect(body.companies).toHaveLength(40);
    expect(new Set(body.companies.map((c: { symbol: string }) => c.symbol)).size).toBe(40);
    for (const c of body.companies) expect(isValidIsin(c.isin), c.isin).toBe(true);
    const red = body.companies.find((c: { symbol: string }) => c.symbol === 'REDSTONE');
    expect(red).toEqual({
      symbol: 'REDSTONE',
      isin: TINY_SCORECARD_CASES[0].isin,
      company_name: 'Redstone Infra Projects Limited',
      tables: ['credit_ratings', 'insider_trading', 'pledge_data', 'encumbrance_events', 'surveillance_flags', 'rpt_transactions'],
    });
  });
});

describe('GET /company/{identifier}', () => {
  const red = TINY_SCORECARD_CASES.find((c) => c.symbol === 'REDSTONE')!;

  it('finds a company by symbol or ISIN, case-insensitive, with every table (empty ones too)', async () => {
    const bySymbol = await get('/company/redstone');
    const byIsin = await get(`/company/${red.isin.toLowerCase()}`);
    expect(bySymbol.status).toBe(200);
    expect(byIsin.body.tables).toEqual(bySymbol.body.tables);
    const b = bySymbol.body;
    expect(b).toMatchObject({ identifier: 'redstone', symbol: 'REDSTONE', isin: red.isin, company_name: red.company_name });
    expect(Object.keys(b.tables)).toEqual([...TABLE_NAMES]);
    for (const t of TABLE_NAMES) {
      expect(b.tables[t].row_count, t).toBe((red.rows[t] ?? []).length);
      expect(b.tables[t].data, t).toHaveLength(b.tables[t].row_count);
    }
    expect(b.tables.sast_disclosures).toMatchObject({ row_count: 0, data: [] });
    expect(b.total_rows).toBe(Object.values(red.rows).reduce((n, rows) => n + rows.length, 0));
    // Exact values as written: DECIMAL and dates survive publisher → sync → store → JSON.
    expect(b.tables.rpt_transactions.data.map((r: { amount_cr: number }) => r.amount_cr).sort()).toEqual([100, 150.5, 300, 49.5]);
    expect(b.tables.pledge_data.data.at(-1)).toMatchObject({ quarter_end: '2026-09-30', pledged_pct_of_promoter: 78, pledged_shares: 40_560_000 });
  });

  it('narrows to the tables asked for, in canonical order, and answers TSV in one section per table', async () => {
    const { body } = await get('/company/REDSTONE?tables=surveillance_flags,%20PLEDGE_DATA');
    expect(Object.keys(body.tables)).toEqual(['pledge_data', 'surveillance_flags']);
    const tsv = await get('/company/REDSTONE?tables=pledge_data,surveillance_flags&format=tsv');
    expect(tsv.status).toBe(200);
    expect(tsv.type).toMatch(/^text\/tab-separated-values/);
    const [pledge, surveillance] = (tsv.body as string).trimEnd().split('\n\n');
    const pl = pledge.split('\n');
    expect(pl[0]).toBe('# pledge_data');
    expect(pl[1]).toBe(FLAGS_TABLES.pledge_data.columns.map((c) => c.name).join('\t'));
    expect(pl.slice(2)).toHaveLength(5);
    expect(pl.at(-1)).toBe(`REDSTONE\t${red.isin}\tRedstone Infra Projects Limited\t2026-09-30\t100000000\t52000000\t40560000\t52.00\t78.00\t40.56`);
    expect(surveillance.split('\n')[0]).toBe('# surveillance_flags');
    expect(surveillance.split('\n')).toHaveLength(4);
  });

  it('404s an unknown company with a hint to /companies, a corrupted ISIN saying so, an unknown table naming the valid ones', async () => {
    const unknown = await get('/company/NOSUCHCO');
    expect(unknown.status).toBe(404);
    expectEnvelope(unknown.body, 404, 'not_found');
    expect(unknown.body.hint).toMatch(/\/flags\/v1\/companies/);

    const corrupt = `${red.isin.slice(0, 11)}${(Number(red.isin[11]) + 1) % 10}`;
    const bad = await get(`/company/${corrupt}`);
    expect(bad.status).toBe(404);
    expect(bad.body.message).toMatch(/check digit.*corrupted.*retrying will not help/);

    const wellFormed = await get('/company/INE002A01018');
    expect(wellFormed.status).toBe(404);
    expect(wellFormed.body.message).toMatch(/No company/);

    const table = await get('/company/REDSTONE?tables=pledge_data,ratings');
    expect(table.status).toBe(404);
    expectEnvelope(table.body, 404, 'not_found');
    expect(table.body.message).toMatch(/'ratings'/);
    for (const t of TABLE_NAMES) expect(table.body.hint).toContain(t);

    const fmt = await get('/company/REDSTONE?format=xml');
    expect(fmt.status).toBe(422);
    expectEnvelope(fmt.body, 422, 'unprocessable_entity');
    expect(fmt.body.field).toBe('format');
  });
});

describe('GET /data/{table_name}', () => {
  it('pages with defaults limit 100 offset 0, in a total order with no overlap, up to the manifest count', async () => {
    const first = await get('/data/insider_trading');
    expect(first.status).toBe(200);
    const total = manifest.tables.insider_trading.row_count;
    expect(first.body).toMatchObject({ table: 'insider_trading', total_rows: total, limit: 100, offset: 0, returned: 100, next_offset: 100 });
    expect(first.body.columns).toEqual(FLAGS_TABLES.insider_trading.columns.map((c) => ({ name: c.name, type: c.type })));
    const a = await get('/data/insider_trading?limit=7&offset=10');
    const b = await get('/data/insider_trading?limit=7&offset=17');
    const ab = await get('/data/insider_trading?limit=14&offset=10');
    expect([...a.body.data, ...b.body.data]).toEqual(ab.body.data);
    expect(ab.body.data).toEqual(first.body.data.slice(10, 24));
    const last = await get(`/data/insider_trading?limit=5000&offset=${total - 3}`);
    expect(last.body).toMatchObject({ returned: 3, next_offset: null });
    const past = await get(`/data/insider_trading?offset=${total + 10}`);
    expect(past.body).toMatchObject({ returned: 0, data: [], next_offset: null });
  });

  it('every table in TSV holds exactly the rows the publisher wrote, byte for byte per line', async () => {
    for (const t of TABLE_NAMES) {
      const { status, type, body } = await get(`/data/${t}?format=tsv&limit=${FLAGS_LIMITS.maxPageSize}`);
      expect(status).toBe(200);
      expect(type).toMatch(/^text\/tab-separated-values/);
      const published = gunzipSync(await readFile(path.join(store.published, `${t}.tsv.gz`))).toString('utf8').trimEnd().split('\n');
      const ours = (body as string).trimEnd().split('\n');
      expect(ours[0], t).toBe(published[0]);
      expect(ours.slice(1).sort(), t).toEqual(published.slice(1).sort());
    }
  });

  it('422s a bad limit or offset and 404s an unknown table naming the valid ones', async () => {
    expect((await get('/data/pledge_data?limit=5000')).status).toBe(200);
    for (const q of ['limit=5001', 'limit=0', 'limit=abc', 'limit=-1', 'limit=1.5', 'offset=-1', 'offset=x', 'limit=5&limit=6', 'format=csv', 'page=2']) {
      const { status, body } = await get(`/data/pledge_data?${q}`);
      expect(status, q).toBe(422);
      expectEnvelope(body, 422, 'unprocessable_entity');
      expect(body.field, q).toBe(q.split('=')[0]);
    }
    const big = await get('/data/pledge_data?limit=9999');
    expect(big.body.hint).toMatch(/download/);
    const unknown = await get('/data/ratings');
    expect(unknown.status).toBe(404);
    expectEnvelope(unknown.body, 404, 'not_found');
    for (const t of TABLE_NAMES) expect(unknown.body.hint).toContain(t);
  });
});

describe('GET /tables and /freshness', () => {
  it('/tables gives names, row counts and freshness matching the manifest and the sync', async () => {
    const { status, body } = await get('/tables');
    expect(status).toBe(200);
    expect(body.count).toBe(7);
    expect(body.total_rows).toBe(manifest.total_rows);
    for (const t of body.tables) {
      expect(t.row_count, t.name).toBe(manifest.tables[t.name as (typeof TABLE_NAMES)[number]].row_count);
      expect(t.last_date, t.name).toBe(manifest.tables[t.name as (typeof TABLE_NAMES)[number]].last_date);
      expect(t.date_column).toBe(FLAGS_TABLES[t.name as (typeof TABLE_NAMES)[number]].dateColumn);
      expect(Date.parse(t.last_synced_at)).not.toBeNaN();
    }
  });

  it('/freshness gives the last sync time, the publish time and records per table', async () => {
    const { status, body } = await get('/freshness');
    expect(status).toBe(200);
    expect(body.generated_at).toBe(manifest.generated_at);
    expect(Date.parse(body.last_synced_at)).not.toBeNaN();
    expect(body.total_rows).toBe(manifest.total_rows);
    expect(body.tables.map((t: { table: string; row_count: number }) => [t.table, t.row_count])).toEqual(
      TABLE_NAMES.map((t) => [t, manifest.tables[t].row_count]),
    );
    expect((await get('/freshness?verbose=1')).status).toBe(422);
  });
});

describe('scorecard routes (Almanac extension)', () => {
  it('/company/{identifier}/scorecard gives the hand-computed MERIDTEX figures', async () => {
    const { status, body } = await get('/company/meridtex/scorecard');
    expect(status).toBe(200);
    expect(body).toMatchObject({ identifier: 'meridtex', symbol: 'MERIDTEX', as_of: '2026-11-13', window_months: 12, total_companies: 40, score: 54 });
    expect(body.points).toEqual({ rating: 10, downgrades: 5, outlook: 0, pledge: 10, pledge_trend: 5, invocations: 10, promoter_selling: 5, surveillance: 4, rpt: 5 });
  });

  it('/scorecard ranks all companies, pages, and validates its parameters', async () => {
    const { status, body } = await get('/scorecard');
    expect(status).toBe(200);
    expect(body).toMatchObject({ as_of: '2026-11-13', total: 40, limit: 50, offset: 0 });
    expect(body.companies).toHaveLength(40);
    const red = body.companies.find((c: { symbol: string }) => c.symbol === 'REDSTONE');
    expect(red.score).toBe(127);
    expect(red.rank).toBe(1 + body.companies.filter((c: { score: number }) => c.score > 127).length);
    const page = await get('/scorecard?limit=3&offset=2&as_of=2026-11-13');
    expect(page.body.companies.map((c: { symbol: string }) => c.symbol)).toEqual(body.companies.slice(2, 5).map((c: { symbol: string }) => c.symbol));
    for (const q of ['as_of=2026-02-30', 'as_of=yesterday', 'limit=1001', 'offset=-3']) {
      const bad = await get(`/scorecard?${q}`);
      expect(bad.status, q).toBe(422);
      expectEnvelope(bad.body, 422, 'unprocessable_entity');
    }
    expect((await get('/company/NOSUCHCO/scorecard')).status).toBe(404);
  });
});

describe('everything else', () => {
  it('405 for other methods, 404 for unknown paths, 404 for publisher files, all in the envelope', async () => {
    const post = await fetch(api('/tables'), { method: 'POST' });
    expect(post.status).toBe(405);
    expectEnvelope(await post.json(), 405, 'method_not_allowed');
    const nope = await get('/nope');
    expect(nope.status).toBe(404);
    expectEnvelope(nope.body, 404, 'not_found');
    for (const p of ['/download/credit_ratings?format=csv', '/downloads/manifest']) {
      const r = await get(p);
      expect(r.status, p).toBe(404);
      expect(r.body.hint).toMatch(/\/data\/\{table_name\}/);
    }
  });

  it('answers 503 with a sync hint when no flags data is on the machine', async () => {
    const empty = await NodeEngine.open();
    const bare = await buildServer({ engine: empty, baseUrl: 'http://127.0.0.1' });
    const url = await bare.listen({ host: '127.0.0.1', port: 0 });
    try {
      for (const p of ['/tables', '/companies', '/data/pledge_data', '/company/REDSTONE', '/scorecard']) {
        const res = await fetch(`${url}/flags/v1${p}`);
        expect(res.status, p).toBe(503);
        const body = await res.json();
        expectEnvelope(body, 503, 'service_unavailable');
        expect(body.hint).toMatch(/[Ss]ync/);
      }
    } finally {
      await bare.close();
      await empty.close();
    }
  });
});

describe('MCP tools', () => {
  it('flags_company and flags_scorecard answer through the SDK client', async () => {
    const client = new Client({ name: 'flags-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['flags_company', 'flags_scorecard']));

      const text = (r: Awaited<ReturnType<typeof client.callTool>>) => JSON.parse((r.content as { text: string }[])[0].text);
      const company = await client.callTool({ name: 'flags_company', arguments: { identifier: 'sapphagro', tables: ['pledge_data'] } });
      expect(company.isError).toBeFalsy();
      expect(text(company)).toMatchObject({ symbol: 'SAPPHAGRO', tables: { pledge_data: { row_count: 2 } } });
      expect(Object.keys(text(company).tables)).toEqual(['pledge_data']);

      const one = await client.callTool({ name: 'flags_scorecard', arguments: { identifier: 'REDSTONE' } });
      expect(text(one)).toMatchObject({ symbol: 'REDSTONE', score: 127, as_of: '2026-11-13' });
      const ranked = await client.callTool({ name: 'flags_scorecard', arguments: { limit: 5 } });
      expect(text(ranked).companies).toHaveLength(5);
      expect(text(ranked).total).toBe(40);

      const missing = await client.callTool({ name: 'flags_company', arguments: { identifier: 'NOSUCHCO' } });
      expect(missing.isError).toBe(true);
      expect(text(missing)).toMatchObject({ error: 'not_found', status: 404 });
      expect(text(missing).hint).toMatch(/companies/);
      const badDate = await client.callTool({ name: 'flags_scorecard', arguments: { as_of: '2026-13-01' } });
      expect(badDate.isError).toBe(true);
      expect(text(badDate)).toMatchObject({ status: 422, field: 'as_of' });
    } finally {
      await client.close();
    }
  });
});
