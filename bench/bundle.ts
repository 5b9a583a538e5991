import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { APP_ENTRY } from '../src/ui/page-script.js';
import type { BenchResult } from './lib.js';

/** What the app is built from: the list scripts/setup.mjs decides by whether dist/ is stale. */
const SOURCES = JSON.parse(readFileSync('scripts/app-sources.json', 'utf8')) as string[];

function newest(p: string): number {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(p).map((e) => newest(path.join(p, e))));
}

/**
 * The built app the Chromium cases serve, in a directory of the benchmark's own (dist/ stays the
 * tests'), rebuilt when any source is newer. Only `vite build`: never an install.
 */
export function appBuild(outDir: string): string {
  const built = existsSync(path.join(outDir, 'index.html')) ? statSync(path.join(outDir, 'index.html')).mtimeMs : 0;
  if (built < Math.max(...SOURCES.map(newest))) {
    console.log(`building the app into ${outDir} …`);
    execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'], { stdio: 'inherit' });
  }
  return outDir;
}

interface Part {
  label: string;
  test: (file: string) => boolean;
}

/** How the precached files divide: the engine ships as it comes; the app's own code is what we control. */
const PARTS: Part[] = [
  { label: 'DuckDB-WASM (eh wasm + its worker)', test: (f) => /duckdb[-.].*\.(wasm|js)$/.test(f) },
  { label: 'parquet-wasm', test: (f) => /parquet.*\.wasm$/.test(f) },
  { label: 'app JS (page + sync worker)', test: (f) => f === APP_ENTRY || (f.endsWith('.js') && f.startsWith('assets/')) },
  { label: 'CSS', test: (f) => f.endsWith('.css') },
  { label: 'shell (html, icons, manifest, service worker)', test: () => true },
];

function files(dir: string, rel = ''): string[] {
  return readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(dir, path.join(rel, e.name)) : [path.join(rel, e.name)],
  );
}

const mb = (n: number) => Math.round((n / 1048576) * 100) / 100;

/** Sizes of the built app, raw and gzipped (what a server would send on a first visit). */
export function bundleCase(dist: string): BenchResult[] {
  const sums = PARTS.map((p) => ({ label: p.label, raw: 0, gz: 0 }));
  for (const f of files(dist)) {
    const bytes = readFileSync(path.join(dist, f));
    const i = PARTS.findIndex((p) => p.test(f));
    sums[i].raw += bytes.length;
    sums[i].gz += gzipSync(bytes).length;
  }
  const total = sums.reduce((a, s) => ({ raw: a.raw + s.raw, gz: a.gz + s.gz }), { raw: 0, gz: 0 });
  const [duck, , appJs, css] = sums;
  const parts = sums.map((s) => `${s.label} ${mb(s.raw)} MB (gzip ${mb(s.gz)})`).join('; ');
  return [
    {
      case: 'bundle, everything precached',
      unit: 'MB',
      almanac: mb(total.raw),
      reference: { name: 'DuckDB-WASM eh wasm + worker, shipped as published', value: mb(duck.raw) },
      ratio: Math.round((total.raw / duck.raw) * 100) / 100,
      note: `gzip ${mb(total.gz)} MB. ${parts}`,
      detail: { parts: sums.map((s) => ({ ...s, raw: mb(s.raw), gz: mb(s.gz) })) },
    },
    {
      case: 'bundle, app JS + CSS, gzip',
      unit: 'MB',
      almanac: mb(appJs.gz + css.gz),
      note: `raw ${mb(appJs.raw + css.raw)} MB; the page loads its entry (${mb(entry(dist))} MB raw: the engine's client, the shell) before any view, then the code of the view it shows; DuckDB's worker and wasm beside`,
    },
  ];
}

/** The JS and CSS index.html loads itself (the entry its loader inserts, modulepreloads, stylesheets), in bytes. */
function entry(dist: string): number {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const files = [APP_ENTRY, ...[...html.matchAll(/href="\.\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1])];
  return files.reduce((n, f) => n + statSync(path.join(dist, f)).size, 0);
}
