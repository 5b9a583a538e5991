#!/usr/bin/env node
// Makes a fresh clone work: installs dependencies when node_modules is missing or older than the
// lock file; with --build (and --test, for the e2e tests) builds the app when dist/ is older than
// its sources.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = process.argv.includes('--test') || process.argv.includes('--build');

function mtime(p) {
  return existsSync(p) ? statSync(p).mtimeMs : 0;
}

/** Newest modification time of any file under `dir` (recursive). */
function newest(dir) {
  if (!existsSync(dir)) return 0;
  let max = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    max = Math.max(max, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return max;
}

function run(cmd, args, env = {}) {
  console.log(`[setup] ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env }, shell: process.platform === 'win32' });
  if (r.status !== 0) {
    console.error(`[setup] ${cmd} ${args.join(' ')} failed (exit ${r.status})`);
    process.exit(r.status ?? 1);
  }
}

// npm writes node_modules/.package-lock.json on every install: it is the install's timestamp.
const installed = mtime(path.join(root, 'node_modules', '.package-lock.json'));
if (installed === 0 || installed < mtime(path.join(root, 'package-lock.json'))) {
  // The Electron binary is only needed by `npm run desktop`, not by start or the tests.
  run('npm', ['ci', '--no-audit', '--no-fund'], { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' });
}

if (build) {
  const built = mtime(path.join(root, 'dist', 'index.html'));
  const sources = Math.max(
    newest(path.join(root, 'src', 'ui')),
    newest(path.join(root, 'src', 'core')),
    newest(path.join(root, 'public')),
    mtime(path.join(root, 'index.html')),
    mtime(path.join(root, 'vite.config.ts')),
    mtime(path.join(root, 'package-lock.json')),
  );
  if (built < sources) run('npx', ['vite', 'build', '--logLevel', 'warn']);
}
