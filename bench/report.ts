import type { BenchResult, Stats } from './lib.js';

const med = (v: Stats | number) => (typeof v === 'number' ? v : v.median);

/** docs/performance.md from one suite run: the table, then an SVG bar chart of the ratios. */
export function renderPerformanceDoc(p: {
  generated_at: string;
  scale: string;
  node: string;
  cpus: number;
  chromium: string | null;
  loadavg: number[];
  uptime: string;
  started: { uptime: string };
  results: BenchResult[];
}): string {
  const rows = p.results.map((r) =>
    `| ${r.case} | ${fmt(med(r.almanac))} ${r.unit} | ${r.reference ? `${fmt(med(r.reference.value))} ${r.unit} (${r.reference.name})` : ''} | ${r.ratio ?? ''} | ${r.target ?? ''} | ${r.met === undefined ? '' : r.met ? 'met' : '**missed**'} | ${r.note ?? ''} |`,
  );
  return [
    '# Performance',
    '',
    `Measured by \`npm run bench -- --scale ${p.scale}\` on ${p.generated_at} (${p.cpus} cores, Node ${p.node}, ${p.chromium ?? 'no Chromium'}).`,
    `The machine is shared: \`uptime\` said \`${p.started.uptime}\` at the start and \`${p.uptime}\` at the end.`,
    'Each case is timed next to its reference in the same run; ratio = Almanac / reference (lower is better).',
    'The raw figures are in `bench/results/`.',
    '',
    '| case | Almanac (median) | reference (median) | ratio | target | | note |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
    '![ratio to reference (dashed: 1x and 2x)](performance.svg)',
    '',
    ...CHROMIUM_METHOD,
    '',
  ].join('\n');
}

/** How the Chromium cases measure (bench/chromium.ts), so each figure can be read for what it is. */
const CHROMIUM_METHOD = [
  '## How the Chromium cases measure',
  '',
  'The built app (`vite build` into `.data/bench-app`) served by the app server on loopback, the stand-in publisher behind it,',
  "Debian's Chromium headless through playwright-core with the e2e tests' flags, one profile for the run and a fresh browser",
  'process for each phase, so that each phase\'s peak memory is its own.',
  '',
  '- **Memory** is resident memory read from `/proc` every 100 ms for the processes CDP `SystemInfo.getProcessInfo` lists.',
  "  The tab is the largest renderer process: the page's dedicated workers (DuckDB's, the sync worker) are threads of it, so its",
  '  RSS includes their WebAssembly memories, which CDP\'s JS-heap metrics leave out. The kernel\'s high-water mark (VmHWM)',
  '  is no cross-check (Chromium resets it). The native reference is the peak RSS (`maxRSS`) of a child process doing the same work.',
  '- **Download + ingest**: the Data view with only "Mutual-fund NAVs" ticked, Sync pressed, after the first visit installed',
  "  the app. Timed in the page from the message that starts the sync worker to the worker's result (an init script taps the",
  "  worker's messages; the app is not changed). Includes the HTTP download, parquet decoding, the insert, the CHECKPOINT and",
  '  the switch. The row count loaded is checked against the manifest.',
  '- **Tab memory while querying**: a fresh browser opens the synced app, then five scheme pages (NAV history, chart drawn),',
  '  a fund search with three filters, and in the SQL view: latest NAV as of a date for 50 schemes, a scan of the whole',
  '  history, 1,000,000 rows into the grid (scrolled), 1,000 rows. The native reference asks the same (the same service',
  '  functions for NAV and search, the same SQL text) over the Node store built from the same files.',
  '- **Grid scroll**: in the SQL view\'s grid, the scroll position is moved once per animation frame (240 frames of three',
  '  rows, then 120 jumps to pseudo-random places), and the intervals between frames are recorded; the same over a',
  '  1,000-row result is the reference. The grid must end showing its last row. Headless Chromium renders in software.',
  '- **Start to first chart**: from the navigation to a deep link (`#/indicators/<category>?ids=a,b`, `#/funds/<code>`) in a',
  '  browser just launched on the profile (launching it is not counted), to the first animation frame at which the',
  "  view's uPlot canvas holds painted pixels. Cold: the origin's service worker, Cache Storage and the HTTP cache emptied",
  '  first (CDP), so the app, its wasm and worker come from the server and are compiled afresh; the data stays in OPFS',
  '  (without data there is no chart). Warm: the installed PWA, every file from the precache, after one unmeasured visit.',
  '- **Bundle**: every file of the build, raw and gzipped (zlib default level), grouped.',
];

export function svgChart(results: BenchResult[]): string {
  const bars = results.filter((r) => r.ratio !== undefined);
  const w = 720;
  const rowH = 26;
  const h = bars.length * rowH + 40;
  const max = Math.max(2.5, ...bars.map((b) => b.ratio!));
  const x = (v: number) => 300 + (v / max) * 380;
  const items = bars.map((b, i) => {
    const y = 20 + i * rowH;
    const color = b.met === false ? '#c0392b' : '#1f5f8b';
    return `<text x="290" y="${y + 16}" text-anchor="end" font-size="12">${esc(b.case)}</text><rect x="300" y="${y + 4}" width="${x(b.ratio!) - 300}" height="16" fill="${color}"/><text x="${x(b.ratio!) + 4}" y="${y + 16}" font-size="12">${b.ratio}×</text>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif">${items.join('')}<line x1="${x(1)}" y1="10" x2="${x(1)}" y2="${h - 10}" stroke="#888" stroke-dasharray="3"/><line x1="${x(2)}" y1="10" x2="${x(2)}" y2="${h - 10}" stroke="#c0392b" stroke-dasharray="3"/></svg>`;
}

function esc(s: string): string {
  return s.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!);
}

function fmt(n: number): string {
  return n >= 100 ? n.toFixed(0) : n >= 1 ? n.toFixed(1) : n.toFixed(3);
}
