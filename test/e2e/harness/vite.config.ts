import path from 'node:path';
import { defineConfig } from 'vite';
import { duckdbWorker } from '../../../vite.duckdb-worker.js';
import { buildId } from '../../../vite.build-id.js';
import { pageScript } from '../../../vite.page-script.js';

/**
 * Builds the harness page (scripts/setup.mjs --test passes --outDir): the app's own worker settings and
 * page-script plugin, since the app server sends the app's CSP with it.
 */
export default defineConfig({
  root: path.dirname(new URL(import.meta.url).pathname),
  base: './',
  plugins: [buildId(), pageScript()],
  worker: { format: 'es', plugins: () => [duckdbWorker()] },
  optimizeDeps: { exclude: ['@duckdb/duckdb-wasm', 'parquet-wasm'] },
  build: { target: 'es2022', emptyOutDir: true, chunkSizeWarningLimit: 4096 },
});
