import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Generation 1 of tiny sample data is deterministic: generated once, cached under a name keyed by
 * the generator's source (a changed generator never serves a stale cache), copied per test run.
 */
const genHash = createHash('sha256');
for (const f of readdirSync('src/gen').sort()) genHash.update(readFileSync(path.join('src/gen', f)));
const CACHE = path.join(tmpdir(), `almanac-e2e-tiny-g1-${genHash.digest('hex').slice(0, 12)}`);

export function gen(out: string, extra: string[] = []): void {
  const r = spawnSync('npx', ['tsx', 'src/gen/cli.ts', '--scale', 'tiny', '--out', out, ...extra], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`generator failed (exit ${r.status})`);
}

/** A fresh copy of generation 1 of the tiny data, in a new temporary directory. */
export function tinyDataCopy(): string {
  if (!existsSync(path.join(CACHE, 'flags', 'manifest.json'))) gen(CACHE);
  const dir = mkdtempSync(path.join(tmpdir(), 'almanac-e2e-data-'));
  cpSync(CACHE, dir, { recursive: true });
  return dir;
}
