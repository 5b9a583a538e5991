/**
 * The publisher's query endpoints (src/publisher/queries.ts), over real HTTP on 127.0.0.1: answered
 * from its published files as Almanac's local server answers the same data synced by the real sync,
 * refreshed when a new generation is published, and limited as the specs publish.
 */
import fs from 'node:fs';
import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { MF_LIMITS } from '../../src/core/contract/mf-params.js';
import { FLAGS_LIMITS as FLAG_LIMITS } from '../../src/core/contract/flags.js';
import { nodeHost, openStore } from '../../src/core/database/node.js';
import type { Store } from '../../src/core/database/store.js';
import { sync } from '../../src/core/sync/sync.js';
import { TINY_CASES } from '../../src/gen/mf.js';
import type { PublishOptions } from '../../src/gen/options.js';
import { asOfDate } from '../../src/gen/timeline.js';
import { startPublisher, type Publisher } from '../../src/publisher/server.js';
import { buildServer } from '../../src/server/app.js';
import { NO_LIMITS, tempDir } from '../core/sync/fixture.js';
import { publishTiny } from '../helpers/tiny-data.js';

const DAY: PublishOptions = { step: 'day' };

let root: string;
let pubDir: string;
/** Limits off: the client's own sync downloads from it. */
let feed: Publisher;
/** Published limits: the one whose query endpoints are tested. */
let pub: Publisher;
let store: Store | null = null;
let local: FastifyInstance | null = null;

/** Syncs the client store from the feed and (re)opens the local server over it. */
async function syncLocal(): Promise<void> {
  await local?.close();
  await store?.close();
  const storeDir = path.join(root, 'store');
  const host = nodeHost(storeDir);
  const summary = await sync({ storage: host.storage, host, source: feed.url, rules: NO_LIMITS });
  expect(summary.errors).toEqual([]);
  store = await openStore(storeDir);
  local = await buildServer({ engine: store.engine, baseUrl: pub.url });
}

/**
 * One connection per request: the local server's DuckDB-WASM blocks this thread, which the publisher
 * shares, so a kept-alive socket can be closed by the server just as the client reuses it.
 */
function fromPublisher(url: string): Promise<{ status: number; body: unknown; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = httpGet(`${pub.url}${url}`, { agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const body = text && res.headers['content-type']?.includes('json') ? JSON.parse(text) : text;
        resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
      });
    });
    req.on('error', reject);
  });
}

async function fromLocal(url: string): Promise<{ status: number; body: unknown }> {
  const r = await local!.inject({ method: 'GET', url });
  return { status: r.statusCode, body: r.headers['content-type']?.toString().includes('json') ? r.json() : r.body };
}

async function same(url: string): Promise<{ status: number; body: unknown }> {
  const [a, b] = await Promise.all([fromPublisher(url), fromLocal(url)]);
  expect({ status: a.status, body: a.body }, url).toEqual(b);
  return b;
}

/** 50 scheme codes: the liquid and overnight ones first, then others, from the local snapshot. */
async function fifty(): Promise<number[]> {
  const weekend = [...TINY_CASES.weekend_nav, ...TINY_CASES.weekend_nav_overnight];
  const rest = await store!.engine.all<{ c: number }>('SELECT scheme_code AS c FROM mf.latest WHERE is_active ORDER BY scheme_code LIMIT 60');
  return [...new Set([...weekend, ...rest.map((r) => Number(r.c))])].slice(0, 50);
}

beforeAll(async () => {
  root = tempDir('pub-queries');
  pubDir = path.join(root, 'pub');
  await publishTiny(pubDir, ['indicators', 'flags']);
  await publishTiny(pubDir, ['mf'], { publishes: [DAY] });
  feed = await startPublisher({ dataDir: pubDir, limits: 'off' });
  pub = await startPublisher({ dataDir: pubDir });
  await syncLocal();
}, 600_000);

afterAll(async () => {
  await local?.close();
  await store?.close();
  await pub?.close();
  await feed?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

describe('query endpoints of the stand-in publisher', () => {
  it('answers a bulk NAV call with since as the local server answers the same synced data', async () => {
    const codes = await fifty();
    expect(codes).toHaveLength(50);
    const friday = asOfDate(1);
    const url = `/mf/v1/nav?schemes=${codes.join(',')}&since=${friday}`;
    const answer = (await same(url)).body as { schemes: Record<string, { count: number; data: { date: string }[] }>; not_found: string[] };
    // A liquid fund carries Friday, the weekend and Monday: more than the snapshot's one new row.
    const weekendCode = String(TINY_CASES.weekend_nav[0]);
    expect(answer.schemes[weekendCode].data.length).toBeGreaterThan(2);
    expect(answer.not_found).toEqual([]);
    // A single scheme, the path form, an unknown id in a batch, and the 51-scheme refusal.
    await same(`/mf/v1/nav?scheme=${codes[0]}`);
    await same(`/mf/v1/schemes/${codes[1]}/nav?since=${friday}`);
    const mixed = (await same(`/mf/v1/nav?schemes=${codes[0]},999999999`)).body as { not_found: string[] };
    expect(mixed.not_found).toEqual(['999999999']);
    const tooMany = await same(`/mf/v1/nav?schemes=${[...codes, 1].join(',')}`);
    expect(tooMany.status).toBe(400);
  }, 600_000);

  it('answers the other services from the same store', async () => {
    await same('/mf/v1/search?q=liquid');
    await same('/v1/categories');
    await same('/v1/find?query=rate');
    expect((await same('/flags/v1/companies')).status).toBe(200);
    // An unknown path under a service keeps the publisher's own 404.
    expect((await fromPublisher('/mf/v1/nowhere')).status).toBe(404);
  });

  it('serves a new generation from the new files once it is published', async () => {
    const codes = await fifty();
    const before = (await fromPublisher(`/mf/v1/nav?schemes=${codes.join(',')}&latest=true`)).body;
    await publishTiny(pubDir, ['mf'], { publishes: [DAY, DAY] });
    await syncLocal();
    const after = (await same(`/mf/v1/nav?schemes=${codes.join(',')}&latest=true`)).body;
    expect(after).not.toEqual(before);
  }, 600_000);

  it('refuses past the published limits with 429, Retry-After and the service envelope', async () => {
    pub.resetLimits();
    const url = `/mf/v1/nav?scheme=${TINY_CASES.weekend_nav[0]}&latest=true`;
    for (let sent = 0; sent < MF_LIMITS.requestsPerMinute; sent += 25) {
      const batch = await Promise.all(Array.from({ length: Math.min(25, MF_LIMITS.requestsPerMinute - sent) }, () => fromPublisher(url)));
      for (const r of batch) expect(r.status).toBe(200);
    }
    const refused = await fromPublisher(url);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(refused.body).toMatchObject({ error: 'too_many_requests', status: 429, retry_after_seconds: expect.any(Number), help: { catalog: `${pub.url}/mf/v1/` } });

    for (let i = 0; i < FLAG_LIMITS.queriesPerMinute; i++) expect((await fromPublisher('/flags/v1/companies')).status).toBe(200);
    const flags = await fromPublisher('/flags/v1/companies');
    expect(flags.status).toBe(429);
    expect(Number(flags.headers['retry-after'])).toBeGreaterThan(0);
  }, 600_000);
});
