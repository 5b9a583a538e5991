import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files, longest first (measured on the 2-core CI machine). A clean clone has no timings
 * from an earlier run, so vitest would start the biggest files first, and a long file that starts late
 * finishes alone on one core. No file may take much more than the suite's share of one core: the
 * Chromium kill campaign is split by ingest path and the Node one by dataset for that (docs/testing.md,
 * "Time"). Files not listed follow in vitest's own order.
 */
const LONGEST = [
  'test/reliability/kill.test.ts',
  'test/e2e/kill-chromium-csv.test.ts',
  'test/cli/watch.test.ts',
  'test/e2e/kill-chromium-parquet.test.ts',
  'test/e2e/kill-chromium-duckdb.test.ts',
  'test/reliability/kill-mf.test.ts',
  'test/e2e/sync.test.ts',
  'test/e2e/app.test.ts',
  'test/core/sync/drift.test.ts',
  'test/e2e/worker.test.ts',
  'test/e2e/worker-refresh.test.ts',
  'test/core/sync/refresh.test.ts',
  'test/reliability/malicious.test.ts',
  'test/e2e/phone.test.ts',
  'test/e2e/news.test.ts',
  'test/core/changes/changes.test.ts',
  'test/publisher/queries.test.ts',
  'test/e2e/https.test.ts',
  'test/reliability/network.test.ts',
  'test/core/database/hazards.test.ts',
  'test/cli/sync.test.ts',
  'test/core/sync/sync.test.ts',
  'test/core/sync/untrusted.test.ts',
  'test/core/sync/crash.test.ts',
  'test/core/sync/skip-tables.test.ts',
  'test/core/compare/compare.test.ts',
  'test/reliability/fuzz.test.ts',
  'test/core/mf/imported.test.ts',
  'test/e2e/drift.test.ts',
  'test/core/database/user.test.ts',
  'test/gen/drift.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST.indexOf(path.relative(f.project.config.root, f.moduleId).replaceAll(path.sep, '/'));
      return i < 0 ? LONGEST.length : i;
    };
    const sorted = await super.sort(files);
    return sorted.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map(({ f }) => f);
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // DuckDB-WASM instances are memory-hungry and the machine has 2 cores: one file per core. Files
    // that spawn processes (the kill campaign, the CLI) or drive Chromium add their own on top.
    pool: 'forks',
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    env: { ALMANAC_TEST: '1' },
  },
});
