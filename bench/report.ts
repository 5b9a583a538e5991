import type { BenchResult, Stats } from './lib.js';

const med = (v: Stats | number) => (typeof v === 'number' ? v : v.median);

const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

/**
 * docs/performance.md with one suite run's table and chart between the bench markers; the prose
 * around them (what was measured and why) is kept. Without markers the run's section is the whole doc.
 */
export function renderPerformanceDoc(
  p: {
    generated_at: string;
    scale: string;
    node: string;
    cpus: number;
    loadavg: number[];
    chromium: string | null;
    started: { uptime: string };
    uptime: string;
    store?: string;
    results: BenchResult[];
  },
  existing = '',
): string {
  const rows = p.results.map((r) =>
    `| ${r.case} | ${fmt(med(r.almanac))} ${r.unit}${r.measure === 'cpu' ? ' CPU' : ''} | ${r.reference ? `${fmt(med(r.reference.value))} ${r.unit} (${r.reference.name})` : ''} | ${r.ratio ?? ''} | ${r.target ?? ''} | ${r.met === undefined ? '' : r.met ? 'met' : '**missed**'} | ${r.note ?? ''} |`,
  );
  const section = [
    START,
    `Measured by \`npm run bench -- --scale ${p.scale}\` on ${p.generated_at} (${p.cpus} cores, Node ${p.node}, ${p.chromium ?? 'no Chromium'}, load average at the end ${p.loadavg.map((l) => l.toFixed(1)).join(' / ')}).`,
    `The machine is shared: \`uptime\` said \`${p.started.uptime}\` at the start and \`${p.uptime}\` at the end.`,
    'Each case is timed next to its reference in the same run; ratio = Almanac / reference (lower is better).',
    'Query cases are CPU time per call (user + system of the process, so native DuckDB counts all its threads), median of the repeats;',
    'their wall times are in the note and in `bench/results/`.',
    ...(p.store ? [`This run timed the query cases on a store synced earlier (\`--store\`): no download, ingest or refresh case.`] : []),
    '',
    '| case | Almanac (median) | reference (median) | ratio | target | | note |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
    '![ratio to reference (dashed: 1x and 2x)](performance.svg)',
    END,
  ].join('\n');
  const at = existing.indexOf(START);
  const end = existing.indexOf(END);
  if (at < 0 || end < at) return `# Performance\n\n${section}\n`;
  return existing.slice(0, at) + section + existing.slice(end + END.length);
}

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
