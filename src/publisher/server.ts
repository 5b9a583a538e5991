/**
 * The stand-in publisher: serves what `npm run gen` wrote (DIR/<service>/manifest.json and the files
 * it lists) on the three services' download routes, with the specs' validators, ranges, limits and
 * error envelopes, plus injectable faults; and answers their query endpoints from those files
 * (src/publisher/queries.ts) under the published request limits. node:http rather than a framework:
 * faults need the socket.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SERVICE_BASE, resolveDownload, type Service } from '../core/contract/files.js';
import { flagsCatalog, indicatorsCatalog, mfCatalog, mfTerms } from './catalogs.js';
import * as env from './envelopes.js';
import { FaultState, parseFaults, type Fault, type FaultPlan } from './faults.js';
import { RateLimiter, SPEC_WINDOWS, type BucketName, type Decision, type WindowMs } from './limits.js';
import { isQueryPath, QueryStore } from './queries.js';
import { HashCache, openFile, planResponse, validatorHeaders, writeBody, type OpenedFile } from './send-file.js';

export interface PublisherOptions {
  dataDir: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** A fault spec string (docs/publisher.md) or parsed faults. */
  faults?: string | Fault[];
  /** 'spec' (default) enforces the published limits; 'off' disables them; an object shortens the windows. */
  limits?: 'spec' | 'off' | Partial<WindowMs>;
}

export interface Publisher {
  url: string;
  port: number;
  close(): Promise<void>;
  /** Replaces the active faults (tests set them per case; there is no HTTP admin route). */
  setFaults(spec: string | Fault[]): void;
  resetLimits(): void;
}

type Json = Record<string, unknown> | object;

export async function startPublisher(opts: PublisherOptions): Promise<Publisher> {
  const faults = new FaultState(toFaults(opts.faults ?? []));
  const limitsOn = opts.limits !== 'off';
  const limiter = new RateLimiter(typeof opts.limits === 'object' ? { ...SPEC_WINDOWS, ...opts.limits } : SPEC_WINDOWS);
  const hashes = new HashCache();
  const dataDir = path.resolve(opts.dataDir);
  let baseUrl = '';
  const queries = new QueryStore(dataDir, () => baseUrl);

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      // Nothing a client sends reaches here; this is the server's own failure, logged and answered plainly.
      console.error('publisher:', e);
      if (!res.headersSent) sendJson(req, res, 500, { error: 'internal_server_error', status: 500, message: 'The publisher failed to answer.' });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://publisher.invalid');
    const p = url.pathname;
    const query = [...url.searchParams.entries()];
    const service = serviceOf(p);
    if (!service) return sendJson(req, res, 404, env.notFoundAnywhere(p));
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return sendJson(req, res, 405, env.errorFor(service, baseUrl, 405, p, `Method ${req.method} is not allowed; use GET or HEAD.`));
    }
    const b = SERVICE_BASE[service];
    const rest = p === b ? '/' : p.slice(b.length);
    const serviceDir = path.join(dataDir, service);

    if (rest === '/') return catalog(req, res, service, serviceDir, p);
    if (rest === '/terms' && service === 'mf') {
      if (!admit(req, res, service, 'mf-requests', p)) return;
      return sendJson(req, res, 200, mfTerms());
    }
    if (rest === '/downloads/manifest') {
      if (!admit(req, res, service, service === 'indicators' ? 'indicators-downloads' : QUERY_BUCKET[service], p)) return;
      return serveFile(req, res, service, path.join(serviceDir, 'manifest.json'), 'application/json', 'manifests', p);
    }
    if (isQueryPath(service, rest)) {
      if (!admit(req, res, service, QUERY_BUCKET[service], p)) return;
      return answerQuery(req, res, service, p);
    }
    const tail = rest === '/download' ? '' : rest.startsWith('/download/') ? rest.slice('/download/'.length) : null;
    if (tail === null || (tail === '' && service !== 'mf')) return sendJson(req, res, 404, env.notFound(service, baseUrl, p));
    return download(req, res, service, serviceDir, tail, query, p);
  }

  async function catalog(req: IncomingMessage, res: ServerResponse, service: Service, serviceDir: string, p: string): Promise<void> {
    if (!admit(req, res, service, QUERY_BUCKET[service], p)) return;
    if (service === 'mf') return sendJson(req, res, 200, mfCatalog(baseUrl));
    if (service === 'flags') return sendJson(req, res, 200, flagsCatalog());
    try {
      return sendJson(req, res, 200, await indicatorsCatalog(baseUrl, path.join(serviceDir, 'indicator_config.parquet')));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      return unavailable(req, res, service, p);
    }
  }

  /** A query endpoint, answered from the published files (src/publisher/queries.ts). */
  async function answerQuery(req: IncomingMessage, res: ServerResponse, service: Service, p: string): Promise<void> {
    let a;
    try {
      a = await queries.answer(req.method as 'GET' | 'HEAD', req.url ?? p, req.headers);
    } catch (e) {
      console.error('publisher: query store:', e);
      res.setHeader('Retry-After', '60');
      return sendJson(req, res, 503, env.errorFor(service, baseUrl, 503, p, 'The query endpoints could not be built from the published files; retry later.'));
    }
    res.setHeaders(new Map(Object.entries(a.headers)));
    res.setHeader('Content-Length', String(a.body.length));
    res.writeHead(a.status);
    res.end(req.method === 'HEAD' ? undefined : a.body);
  }

  async function download(
    req: IncomingMessage,
    res: ServerResponse,
    service: Service,
    serviceDir: string,
    tail: string,
    query: [string, string][],
    p: string,
  ): Promise<void> {
    const published = await publishedFiles(serviceDir);
    if (!published) return unavailable(req, res, service, p);
    const r = resolveDownload(service, tail, query, published);
    if ('error' in r) return sendJson(req, res, r.error.status, env.downloadError(service, baseUrl, p, r.error));
    return serveFile(req, res, service, path.join(serviceDir, r.file), r.contentType, 'downloads', p, r.file);
  }

  /** The manifest's file names: the only names a download may resolve to. */
  async function publishedFiles(serviceDir: string): Promise<string[] | null> {
    try {
      const m = JSON.parse(await readFile(path.join(serviceDir, 'manifest.json'), 'utf8')) as { files?: Record<string, unknown> };
      return Object.keys(m.files ?? {});
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  async function serveFile(
    req: IncomingMessage,
    res: ServerResponse,
    service: Service,
    filePath: string,
    contentType: string,
    target: 'downloads' | 'manifests',
    p: string,
    downloadName?: string,
  ): Promise<void> {
    const plan: FaultPlan = faults.plan(target);
    if (plan.status !== undefined) {
      if (plan.status === 503) res.setHeader('Retry-After', '1');
      return sendJson(req, res, plan.status, env.errorFor(service, baseUrl, plan.status, p, 'Injected fault (stand-in publisher).'));
    }
    const file = await openFile(filePath, hashes, faults.etagSalt);
    if (!file) {
      if (target === 'manifests') return unavailable(req, res, service, p);
      return sendJson(req, res, 404, env.errorFor(service, baseUrl, 404, p, `${path.basename(filePath)} is listed but not on disk; the publisher is mid-generation, retry shortly.`));
    }
    try {
      const answer = planResponse(req, file);
      if (target === 'downloads') {
        // MF counts range reads (206) and whole-file downloads (200, 304, HEAD) separately.
        const bucket: BucketName =
          service === 'indicators' ? 'indicators-downloads' : service === 'flags' ? 'flags-downloads' : answer.status === 206 ? 'mf-range' : 'mf-whole';
        if (!admit(req, res, service, bucket, p)) return;
      }
      res.setHeaders(new Map(Object.entries(validatorHeaders(file))));
      if (answer.status === 304) {
        res.writeHead(304);
        res.end();
        return;
      }
      if (answer.status === 416) {
        res.setHeader('Content-Range', `bytes */${file.size}`);
        return sendJson(req, res, 416, env.errorFor(service, baseUrl, 416, p, `Range not satisfiable; the file has ${file.size} bytes.`));
      }
      const [start, end] = answer.status === 206 ? [answer.start, answer.end] : [0, file.size - 1];
      res.setHeader('Content-Type', contentType);
      res.setHeader('Content-Length', String(Math.max(0, end - start + 1)));
      if (answer.status === 206) res.setHeader('Content-Range', `bytes ${start}-${end}/${file.size}`);
      if (downloadName) res.setHeader('Content-Disposition', `attachment; filename="${downloadName}"`);
      if (plan.shortBody !== undefined) res.setHeader('Connection', 'close');
      res.writeHead(answer.status);
      if (req.method === 'HEAD' || file.size === 0) {
        res.end();
        return;
      }
      await writeBody(res, file, start, end, plan, () => faults.etagSalt++);
    } finally {
      await closeQuietly(file);
    }
  }

  /** Applies the bucket's limit; on refusal answers 429 and returns false. */
  function admit(req: IncomingMessage, res: ServerResponse, service: Service, bucket: BucketName, p: string): boolean {
    if (!limitsOn) return true;
    const ip = req.socket.remoteAddress ?? 'unknown';
    const d: Decision = limiter.take(ip, bucket);
    if (bucket === 'mf-whole' || bucket === 'mf-range') res.setHeaders(new Map(Object.entries(mfDownloadHeaders(d))));
    if (bucket === 'mf-requests') res.setHeaders(new Map(Object.entries(mfQueryHeaders(d))));
    if (d.allowed) return true;
    res.setHeader('Retry-After', String(d.retryAfterSeconds));
    const kind = bucket.endsWith('requests') || bucket.endsWith('queries') ? 'requests' : 'downloads';
    const limit = `${d.exceeded.limit} ${kind} per ${d.exceeded.period} per IP`;
    sendJson(req, res, 429, env.rateLimited(service, baseUrl, p, kind, d.retryAfterSeconds, limit));
    return false;
  }

  function unavailable(req: IncomingMessage, res: ServerResponse, service: Service, p: string): void {
    res.setHeader('Retry-After', '60');
    sendJson(req, res, 503, env.errorFor(service, baseUrl, 503, p, `Nothing is published for ${service} yet (run \`npm run gen\` into the data directory).`));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    url: baseUrl,
    port,
    setFaults: (spec) => faults.set(toFaults(spec)),
    resetLimits: () => limiter.reset(),
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      });
      await queries.close();
    },
  };
}

/** Each service's query bucket (catalog and query endpoints; MF's and flags' manifests too). */
const QUERY_BUCKET: Readonly<Record<Service, BucketName>> = { indicators: 'indicators-requests', mf: 'mf-requests', flags: 'flags-queries' };

function toFaults(spec: string | Fault[]): Fault[] {
  return typeof spec === 'string' ? parseFaults(spec) : spec;
}

function serviceOf(p: string): Service | null {
  if (p === '/v1' || p.startsWith('/v1/')) return 'indicators';
  if (p === '/mf/v1' || p.startsWith('/mf/v1/')) return 'mf';
  if (p === '/flags/v1' || p.startsWith('/flags/v1/')) return 'flags';
  return null;
}

/** MF's download headers: per-minute and per-day windows, no -Reset (spec, Limits). */
function mfDownloadHeaders(d: Decision): Record<string, string> {
  const minute = d.windows.find((w) => w.period === 'minute')!;
  const day = d.windows.find((w) => w.period === 'day')!;
  return {
    'X-RateLimit-Limit': String(minute.limit),
    'X-RateLimit-Remaining': String(minute.remaining),
    'X-RateLimit-Window': String(minute.windowSeconds),
    'X-RateLimit-Limit-Day': String(day.limit),
    'X-RateLimit-Remaining-Day': String(day.remaining),
    'X-RateLimit-Window-Day': String(day.windowSeconds),
  };
}

/** MF's query-endpoint headers (catalog, terms, manifest): limit, remaining, reset as epoch seconds. */
function mfQueryHeaders(d: Decision): Record<string, string> {
  const minute = d.windows[0];
  return {
    'X-RateLimit-Limit': String(minute.limit),
    'X-RateLimit-Remaining': String(minute.remaining),
    'X-RateLimit-Reset': String(minute.resetEpochSeconds),
  };
}

function sendJson(req: IncomingMessage, res: ServerResponse, status: number, body: Json): void {
  const bytes = Buffer.from(JSON.stringify(body));
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', String(bytes.length));
  res.writeHead(status);
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

async function closeQuietly(file: OpenedFile): Promise<void> {
  await file.fh.close().catch(() => undefined);
}
