import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // DuckDB-WASM instances are memory-hungry and the machine has 2 cores.
    pool: 'forks',
    maxWorkers: 2,
    env: { ALMANAC_TEST: '1' },
  },
});
