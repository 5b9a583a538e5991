import fs from 'node:fs';
import path from 'node:path';
import { FIGURES_DIR, renderReport } from './report.js';

/** ALMANAC_LONG=1: more kill points, more fuzz requests (minutes, not part of the default run). */
export const LONG = process.env.ALMANAC_LONG === '1';

/** One campaign's counts as the test measured them; docs/reliability.md is rendered from these files. */
export interface Figures {
  campaign: string;
  title: string;
  /** What was checked, in one sentence per line of the report. */
  checks: string[];
  /** Named counts (runs, failures, requests, 5xx, writes outside the store, ...). */
  counts: Record<string, number>;
  /** Optional breakdown rows: each a label and its counts. */
  rows?: { label: string; counts: Record<string, number | string> }[];
}

export function writeFigures(f: Figures): void {
  // A run filtered to other tests (vitest -t) counted nothing: the campaign's last figures stand.
  if (Object.values(f.counts).every((n) => n === 0)) return;
  fs.mkdirSync(FIGURES_DIR, { recursive: true });
  const out = { ...f, mode: LONG ? 'long' : 'default', finished_at: new Date().toISOString() };
  // One file per campaign and mode: a default run leaves the last long run's figures in the report.
  fs.writeFileSync(path.join(FIGURES_DIR, `${f.campaign}${LONG ? '-long' : ''}.json`), `${JSON.stringify(out, null, 1)}\n`);
  renderReport();
}
