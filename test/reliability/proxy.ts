import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  /** Arrival time at the proxy (the publisher's side of the wire), ms. */
  t: number;
  path: string;
  status: number;
  retryAfter: number | null;
}

/**
 * A pass-through proxy in front of the publisher that logs every request as it arrives, so the
 * campaign counts requests per window where the publisher counts them. A reset or short body
 * upstream is passed on as a broken response downstream. `storm`: how many download requests the
 * proxy itself refuses with 429 before passing any on (the publisher's faults have no 429).
 */
export async function loggingProxy(target: string, opts: { storm?: number } = {}) {
  const log: Seen[] = [];
  let storm = opts.storm ?? 0;
  const server = http.createServer((req, res) => {
    const t = Date.now();
    if (storm > 0 && req.url?.includes('/download/')) {
      // A 429 storm on the wire: the first `storm` downloads are refused with Retry-After: 1.
      storm--;
      log.push({ t, path: req.url, status: 429, retryAfter: 1 });
      const body = JSON.stringify({ error: 'too_many_requests', status: 429, path: req.url, message: 'Slow down.', retry_after_seconds: 1, hint: 'Use the bulk downloads.' });
      res.writeHead(429, { 'Retry-After': '1', 'Content-Type': 'application/json' }).end(body);
      return;
    }
    const up = http.request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (ur) => {
      const ra = ur.headers['retry-after'];
      log.push({ t, path: req.url ?? '', status: ur.statusCode ?? 0, retryAfter: ra === undefined ? null : Number(ra) });
      res.writeHead(ur.statusCode ?? 502, ur.headers);
      ur.on('aborted', () => res.destroy());
      ur.on('error', () => res.destroy());
      ur.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Most requests that arrived within any `windowMs` (sliding), among those `match` selects. */
export function maxPerWindow(log: Seen[], windowMs: number, match: (s: Seen) => boolean): number {
  const times = log.filter(match).map((s) => s.t).sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; j < times.length; j++) {
    while (times[j] - times[i] >= windowMs) i++;
    best = Math.max(best, j - i + 1);
  }
  return best;
}
