import { copyFileSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPublisher, type Publisher } from '../../src/publisher/server.js';
import { buildDataDir } from './fixture.js';

let dataDir: string;
beforeAll(async () => {
  dataDir = await buildDataDir();
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const file = (service: string, name: string): Buffer => readFileSync(path.join(dataDir, service, name));

async function get(pub: Publisher, p: string, headers: Record<string, string> = {}, method = 'GET') {
  const r = await fetch(`${pub.url}${p}`, { method, headers });
  return { status: r.status, headers: r.headers, body: Buffer.from(await r.arrayBuffer()) };
}

/** Raw HTTP, for what fetch hides: how many body bytes arrived before the connection ended. */
function rawGet(pub: Publisher, p: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; received: number; error: string | null }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${pub.url}${p}`, (res) => {
      let received = 0;
      let error: string | null = null;
      res.on('data', (c: Buffer) => (received += c.length));
      res.on('error', (e) => (error = e.message));
      res.on('close', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, received, error: error ?? (res.complete ? null : 'incomplete') }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('publisher: files, validators, ranges', () => {
  let pub: Publisher;
  beforeAll(async () => {
    pub = await startPublisher({ dataDir, limits: 'off' });
  });
  afterAll(() => pub.close());

  it('serves the manifest as JSON with a strong ETag and Last-Modified', async () => {
    const r = await get(pub, '/mf/v1/downloads/manifest');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(r.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(r.headers.get('last-modified')).toBe(new Date(Math.floor(statSync(path.join(dataDir, 'mf', 'manifest.json')).mtimeMs / 1000) * 1000).toUTCString());
    expect(r.headers.get('content-length')).toBe(String(file('mf', 'manifest.json').length));
    expect(Object.keys(JSON.parse(r.body.toString()).files)).toContain('mf_nav_master.parquet');
  });

  it('answers If-None-Match and If-Modified-Since with 304 and no body', async () => {
    const first = await get(pub, '/mf/v1/download?format=parquet');
    const etag = first.headers.get('etag')!;
    const byTag = await get(pub, '/mf/v1/download?format=parquet', { 'If-None-Match': etag });
    expect(byTag.status).toBe(304);
    expect(byTag.body.length).toBe(0);
    expect(byTag.headers.get('etag')).toBe(etag);
    const inList = await get(pub, '/mf/v1/download?format=parquet', { 'If-None-Match': `"other", W/${etag}` });
    expect(inList.status).toBe(304);
    const byDate = await get(pub, '/mf/v1/download?format=parquet', { 'If-Modified-Since': first.headers.get('last-modified')! });
    expect(byDate.status).toBe(304);
    expect(byDate.body.length).toBe(0);
    const older = await get(pub, '/mf/v1/download?format=parquet', { 'If-Modified-Since': 'Mon, 01 Jan 2001 00:00:00 GMT' });
    expect(older.status).toBe(200);
    const otherTag = await get(pub, '/mf/v1/download?format=parquet', { 'If-None-Match': '"nope"', 'If-Modified-Since': first.headers.get('last-modified')! });
    expect(otherTag.status).toBe(200); // If-None-Match decides when present
    expect(otherTag.body.equals(file('mf', 'mf_nav_master.parquet'))).toBe(true);
  });

  it('serves byte ranges (206), refuses unsatisfiable ones (416) and honours If-Range', async () => {
    const whole = file('mf', 'mf_nav_master.csv.gz');
    const r = await get(pub, '/mf/v1/download?format=csv.gz', { Range: 'bytes=100-1099' });
    expect(r.status).toBe(206);
    expect(r.headers.get('content-range')).toBe(`bytes 100-1099/${whole.length}`);
    expect(r.headers.get('content-length')).toBe('1000');
    expect(r.body.equals(whole.subarray(100, 1100))).toBe(true);
    const open = await get(pub, '/mf/v1/download?format=csv.gz', { Range: `bytes=${whole.length - 10}-` });
    expect(open.body.equals(whole.subarray(whole.length - 10))).toBe(true);
    const bad = await get(pub, '/mf/v1/download?format=csv.gz', { Range: `bytes=${whole.length + 5}-` });
    expect(bad.status).toBe(416);
    expect(bad.headers.get('content-range')).toBe(`bytes */${whole.length}`);
    expect(JSON.parse(bad.body.toString()).status).toBe(416);
    const etag = r.headers.get('etag')!;
    const current = await get(pub, '/mf/v1/download?format=csv.gz', { Range: 'bytes=0-9', 'If-Range': etag });
    expect(current.status).toBe(206);
    const stale = await get(pub, '/mf/v1/download?format=csv.gz', { Range: 'bytes=0-9', 'If-Range': '"stale-etag"' });
    expect(stale.status).toBe(200);
    expect(stale.body.equals(whole)).toBe(true);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const r = await get(pub, '/flags/v1/download/credit_ratings?format=csv', {}, 'HEAD');
    expect(r.status).toBe(200);
    expect(r.body.length).toBe(0);
    expect(r.headers.get('content-length')).toBe(String(file('flags', 'credit_ratings.csv.zip').length));
    expect(r.headers.get('content-type')).toBe('application/zip');
    expect(r.headers.get('etag')).toBeTruthy();
    expect(r.headers.get('last-modified')).toBeTruthy();
  });

  it('maps every route to its file with the Content-Type of its format', async () => {
    const cases: [string, string, string, string][] = [
      ['/mf/v1/download', 'mf', 'mf_nav_master.parquet', 'application/octet-stream'],
      ['/mf/v1/download?format=sqlite', 'mf', 'mf_nav_master.db.gz', 'application/gzip'],
      ['/mf/v1/download?format=latest', 'mf', 'mf_nav_master_latest.csv', 'text/csv; charset=utf-8'],
      ['/mf/v1/download?format=latest.parquet', 'mf', 'mf_nav_master_latest.parquet', 'application/octet-stream'],
      ['/mf/v1/download/data_quality?format=json', 'mf', 'data_quality.json', 'application/json'],
      ['/mf/v1/download/data_quality', 'mf', 'data_quality.csv', 'text/csv; charset=utf-8'],
      ['/v1/download/indicator_config?format=csv', 'indicators', 'indicator_config.csv.zip', 'application/zip'],
      ['/v1/download/macro_indicators', 'indicators', 'macro_indicators.parquet', 'application/octet-stream'],
      ['/v1/download/all?format=duckdb', 'indicators', 'indicators_all.duckdb.zip', 'application/zip'],
      ['/flags/v1/download/all?format=sqlite.gz', 'flags', 'flags_all.db.gz', 'application/gzip'],
    ];
    for (const [route, service, name, type] of cases) {
      const r = await get(pub, route);
      expect(r.status, route).toBe(200);
      expect(r.headers.get('content-type'), route).toBe(type);
      expect(r.headers.get('content-length'), route).toBe(String(r.body.length));
      expect(r.body.equals(file(service, name)), route).toBe(true);
    }
  });

  it('gives each service its error envelope for bad formats, tables, paths and methods', async () => {
    const ind = await get(pub, '/v1/download/macro_indicators?format=xlsx');
    expect(ind.status).toBe(422);
    expect(JSON.parse(ind.body.toString())).toEqual({
      detail: [{ loc: ['query', 'format'], msg: expect.stringContaining("'parquet'"), type: 'enum', input: 'xlsx', ctx: { expected: expect.any(String) } }],
    });
    const indTable = JSON.parse((await get(pub, '/v1/download/nope')).body.toString());
    expect(indTable.detail[0].loc).toEqual(['path', 'table_name']);

    const mf = await get(pub, '/mf/v1/download?format=xlsx');
    expect(mf.status).toBe(400);
    const mfBody = JSON.parse(mf.body.toString());
    expect(mfBody).toMatchObject({ error: 'bad_request', status: 400, path: '/mf/v1/download', code: 'invalid_format', field: 'format' });
    expect(mfBody.help).toEqual({ catalog: `${pub.url}/mf/v1/`, docs: `${pub.url}/openapi.json` });
    const mfDataset = await get(pub, '/mf/v1/download/nope');
    expect(mfDataset.status).toBe(404);
    expect(JSON.parse(mfDataset.body.toString())).toMatchObject({ error: 'not_found', status: 404, help: { catalog: `${pub.url}/mf/v1/` } });
    // Listed by the spec but not published in this data dir: 404, not a 5xx.
    expect((await get(pub, '/mf/v1/download?format=tsv.zip')).status).toBe(404);

    const fl = await get(pub, '/flags/v1/download/credit_ratings?format=xml');
    expect(fl.status).toBe(422);
    expect(JSON.parse(fl.body.toString())).toMatchObject({ error: 'unprocessable_entity', status: 422, field: 'format', hint: expect.any(String) });
    const flTable = await get(pub, '/flags/v1/download/nope');
    expect(flTable.status).toBe(404);
    expect(JSON.parse(flTable.body.toString())).toMatchObject({ error: 'not_found', field: 'table_name' });

    const lost = await get(pub, '/v1/nowhere');
    expect(lost.status).toBe(404);
    expect(JSON.parse(lost.body.toString())).toMatchObject({ error: 'not_found', endpoints: expect.arrayContaining(['GET, HEAD /v1/download/all']) });
    const outside = JSON.parse((await get(pub, '/elsewhere')).body.toString());
    expect(Object.keys(outside.endpoints)).toEqual(['indicators', 'mf', 'flags']);
    const post = await get(pub, '/v1/download/all', {}, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('serves the catalogs and the MF terms', async () => {
    const v1 = JSON.parse((await get(pub, '/v1/')).body.toString());
    expect(v1.limits).toEqual({ per_ip_per_minute: 60, per_ip_downloads_per_minute: 10, max_ids_per_series_call: 10, max_rows_per_response: 10000 });
    const counts = Object.fromEntries(v1.categories.map((c: { category: string; count: number }) => [c.category, c.count]));
    expect(counts).toMatchObject({ us_macro: 4, markets: 3, currencies: 0 });
    const mf = JSON.parse((await get(pub, '/mf/v1/')).body.toString());
    expect(mf.schema.latest_snapshot.column_notes.aaum_quarter_end).toBeTruthy();
    expect(mf.limits.downloads_whole_file_per_day).toBe(500);
    const flags = JSON.parse((await get(pub, '/flags/v1/')).body.toString());
    expect(flags.limits.downloads_per_minute).toBe(10);
    const terms = await get(pub, '/mf/v1/terms');
    expect(terms.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(terms.body.toString()).license).toContain('CC0 1.0');
  });

  it('serves a file replaced on disk with its new bytes and a new ETag, without a restart', async () => {
    const before = await get(pub, '/flags/v1/download/credit_ratings?format=parquet');
    const target = path.join(dataDir, 'flags', 'credit_ratings.parquet');
    const tmp = `${target}.tmp-test`;
    writeFileSync(tmp, Buffer.concat([before.body, Buffer.from('changed')]));
    renameSync(tmp, target);
    const after = await get(pub, '/flags/v1/download/credit_ratings?format=parquet');
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    expect(after.body.equals(readFileSync(target))).toBe(true);
    const revalidated = await get(pub, '/flags/v1/download/credit_ratings?format=parquet', { 'If-None-Match': before.headers.get('etag')! });
    expect(revalidated.status).toBe(200);
    // Same bytes rewritten with a new mtime: the ETag is a content hash, so it stays.
    const copy = `${target}.copy`;
    copyFileSync(target, copy);
    utimesSync(copy, new Date('2030-01-01'), new Date('2030-01-01'));
    renameSync(copy, target);
    const same = await get(pub, '/flags/v1/download/credit_ratings?format=parquet');
    expect(same.headers.get('etag')).toBe(after.headers.get('etag'));
    writeFileSync(target, before.body);
  });
});

describe('publisher: rate limits', () => {
  let pub: Publisher;
  beforeAll(async () => {
    pub = await startPublisher({ dataDir, limits: 'spec' });
  });
  afterAll(() => pub.close());
  beforeEach(() => pub.resetLimits());

  it('refuses the 11th indicators download in a minute with 429, Retry-After and the spec body', async () => {
    for (let i = 0; i < 10; i++) expect((await get(pub, '/v1/download/macro_indicators', {}, 'HEAD')).status).toBe(200);
    const r = await get(pub, '/v1/download/macro_indicators');
    expect(r.status).toBe(429);
    const retry = Number(r.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    const body = JSON.parse(r.body.toString());
    expect(Object.keys(body).sort()).toEqual(['detail', 'limit', 'limits_doc', 'retry_after_seconds', 'suggestion']);
    expect(body.retry_after_seconds).toBe(retry);
    expect(body.limits_doc).toBe(`${pub.url}/v1/`);
  });

  it('counts the indicators manifest as a download', async () => {
    for (let i = 0; i < 10; i++) await get(pub, '/v1/downloads/manifest');
    expect((await get(pub, '/v1/downloads/manifest')).status).toBe(429);
  });

  it('limits flags downloads to 10 a minute with its own body', async () => {
    for (let i = 0; i < 10; i++) await get(pub, '/flags/v1/download/credit_ratings?format=csv', {}, 'HEAD');
    const r = await get(pub, '/flags/v1/download/credit_ratings?format=csv');
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBeTruthy();
    expect(JSON.parse(r.body.toString())).toMatchObject({ status: 429, retry_after_seconds: expect.any(Number), hint: expect.stringContaining('bulk') });
  });

  it('sends MF download rate headers and counts whole files and range reads apart', async () => {
    const r = await get(pub, '/mf/v1/download?format=latest', {}, 'HEAD');
    expect(r.headers.get('x-ratelimit-limit')).toBe('60');
    expect(r.headers.get('x-ratelimit-remaining')).toBe('59');
    expect(r.headers.get('x-ratelimit-window')).toBe('60');
    expect(r.headers.get('x-ratelimit-limit-day')).toBe('500');
    expect(r.headers.get('x-ratelimit-remaining-day')).toBe('499');
    expect(r.headers.get('x-ratelimit-window-day')).toBe('86400');
    expect(r.headers.get('x-ratelimit-reset')).toBeNull();
    const ranged = await get(pub, '/mf/v1/download?format=latest', { Range: 'bytes=0-9' });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('x-ratelimit-limit')).toBe('3000');
    expect(ranged.headers.get('x-ratelimit-remaining')).toBe('2999');
    for (let i = 0; i < 59; i++) await get(pub, '/mf/v1/download?format=latest', {}, 'HEAD');
    const refused = await get(pub, '/mf/v1/download?format=latest');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(JSON.parse(refused.body.toString())).toMatchObject({
      error: 'too_many_requests',
      status: 429,
      retry_after_seconds: Number(refused.headers.get('retry-after')),
      help: { catalog: `${pub.url}/mf/v1/` },
      bulk: { full_history: `${pub.url}/mf/v1/download?format=parquet` },
    });
    expect((await get(pub, '/mf/v1/download?format=latest', { Range: 'bytes=0-9' })).status).toBe(206);
  });

  it('sends MF query headers (limit, remaining, reset) on the manifest and catalog', async () => {
    const before = Math.floor(Date.now() / 1000);
    const r = await get(pub, '/mf/v1/downloads/manifest');
    expect(r.headers.get('x-ratelimit-limit')).toBe('300');
    expect(r.headers.get('x-ratelimit-remaining')).toBe('299');
    const reset = Number(r.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThanOrEqual(before + 59);
    expect(reset).toBeLessThanOrEqual(before + 61);
    expect((await get(pub, '/mf/v1/')).headers.get('x-ratelimit-remaining')).toBe('298');
  });

  it('opens a new window when the configured one has passed', async () => {
    let now = 1_000_000;
    const { RateLimiter } = await import('../../src/publisher/limits.js');
    const limiter = new RateLimiter({ minute: 1000, day: 5000 }, () => now);
    for (let i = 0; i < 10; i++) expect(limiter.take('ip', 'flags-downloads').allowed).toBe(true);
    const refused = limiter.take('ip', 'flags-downloads');
    expect(refused.allowed).toBe(false);
    expect(!refused.allowed && refused.retryAfterSeconds).toBe(1);
    now += 1000;
    expect(limiter.take('ip', 'flags-downloads').allowed).toBe(true);
    expect(limiter.take('other-ip', 'flags-downloads').allowed).toBe(true);
  });
});

describe('publisher: faults', () => {
  let pub: Publisher;
  beforeAll(async () => {
    pub = await startPublisher({ dataDir, limits: 'off' });
  });
  afterAll(() => pub.close());
  beforeEach(() => pub.setFaults(''));

  const route = '/mf/v1/download?format=csv.gz';
  const size = (): number => file('mf', 'mf_nav_master.csv.gz').length;

  it('drops the connection after k bytes', async () => {
    pub.setFaults('drop-after=65536');
    const r = await rawGet(pub, route);
    expect(r.status).toBe(200);
    expect(Number(r.headers['content-length'])).toBe(size());
    expect(r.received).toBe(65536);
    expect(r.error).not.toBeNull();
    await expect(get(pub, route)).rejects.toThrow();
  });

  it('sends a body shorter than Content-Length', async () => {
    pub.setFaults('short-body=1000');
    const r = await rawGet(pub, route);
    expect(Number(r.headers['content-length'])).toBe(size());
    expect(r.received).toBe(1000);
    expect(r.error).not.toBeNull();
  });

  it('answers every 3rd request with the injected status', async () => {
    pub.setFaults('status=503@every:3');
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await get(pub, route, {}, 'HEAD')).status);
    expect(statuses).toEqual([200, 200, 503, 200, 200, 503]);
    const manifest = await get(pub, '/mf/v1/downloads/manifest');
    expect(manifest.status).toBe(200); // faults target downloads unless told otherwise
    pub.setFaults('status=500@first:1@target:manifests');
    const failed = await get(pub, '/mf/v1/downloads/manifest');
    expect(failed.status).toBe(500);
    expect(JSON.parse(failed.body.toString())).toMatchObject({ status: 500, help: expect.any(Object) });
    expect((await get(pub, '/mf/v1/downloads/manifest')).status).toBe(200);
  });

  it('changes the ETag mid-download, so a resume with If-Range gets the whole file', async () => {
    pub.setFaults('etag-change-after=1000');
    const first = await get(pub, route);
    expect(first.body.equals(file('mf', 'mf_nav_master.csv.gz'))).toBe(true);
    const etag = first.headers.get('etag')!;
    pub.setFaults('');
    const resumed = await get(pub, route, { Range: 'bytes=2000-', 'If-Range': etag });
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('etag')).not.toBe(etag);
    expect(resumed.body.length).toBe(size());
  });

  it('throttles the body to the given rate', async () => {
    pub.setFaults('throttle=800kbps'); // 100,000 bytes per second
    const started = Date.now();
    const r = await get(pub, route, { Range: 'bytes=0-49999' });
    const elapsed = Date.now() - started;
    expect(r.body.equals(file('mf', 'mf_nav_master.csv.gz').subarray(0, 50000))).toBe(true);
    // A floor, not a speed: at 100,000 B/s in 10,000-byte slices, the last slice is due at 0.4 s.
    expect(elapsed).toBeGreaterThanOrEqual(350);
  });

  it('survives a client that goes away mid-body, and serves the next request', async () => {
    pub.setFaults('throttle=800kbps');
    const controller = new AbortController();
    const r = await fetch(`${pub.url}${route}`, { signal: controller.signal });
    const reader = r.body!.getReader();
    await reader.read();
    controller.abort();
    pub.setFaults('');
    const next = await get(pub, route);
    expect(next.status).toBe(200);
    expect(next.body.equals(file('mf', 'mf_nav_master.csv.gz'))).toBe(true);
  });

  it('refuses a malformed fault spec with a message naming it', async () => {
    expect(() => pub.setFaults('explode=1')).toThrow(/unknown fault 'explode'/);
    expect(() => pub.setFaults('throttle=fast')).toThrow(/rate like 1mbps/);
    expect(() => pub.setFaults('status=503@sometimes')).toThrow(/unknown qualifier/);
  });
});
