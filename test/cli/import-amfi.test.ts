import { describe, it, expect } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const cli = (...args: string[]) =>
  run(process.execPath, ['scripts/cli.mjs', ...args], { env: { ...process.env, HOME: tmpdir() }, timeout: 240_000 });

describe('cli import-amfi', () => {
  it('imports the two real AMFI files with the counts SOURCES.md states, idempotently', { timeout: 300_000 }, async () => {
    const data = mkdtempSync(path.join(tmpdir(), 'almanac-amfi-'));
    const files = ['../shared/data/real-amfi/2006-04-03.csv', '../shared/data/real-amfi/2025-06-28.csv'];
    const { stdout } = await cli('import-amfi', ...files, '--data', data, '--json');
    const [y2006, y2025] = JSON.parse(stdout);
    expect(y2006).toMatchObject({ rows: 1790, schemes: 1790, isins: 1578, non_numeric_navs: 31, zero_navs: 21, layout: 'daily' });
    expect(y2025).toMatchObject({ rows: 618, schemes: 618, isins: 736, non_numeric_navs: 0, zero_navs: 0 });
    await cli('import-amfi', files[1], '--data', data, '--json');
    const { stdout: sql } = await cli('sql', '--data', data, '--json', 'SELECT count(*) AS n FROM user.amfi_nav');
    expect(JSON.parse(sql)).toEqual([{ n: 2408 }]);
  });

  it('refuses a file that is not an AMFI NAV file, with a clear message', async () => {
    const data = mkdtempSync(path.join(tmpdir(), 'almanac-amfi-'));
    await expect(cli('import-amfi', '../shared/data/real-prices/SPX.csv', '--data', data)).rejects.toMatchObject({
      stderr: expect.stringMatching(/unrecognised AMFI header/),
    });
  });
});
