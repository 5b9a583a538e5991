import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildServer } from '../../src/server/app.js';
import { NodeEngine } from '../../src/core/engine/node.js';
import { REFERENCE_DIR, loadUserPrices, referenceCases } from '../core/compare/reference.js';

const dev04 = referenceCases().find((c) => c.id === 'dev-04')!;

describe('compare over HTTP: GET /v1/compare and the MCP tool (local server, DuckDB-WASM, imported prices)', () => {
  let app: FastifyInstance;
  let base: string;
  let engine: NodeEngine;

  beforeAll(async () => {
    engine = await NodeEngine.open();
    await loadUserPrices(engine, path.join(REFERENCE_DIR, dev04.prices_csv));
    app = await buildServer({ engine, baseUrl: 'http://127.0.0.1' });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await app?.close();
    await engine?.close();
  });

  const json = async (query: string) => {
    const r = await fetch(`${base}/v1/compare?${query}`);
    return { status: r.status, body: (await r.json()) as Record<string, any> };
  };
  const q = (extra: Record<string, string>) =>
    new URLSearchParams({ symbols: 'MF_DEBT', benchmark: 'BENCH_IN', start_date: dev04.start_date, end_date: dev04.end_date, ...extra }).toString();

  it('answers in the spec shape with quantstats figures, rounded by default and full on request', async () => {
    const r = await json(q({ symbols: 'MF_DEBT,NOPE' }));
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['success', 'benchmark', 'start_date', 'end_date', 'risk_free_rate', 'symbols']);
    expect(r.body).toMatchObject({ success: true, benchmark: 'BENCH_IN', start_date: '2019-01-01', end_date: '2019-06-30', risk_free_rate: 0 });
    const [ok, bad] = r.body.symbols;
    expect(Object.keys(ok)).toEqual(['symbol', 'success', 'trading_days', 'error', 'all_metrics']);
    expect(ok).toMatchObject({ symbol: 'MF_DEBT', success: true, trading_days: 121, error: null });
    expect(ok.all_metrics).toEqual(dev04.results.MF_DEBT.all_metrics_rounded);
    expect(bad).toMatchObject({ symbol: 'NOPE', success: false, trading_days: 0, all_metrics: {} });
    expect(bad.error).toMatch(/Unknown symbol 'NOPE'/);

    const full = await json(q({ precision: 'full' }));
    const want = dev04.results.MF_DEBT.all_metrics;
    for (const [k, v] of Object.entries(want)) {
      const got = full.body.symbols[0].all_metrics[k];
      if (typeof v === 'number' && v !== 0) expect(Math.abs(got - v) / Math.abs(v), k).toBeLessThanOrEqual(1e-9);
      else expect(got, k).toEqual(v);
    }
  });

  it('risk_free_rate is a decimal: 0.065 reports 6.5', async () => {
    const r = await json(q({ risk_free_rate: '0.065' }));
    expect(r.status).toBe(200);
    expect(r.body.risk_free_rate).toBe(0.065);
    expect(r.body.symbols[0].all_metrics['Risk-Free Rate']).toBe(6.5);
  });

  it('refuses more than 6 symbols, bad dates and a missing benchmark with a hint', async () => {
    const many = await json(q({ symbols: 'A,B,C,D,E,F,G' }));
    expect(many.status).toBe(400);
    expect(many.body).toMatchObject({ success: false, error: 'bad_request', status: 400, message: 'At most 6 symbols per request; got 7.' });
    expect(many.body.hint).toMatch(/batches of 6/);
    const date = await json(q({ start_date: '2019-13-01' }));
    expect(date.status).toBe(400);
    expect(date.body.message).toMatch(/start_date/);
    const spy = await json(new URLSearchParams({ symbols: 'MF_DEBT', start_date: '2019-01-01', end_date: '2019-06-30' }).toString());
    expect(spy.status).toBe(404);
    expect(spy.body).toMatchObject({ error: 'benchmark_not_found', available_benchmarks: ['BENCH_IN', 'MF_DEBT'] });
    expect(spy.body.message).toMatch(/'SPY' is not held locally/);
  });

  it('mcp_compare_securities calls the same function', async () => {
    const client = new Client({ name: 'compare-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain('mcp_compare_securities');
      const res = (await client.callTool({
        name: 'mcp_compare_securities',
        arguments: { symbols: 'MF_DEBT', benchmark: 'BENCH_IN', start_date: '2019-01-01', end_date: '2019-06-30', risk_free_rate: 0 },
      })) as { content: Array<{ text: string }>; isError?: boolean };
      expect(res.isError).toBeFalsy();
      const body = JSON.parse(res.content[0].text);
      expect(body.symbols[0].all_metrics).toEqual(dev04.results.MF_DEBT.all_metrics_rounded);
      const bad = (await client.callTool({
        name: 'mcp_compare_securities',
        arguments: { symbols: 'A,B,C,D,E,F,G', start_date: '2019-01-01', end_date: '2019-06-30' },
      })) as { content: Array<{ text: string }>; isError?: boolean };
      expect(bad.isError).toBe(true);
      expect(JSON.parse(bad.content[0].text)).toMatchObject({ status: 400, error: 'bad_request' });
    } finally {
      await client.close();
    }
  });
});
