/**
 * What the benchmark watches inside the app's page, as plain JavaScript source: tsx would wrap
 * functions passed to page.evaluate in helpers the page does not have. The app itself is not changed.
 *
 * PROBES (an init script, before any of the app's code) keeps `window.__bench`:
 * - `sync`: the sync worker's messages (its SyncEvents, minus byte progress, and its result with the
 *   summary's body bytes), each with `at` = performance.now() of the page, and `sent` when the page
 *   asked the worker to sync;
 * - `chart`: when the first uPlot canvas (`.chart canvas`) of the page was seen drawn: the first
 *   animation frame at which it holds painted pixels, in ms since navigation start;
 * - `ready`: when the nav first said "DuckDB ready" (the store opened, its files attached).
 */
export const PROBES = `(() => {
  const b = (window.__bench = { sync: [], sent: null, chart: null, ready: null, charts: 0 });
  const W = window.Worker;
  window.Worker = class extends W {
    constructor(url, opts) {
      super(url, opts);
      if (!String(url).includes('sync.worker')) return;
      this.addEventListener('message', (e) => {
        const d = e.data;
        if (d && d.type === 'event' && d.event.type !== 'progress') b.sync.push({ at: performance.now(), ...d.event });
        if (d && d.type === 'result') b.sync.push({ at: performance.now(), type: 'result', outcome: d.outcome.outcome, message: d.outcome.message, body_bytes: d.outcome.summary && d.outcome.summary.body_bytes });
      });
    }
    postMessage(m, t) {
      if (m && m.op === 'sync') b.sent = performance.now();
      return super.postMessage(m, t);
    }
  };
  let seen = null;
  const painted = (c) => {
    if (!c.width || !c.height) return false;
    const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (let i = 3; i < px.length; i += 4) if (px[i] !== 0) return true;
    return false;
  };
  const frame = (now) => {
    const c = document.querySelector('.chart canvas');
    if (c && c !== seen && painted(c)) {
      seen = c;
      b.charts++;
      b.chart = now;
    }
    if (b.ready === null && document.querySelector('nav')?.textContent?.includes('DuckDB ready')) b.ready = now;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();`;

/**
 * Scrolls the SQL view's grid one animation frame at a time and returns the frame intervals (ms):
 * `steady` moves three rows a frame from the top, `jump` lands on pseudo-random places over the whole
 * result (dragging the scrollbar). Also returns what the grid showed last (its first and last row
 * numbers), so a scroll that rendered nothing cannot pass for a smooth one, and the long animation
 * frames (> 50 ms, Chromium's LoAF entries) seen meanwhile.
 */
export const SCROLL = `async ({ frames, mode }) => {
  const vp = document.querySelector('.grid .viewport');
  if (!vp) throw new Error('no grid on the page');
  vp.scrollTop = 0;
  const long = [];
  const obs = new PerformanceObserver((l) => long.push(...l.getEntries().map((e) => e.duration)));
  try { obs.observe({ type: 'long-animation-frame' }); } catch {}
  const next = () => new Promise((r) => requestAnimationFrame(r));
  let last = await next();
  const max = vp.scrollHeight - vp.clientHeight;
  const times = [];
  let seed = 7;
  for (let i = 0; i < frames; i++) {
    if (mode === 'steady') vp.scrollTop = Math.min(max, vp.scrollTop + 84);
    else { seed = (seed * 16807) % 2147483647; vp.scrollTop = (seed / 2147483647) * max; }
    const now = await next();
    times.push(now - last);
    last = now;
  }
  vp.scrollTop = max;
  await next(); await next();
  obs.disconnect();
  const rows = [...document.querySelectorAll('.grid .line')].map((r) => Number(r.getAttribute('aria-rowindex')));
  const total = Number(document.querySelector('.grid').getAttribute('aria-rowcount'));
  return { times, long, total, lastShown: Math.max(...rows), firstShown: Math.min(...rows) };
}`;
