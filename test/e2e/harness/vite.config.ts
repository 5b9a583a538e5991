import path from 'node:path';
import { defineConfig } from 'vite';
import { duckdbWorker } from '../../../vite.duckdb-worker.js';
import { buildId } from '../../../vite.build-id.js';

/** Builds the harness page (test/e2e/worker.test.ts passes --outDir); the app's own worker settings. */
export default defineConfig({
  root: path.dirname(new URL(import.meta.url).pathname),
  base: './',
  plugins: [buildId()],
  worker: { format: 'es', plugins: () => [duckdbWorker()] },
  optimizeDeps: { exclude: ['@duckdb/duckdb-wasm', 'parquet-wasm'] },
  build: { target: 'es2022', emptyOutDir: true, chunkSizeWarningLimit: 4096 },
});
