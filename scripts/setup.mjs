#!/usr/bin/env node
// Makes a fresh clone work: installs dependencies when node_modules does not hold what the lock file
// pins; with --build (and --test, for the e2e tests) builds the app when dist/ is older than
// its sources; with --test also the e2e harness page (dist-harness/), likewise.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = process.argv.includes('--test') || process.argv.includes('--build');
/** Where --test builds the e2e harness page (test/e2e/harness/stack.ts serves it). */
const HARNESS_DIST = 'dist-harness';

function mtime(p) {
  return existsSync(p) ? statSync(p).mtimeMs : 0;
}

/** Newest modification time of the file or of any file under the directory `p`. */
function newest(p) {
  if (!existsSync(p)) return 0;
  if (!statSync(p).isDirectory()) return statSync(p).mtimeMs;
  return Math.max(0, ...readdirSync(p).map((e) => newest(path.join(p, e))));
}

function run(cmd, args, env = {}) {
  console.log(`[setup] ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env }, shell: process.platform === 'win32' });
  if (r.status !== 0) {
    console.error(`[setup] ${cmd} ${args.join(' ')} failed (exit ${r.status})`);
    process.exit(r.status ?? 1);
  }
}

/**
 * Whether node_modules holds what package-lock.json pins: npm records what it installed in
 * node_modules/.package-lock.json, so every package the lock requires (optional ones may be absent,
 * e.g. other platforms' binaries) must be there at the pinned version. By content, not by time: a
 * fresh checkout or a git worktree sharing one install has a lock file newer than the install, and
 * reinstalling there would replace an install others are using for nothing.
 */
function installMatchesLock() {
  const read = (p) => (existsSync(p) ? JSON.parse(readFileSync(p, 'utf8')).packages ?? {} : null);
  const installed = read(path.join(root, 'node_modules', '.package-lock.json'));
  const locked = read(path.join(root, 'package-lock.json'));
  if (!installed || !locked) return false;
  return Object.entries(locked).every(([name, pkg]) => {
    if (name === '') return true;
    const have = installed[name];
    return have ? have.version === pkg.version : pkg.optional === true || pkg.devOptional === true;
  });
}

if (!installMatchesLock()) {
  // The Electron binary is only needed by `npm run desktop`, not by start or the tests.
  run('npm', ['ci', '--no-audit', '--no-fund'], { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' });
}

if (build) {
  // What the app is built from: one list, which the benchmark's own build reads too (bench/bundle.ts).
  const appSources = JSON.parse(readFileSync(path.join(root, 'scripts', 'app-sources.json'), 'utf8'));
  const stale = (out, sources) => mtime(path.join(root, out, 'index.html')) < Math.max(...sources.map((p) => newest(path.join(root, p))));
  if (stale('dist', appSources)) run('npx', ['vite', 'build', '--logLevel', 'warn']);
  // The browser-store harness page of the e2e tests (test/e2e/harness): the app's own backend and
  // workers without the views, built once here for the test files that load it.
  const harness = ['test/e2e/harness', ...appSources];
  if (process.argv.includes('--test') && stale(HARNESS_DIST, harness)) {
    run('npx', ['vite', 'build', '--config', 'test/e2e/harness/vite.config.ts', '--outDir', path.join(root, HARNESS_DIST), '--logLevel', 'warn']);
  }
}
