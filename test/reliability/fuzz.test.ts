/**
 * Fuzz campaign: generated requests against every local REST endpoint and MCP tool of a server over
 * a store synced from the publisher (all three datasets, tiny). Goals: no status ≥ 500, every error
 * in its service's envelope, SQL injection through any parameter changes nothing (row count and row
 * hash of every table before and after), and the server still healthy at the end.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, NO_LIMITS, tempDir } from '../core/sync/fixture.js';
import { startPublisher } from '../../src/publisher/server.js';
import { sync } from '../../src/core/sync/sync.js';
import { SERVICES } from '../../src/core/sync/datasets.js';
import { nodeHost, openStore } from '../../src/core/database/node.js';
import type { Store } from '../../src/core/database/store.js';
import { buildServer } from '../../src/server/app.js';
import { DOWNLOAD_PARAMS, NAV_PARAMS, SEARCH_PARAMS } from '../../src/core/contract/mf-params.js';
import { ENDPOINTS as FLAG_ENDPOINTS, TABLE_NAMES as FLAG_TABLES } from '../../src/core/contract/flags.js';
import { CATEGORY_IDS, TABLE_NAMES as IND_TABLES } from '../../src/core/contract/indicators.js';
import { LONG, writeFigures } from './figures.js';

const TARGET = LONG ? 100_000 : 10_000;
/**
 * Wall-clock bound of the request loop, against a runaway only: 10,000 requests took 30 s on an idle
 * machine and 9,200 fitted in the old 120 s at load 11, so the run now has room for all of TARGET.
 */
const BUDGET_MS = LONG ? 1_800_000 : 600_000;
const CONCURRENCY = 8;

const INJECTIONS = [
  "'; DROP TABLE flags.credit_ratings; --", "1 OR 1=1", "' OR '1'='1", '" OR ""="', "'); DELETE FROM mf.nav; --",
  "1; ATTACH '/tmp/almanac-pwn.db' AS pwn; --", "x' UNION SELECT table_name FROM information_schema.tables --",
  "'; COPY (SELECT 1) TO '/tmp/almanac-pwn.csv'; --", "1)) OR ((1=1", "%27%20OR%201%3D1", "\\'; DROP TABLE indicators.stock_prices; --",
  "'||(SELECT version())||'", "1; CREATE TABLE main.pwn AS SELECT 1; --", "ids\u0000'; --", "*/ DROP TABLE mf.latest; /*", "${7*7}", "{{7*7}}",
  "../../../../etc/passwd", "..%2f..%2fetc%2fpasswd", "'; INSTALL httpfs; LOAD httpfs; --", "'; PRAGMA database_list; --",
];

/** URL-encodes any generated string; a lone surrogate (which encodeURIComponent refuses) becomes U+FFFD. */
const enc = (s: string) => encodeURIComponent(Buffer.from(s, 'utf8').toString('utf8'));

/** Per service: its path prefix, error envelope and the parameter names it knows. */
type Family = 'indicators' | 'mf' | 'flags' | 'compare' | 'other';

function familyOf(p: string): Family {
  if (p.startsWith('/v1/compare')) return 'compare';
  if (p.startsWith('/mf/v1')) return 'mf';
  if (p.startsWith('/flags/v1')) return 'flags';
  if (/^\/(v1|v2|legacy\/v1)(\/|\?|$)/.test(p) || p.startsWith('/openapi.json')) return 'indicators';
  return 'other';
}

const str = (v: unknown) => typeof v === 'string';
/** Whether `body` is the error envelope `family` promises for `status`. */
function isEnvelope(family: Family, status: number, body: any): boolean {
  if (!body || typeof body !== 'object') return false;
  const house = str(body.error) && body.status === status && str(body.path) && str(body.message) && body.help && str(body.help.catalog);
  switch (family) {
    case 'indicators':
      return status === 422 ? Array.isArray(body.detail) && body.detail.every((d: any) => Array.isArray(d.loc) && str(d.msg) && str(d.type)) : house;
    case 'mf':
      return house;
    case 'flags':
      return house && str(body.hint);
    case 'compare':
      return body.success === false && str(body.error) && body.status === status && str(body.message) && str(body.hint);
    case 'other':
      return str(body.message) || str(body.error);
  }
}

describe('fuzz campaign: REST and MCP with generated inputs', { timeout: BUDGET_MS + 900_000 }, () => {
  let store: Store;
  let app: FastifyInstance;
  let base: string;
  let samples: { scheme: string[]; isin: string[]; symbol: string[]; ids: string[]; tickers: string[] };
  const frameworkKinds = new Set<string>();
  const tally = { requests: 0, rest: 0, mcp: 0, 'status >= 500': 0, 'non-envelope errors': 0, 'framework 4xx outside a service envelope': 0, 'sql injection requests': 0, 'tables changed': 0, 'files written by injection': 0 };
  const byStatus: Record<string, number> = {};
  const problems: string[] = [];

  async function tableSums(): Promise<Record<string, string>> {
    // Schemas too: the in-memory catalog holds the kept changes' tables under `almanac`.
    const tables = await store.engine.all<{ c: string; s: string; t: string }>(
      "SELECT table_catalog AS c, table_schema AS s, table_name AS t FROM information_schema.tables WHERE table_catalog IN ('indicators','mf','flags','user','memory') ORDER BY 1, 2, 3",
    );
    const out: Record<string, string> = {};
    for (const { c, s, t } of tables) {
      const [r] = await store.engine.all<{ n: number; h: string }>(`SELECT count(*) AS n, coalesce(sum(hash(x)), 0)::VARCHAR AS h FROM "${c}"."${s}"."${t}" x`);
      out[`${c}.${s}.${t}`] = `${r.n}:${r.h}`;
    }
    return out;
  }

  beforeAll(async () => {
    const root = tempDir('fuzz');
    await generate(path.join(root, 'pub'), SERVICES);
    const pub = await startPublisher({ dataDir: path.join(root, 'pub'), limits: 'off' });
    try {
      const host = nodeHost(path.join(root, 'store'));
      const s = await sync({ storage: host.storage, host, source: pub.url, rules: NO_LIMITS });
      expect(s.errors).toEqual([]);
    } finally {
      await pub.close();
    }
    store = await openStore(path.join(root, 'store'));
    app = await buildServer({ engine: store.engine, baseUrl: 'http://127.0.0.1' });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    const col = async (sql: string) => (await store.engine.all<{ v: unknown }>(sql)).map((r) => String(r.v));
    samples = {
      scheme: await col('SELECT scheme_code AS v FROM mf.latest ORDER BY scheme_code LIMIT 8'),
      isin: await col('SELECT isin AS v FROM mf.latest WHERE isin IS NOT NULL ORDER BY isin LIMIT 4'),
      symbol: await col('SELECT DISTINCT symbol AS v FROM flags.credit_ratings ORDER BY 1 LIMIT 8'),
      ids: await col('SELECT indicator_id AS v FROM indicators.indicator_config ORDER BY 1 LIMIT 12'),
      tickers: await col('SELECT DISTINCT symbol AS v FROM indicators.stock_prices ORDER BY 1 LIMIT 6'),
    };
  }, 900_000);

  afterAll(async () => {
    await app?.close();
    await store?.close();
  });

  it(`${TARGET} generated requests: no 5xx, every error in its envelope, injections change nothing`, async () => {
    const s = samples;
    const date = fc.oneof(
      fc.date({ min: new Date('1900-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
      fc.constantFrom('2024-02-30', '2024-13-01', '0000-00-00', '2024-1-1', '20240101', '9999-12-31', '-2024-01-01', 'today', '2024-01-01T00:00:00Z'),
    );
    const num = fc.oneof(fc.integer().map(String), fc.constantFrom('0', '-1', '1e9', '1.5', 'NaN', 'Infinity', '9'.repeat(40), '0x10', ' 5', '5 '), fc.double().map(String));
    const known = fc.constantFrom(...s.scheme, ...s.isin, ...s.symbol, ...s.ids, ...s.tickers, ...CATEGORY_IDS, ...FLAG_TABLES, ...IND_TABLES, 'json', 'tsv', 'csv', 'true', 'false', 'all', 'latest', 'parquet', 'SPY');
    const list = fc.array(fc.oneof(known, fc.string({ maxLength: 12 })), { minLength: 0, maxLength: 14 }).map((a) => a.join(','));
    const inject = fc.constantFrom(...INJECTIONS);
    const value = fc.oneof(
      { weight: 4, arbitrary: known },
      { weight: 2, arbitrary: date },
      { weight: 2, arbitrary: num },
      { weight: 2, arbitrary: list },
      { weight: 3, arbitrary: inject },
      { weight: 2, arbitrary: fc.string({ maxLength: 30, unit: 'binary' }) },
      { weight: 1, arbitrary: fc.constantFrom('', ' ', '%', '%zz', 'a'.repeat(5000), '\u0000', '\ud800', '😀'.repeat(50), '[]', '{}', 'null') },
    );
    const flagParams = [...new Set(FLAG_ENDPOINTS.flatMap((e) => e.parameters.filter((p) => p.in === 'query').map((p) => p.name)))];
    const mfParams = [...new Set([...SEARCH_PARAMS, ...NAV_PARAMS, ...DOWNLOAD_PARAMS].flatMap((p) => [p.name, ...p.aliases]))];
    const names: Record<Exclude<Family, 'other'>, string[]> = {
      indicators: ['query', 'q', 'limit', 'ids', 'from', 'to', 'format', 'compact'],
      mf: mfParams,
      flags: flagParams,
      compare: ['symbols', 'start_date', 'end_date', 'benchmark', 'risk_free_rate'],
    };
    const seg = fc.oneof(known, inject.map(encodeURIComponent), fc.string({ minLength: 1, maxLength: 20, unit: 'binary' }).map((x) => enc(x)), fc.constantFrom('..', '%2e%2e', '%2F', '%00', '~', 'x'.repeat(300)));
    const paths: [Family, fc.Arbitrary<string>][] = [
      ['indicators', fc.constantFrom('/v1/', '/v1', '/v1/categories', '/v1/find', '/v1/series', '/v1/downloads/manifest', '/v1/download/all', '/v2/series', '/v2/find', '/legacy/v1/', '/openapi.json')],
      ['indicators', seg.map((x) => `/v1/categories/${x}/indicators`)],
      ['indicators', seg.map((x) => `/v1/download/${x}`)],
      ['indicators', seg.map((x) => `/legacy/v1/${x}`)],
      ['mf', fc.constantFrom('/mf/v1/', '/mf/v1', '/mf/v1/terms', '/mf/v1/search', '/mf/v1/nav', '/mf/v1/download', '/mf/v1/nav-history', '/mf/v1/series')],
      ['mf', seg.map((x) => `/mf/v1/schemes/${x}/nav`)],
      ['mf', seg.map((x) => `/mf/v1/${x}`)],
      ['flags', fc.constantFrom('/flags/v1/', '/flags/v1', '/flags/v1/companies', '/flags/v1/tables', '/flags/v1/freshness', '/flags/v1/scorecard', '/flags/v1/downloads/manifest')],
      ['flags', seg.map((x) => `/flags/v1/company/${x}`)],
      ['flags', seg.map((x) => `/flags/v1/company/${x}/scorecard`)],
      ['flags', seg.map((x) => `/flags/v1/data/${x}`)],
      ['flags', seg.map((x) => `/flags/v1/download/${x}`)],
      ['compare', fc.constant('/v1/compare')],
      ['indicators', seg.map((x) => `/v1/${x}`)],
    ];
    const rest = fc
      .tuple(
        fc.oneof(...paths.map(([fam, p]) => p.map((pp) => ({ fam, p: pp })))),
        fc.array(fc.tuple(fc.nat(), fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }), value), { maxLength: 6 }),
        fc.oneof({ weight: 20, arbitrary: fc.constant('GET') }, { weight: 1, arbitrary: fc.constantFrom('HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS') }),
      )
      .map(([{ fam, p }, params, method]) => {
        const known = fam === 'other' ? [] : names[fam as Exclude<Family, 'other'>];
        const q = params
          .map(([i, useKnown, v]) => `${encodeURIComponent(useKnown && known.length ? known[i % known.length] : `p${i % 7}`)}=${enc(v)}`)
          .join('&');
        return { kind: 'rest' as const, method, url: q ? `${p}?${q}` : p, injected: params.some(([, , v]) => INJECTIONS.includes(v)) };
      });
    const tools: Record<string, string[]> = {
      mf_search: ['q', 'limit', 'offset', 'amc', 'category', 'plan', 'active'],
      mf_nav: ['scheme', 'schemes', 'since', 'to', 'latest'],
      flags_company: ['identifier', 'tables'],
      flags_scorecard: ['identifier', 'limit', 'offset', 'as_of'],
      list_categories: [],
      list_indicators_in_category: ['category', 'compact'],
      find_indicator: ['query', 'limit'],
      v2_get_series: ['ids', 'from', 'to', 'format'],
      mcp_compare_securities: ['symbols', 'benchmark', 'start_date', 'end_date', 'risk_free_rate'],
    };
    const argValue = fc.oneof(
      { weight: 6, arbitrary: value },
      { weight: 1, arbitrary: fc.integer() },
      { weight: 1, arbitrary: fc.boolean() },
      { weight: 1, arbitrary: fc.array(value, { maxLength: 60 }) },
      { weight: 1, arbitrary: fc.constantFrom(null, {}, 1.5, -1, 1e300) },
    );
    const mcp = fc
      .tuple(fc.constantFrom(...Object.keys(tools)), fc.array(fc.tuple(fc.nat(), argValue), { maxLength: 6 }), fc.nat(20))
      .map(([tool, args, garbage]) => {
        const names = tools[tool];
        const a = Object.fromEntries(args.map(([i, v]) => [names.length ? names[i % names.length] : `x${i % 3}`, v]));
        const body =
          garbage === 0
            ? '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":'
            : garbage === 1
              ? JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'no/such/method' })
              : JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: garbage === 2 ? 'no_such_tool' : tool, arguments: a } });
        return { kind: 'mcp' as const, method: 'POST', url: '/mcp', body, tool, injected: Object.values(a).some((v) => INJECTIONS.includes(v as string)) };
      });
    const request = fc.oneof({ weight: 4, arbitrary: rest }, { weight: 1, arbitrary: mcp });

    const before = await tableSums();
    const started = Date.now();
    let seed = 20261123;
    const one = async (r: fc.Arbitrary<unknown> extends never ? never : any) => {
      tally.requests++;
      tally[r.kind === 'mcp' ? 'mcp' : 'rest']++;
      if (r.injected) tally['sql injection requests']++;
      const res = await fetch(`${base}${r.url}`, {
        method: r.method,
        headers: r.kind === 'mcp' ? { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } : {},
        body: r.kind === 'mcp' ? r.body : undefined,
      });
      const text = await res.text();
      byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
      const where = `${r.method} ${r.url.slice(0, 200)}${r.kind === 'mcp' ? ` ${r.body.slice(0, 300)}` : ''}`;
      if (res.status >= 500) {
        tally['status >= 500']++;
        if (problems.length < 20) problems.push(`${res.status} ${where}: ${text.slice(0, 300)}`);
        return;
      }
      if (r.kind === 'mcp') {
        const fam = r.tool.startsWith('mf_') ? 'mf' : r.tool.startsWith('flags_') ? 'flags' : r.tool.startsWith('mcp_compare') ? 'compare' : 'indicators';
        let msg: any;
        try {
          msg = JSON.parse(text);
        } catch {
          msg = null;
        }
        const result = msg?.result;
        if (result?.isError) {
          let inner: any = null;
          try {
            inner = JSON.parse(result.content?.[0]?.text ?? '');
          } catch {
            // zod rejected the arguments: the SDK's own text, not a service envelope
          }
          const ok = inner === null ? /MCP error|validation|Invalid|expected/i.test(result.content?.[0]?.text ?? '') : isEnvelope(fam, inner.status ?? 422, inner);
          if (!ok) {
            tally['non-envelope errors']++;
            if (problems.length < 20) problems.push(`MCP envelope ${where}: ${text.slice(0, 300)}`);
          }
        } else if (!result && !msg?.error) {
          tally['non-envelope errors']++;
          if (problems.length < 20) problems.push(`MCP neither result nor error ${res.status} ${where}: ${text.slice(0, 200)}`);
        }
        return;
      }
      if (res.status >= 400 && r.method !== 'HEAD') {
        let body: any = null;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: counted below
        }
        // The path the server saw: fetch resolves dot segments before sending.
        const served = new URL(r.url, base).pathname;
        const fam = familyOf(served);
        const ok = isEnvelope(fam, res.status, body);
        if (!ok && typeof body?.code === 'string' && body.code.startsWith('FST_')) {
          // Refused by Fastify's router before any service saw it (e.g. a path segment over 100 characters).
          tally['framework 4xx outside a service envelope']++;
          frameworkKinds.add(`${res.status} ${body.code}`);
        } else if (!ok) {
          tally['non-envelope errors']++;
          if (problems.length < 20) problems.push(`envelope ${res.status} ${where}: ${text.slice(0, 300)}`);
        }
      }
    };
    while (tally.requests < TARGET && Date.now() - started < BUDGET_MS) {
      const batch = fc.sample(request, { numRuns: Math.min(400, TARGET - tally.requests), seed: seed++ });
      for (let i = 0; i < batch.length; i += CONCURRENCY) await Promise.all(batch.slice(i, i + CONCURRENCY).map(one));
    }
    const elapsed = Date.now() - started;

    const after = await tableSums();
    const changed = Object.keys({ ...before, ...after }).filter((k) => before[k] !== after[k]);
    tally['tables changed'] = changed.length;
    const pwn = fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('almanac-pwn'));
    tally['files written by injection'] = pwn.length;
    // Healthy afterwards: the catalogs and a real query still answer.
    const health = await Promise.all(['/v1/', '/mf/v1/', '/flags/v1/', `/mf/v1/nav?scheme=${s.scheme[0]}`, '/flags/v1/tables'].map(async (p) => (await fetch(`${base}${p}`)).status));

    writeFigures({
      campaign: 'fuzz',
      title: 'Fuzz: local REST endpoints and MCP tools',
      checks: [
        `${tally.requests} generated requests (fast-check, fixed seeds, ${CONCURRENCY} in flight) in ${Math.round(elapsed / 1000)} s against a server over a store synced from the publisher (tiny; indicators, mf, flags; compare over them).`,
        'Paths: every endpoint of the three services and compare, plus generated path segments; parameters: the contracts\' names and unknown ones, with valid values, dates, numbers, lists, binary strings and SQL injection strings; methods: mostly GET, some HEAD/POST/PUT/DELETE/PATCH/OPTIONS. MCP: every tool with generated arguments, unknown tools and methods, broken JSON.',
        'Checks: no status ≥ 500; every 4xx in its service\'s envelope (indicators 422 `detail` / 4xx `{error,status,path,message,help}`, MF `{error,status,path,message,help}`, flags the same plus `hint`, compare `{success:false,error,status,message,hint}`); row count and row hash of every table identical before and after; no file written by an injection; catalogs and a NAV query answer 200 afterwards.',
        ...(frameworkKinds.size ? [`Framework refusals outside any service envelope (a gap of src/server/app.ts, reported, not a service answer): ${[...frameworkKinds].join(', ')}.`] : []),
        `Statuses seen: ${Object.entries(byStatus).map(([k, v]) => `${k}: ${v}`).join(', ')}.`,
        ...(problems.length ? [`First problems: ${problems.slice(0, 5).map((p) => `\`${p.replaceAll('|', '/').replaceAll('`', "'").slice(0, 240)}\``).join('; ')}`] : []),
      ],
      counts: { ...tally, 'seconds': Math.round(elapsed / 1000) },
    });

    expect(problems).toEqual([]);
    expect(tally['status >= 500']).toBe(0);
    expect(tally['non-envelope errors']).toBe(0);
    expect([...frameworkKinds]).toEqual([]);
    expect(changed).toEqual([]);
    expect(pwn).toEqual([]);
    expect(health).toEqual([200, 200, 200, 200, 200]);
    // Issue #12 asks for at least TARGET requests per run; stopping at the budget is a failed run.
    expect(tally.requests).toBeGreaterThanOrEqual(TARGET);
  });
});
