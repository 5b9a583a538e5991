/**
 * Renders docs/reliability.md from the JSON figures the campaigns write to docs/reliability/, one file
 * per campaign, kept in the repository: a run of one campaign replaces its own figures and the report
 * still shows every other campaign's last run. Each campaign re-renders it when it finishes; `npx tsx
 * test/reliability/report.ts` does the same by hand.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Each campaign's last figures (see figures.ts). */
export const FIGURES_DIR = path.resolve('docs/reliability');

const ORDER = ['kill', 'kill-mf', 'kill-chromium', 'kill-chromium-parquet', 'kill-chromium-duckdb', 'kill-chromium-csv', 'network', 'malicious', 'fuzz', 'origin'];

interface Stored {
  campaign: string;
  title: string;
  checks: string[];
  counts: Record<string, number>;
  rows?: { label: string; counts: Record<string, number | string> }[];
  mode: string;
  finished_at: string;
}

export function renderReport(resultsDir = FIGURES_DIR, out = path.resolve('docs/reliability.md')): string {
  const all: Stored[] = fs.existsSync(resultsDir)
    ? fs.readdirSync(resultsDir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(fs.readFileSync(path.join(resultsDir, f), 'utf8')))
    : [];
  all.sort((a, b) => rank(a.campaign) - rank(b.campaign) || a.mode.localeCompare(b.mode));
  const lines = [
    '# Reliability figures',
    '',
    'Written by the campaigns in `test/reliability/` (part of `npm test`; `ALMANAC_LONG=1` runs the longer',
    'mode) from the counts they measured; do not edit by hand. Re-render: `npx tsx test/reliability/report.ts`.',
    '',
    '| Campaign | Mode | Finished | ' + 'Figures |',
    '|---|---|---|---|',
    ...all.map((c) => `| ${c.title} | ${c.mode} | ${c.finished_at.slice(0, 16).replace('T', ' ')} | ${Object.entries(c.counts).map(([k, v]) => `${k}: ${v}`).join(', ')} |`),
  ];
  for (const c of all) {
    lines.push('', `## ${c.title}${c.mode === 'default' ? '' : ` (${c.mode} mode)`}`, '', ...c.checks.map((x) => `- ${x}`), '');
    lines.push('| Figure | Count |', '|---|---|', ...Object.entries(c.counts).map(([k, v]) => `| ${k} | ${v} |`));
    if (c.rows?.length) {
      const keys = [...new Set(c.rows.flatMap((r) => Object.keys(r.counts)))];
      lines.push('', `| | ${keys.join(' | ')} |`, `|---|${keys.map(() => '---').join('|')}|`);
      for (const r of c.rows) lines.push(`| ${r.label} | ${keys.map((k) => r.counts[k] ?? '').join(' | ')} |`);
    }
  }
  const text = `${lines.join('\n')}\n`;
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, text);
  return text;
}

function rank(c: string): number {
  const i = ORDER.indexOf(c);
  return i < 0 ? ORDER.length : i;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  process.stdout.write(renderReport());
}
