import { describe, it, expect } from 'vitest';
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { REFERENCE_DIR, referenceCase } from '../core/compare/reference.js';

const run = promisify(execFile);
const cli = (...args: string[]) =>
  run(process.execPath, ['scripts/cli.mjs', ...args], { env: { ...process.env, HOME: tmpdir() }, timeout: 240_000 });

describe('cli compare --prices', () => {
  it("computes through WTI's -36.98 close: quantstats' rounded figures for real-01", { timeout: 300_000 }, async () => {
    const c = referenceCase('real-01');
    const { stdout } = await cli(
      'compare', '--prices', path.join(REFERENCE_DIR, c.prices_csv), '--symbols', c.symbols.join(','), '--benchmark', c.benchmark,
      '--start-date', c.start_date, '--end-date', c.end_date, '--risk-free-rate', String(c.risk_free_rate),
    );
    const res = JSON.parse(stdout) as { symbols: Array<{ symbol: string; trading_days: number; all_metrics: unknown }> };
    for (const entry of res.symbols) {
      expect(entry.trading_days, entry.symbol).toBe(c.results[entry.symbol].trading_days);
      expect(entry.all_metrics, entry.symbol).toEqual(c.results[entry.symbol].all_metrics_rounded);
    }
  });
});
