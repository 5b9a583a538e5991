import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const tsx = path.resolve('node_modules/.bin/tsx');
const out = mkdtempSync(path.join(tmpdir(), 'almanac-gen-cli-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

async function gen(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(tsx, ['src/gen/cli.ts', ...args]);
    return { code: 0, ...r };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('npm run gen (src/gen/cli.ts)', () => {
  it('runs the chosen service into OUT/<service> and prints its time', async () => {
    const r = await gen('--scale', 'tiny', '--out', out, '--only', 'flags');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^flags: generation 1, \d+\.\d s → /m);
    const manifest = JSON.parse(readFileSync(path.join(out, 'flags', 'manifest.json'), 'utf8'));
    for (const name of Object.keys(manifest.files)) expect(readdirSync(path.join(out, 'flags'))).toContain(name);
    // Generator temp files never stay behind.
    expect(readdirSync(path.join(out, 'flags')).filter((n) => n.includes('.tmp-'))).toEqual([]);
  });

  it('--generation next publishes the one after what OUT holds, stepping as asked', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'almanac-gen-next-'));
    try {
      const state = () => JSON.parse(readFileSync(path.join(dir, 'flags', 'state.json'), 'utf8')) as { generation: number; as_of: string[] };
      expect((await gen('--scale', 'tiny', '--out', dir, '--only', 'flags', '--generation', 'next')).stdout).toMatch(/^flags: generation 1, /m);
      const r = await gen('--scale', 'tiny', '--out', dir, '--only', 'flags', '--generation', 'next', '--step', 'day');
      expect(r.stdout).toMatch(/^flags: generation 2, /m);
      // Generation 1 is as of Friday 2026-11-13; the next business day is Monday.
      expect(state()).toMatchObject({ generation: 2, as_of: ['2026-11-13', '2026-11-16'] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses bad options with a usage message', async () => {
    const scale = await gen('--scale', 'huge', '--out', out);
    expect(scale.code).not.toBe(0);
    expect(scale.stderr).toContain('--scale must be one of tiny, demo, full');
    const only = await gen('--scale', 'tiny', '--out', out, '--only', 'weather');
    expect(only.stderr).toContain('unknown service weather');
    const drift = await gen('--scale', 'tiny', '--out', out, '--drift', 'sideways');
    expect(drift.stderr).toContain('--drift must be one of');
  });

  it('refuses a bad step or revision count with a usage message', async () => {
    const step = await gen('--scale', 'tiny', '--out', out, '--step', 'month');
    expect(step.stderr).toContain('--step must be one of week, day, none');
    const generation = await gen('--scale', 'tiny', '--out', out, '--generation', 'later');
    expect(generation.stderr).toContain('--generation must be an integer ≥ 1');
    const revise = await gen('--scale', 'tiny', '--out', out, '--revise', 'some');
    expect(revise.stderr).toContain('--revise must be an integer ≥ 0');
    expect(revise.stderr).toContain('--step week|day|none');
  });
});
