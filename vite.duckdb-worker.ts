import type { Plugin } from 'vite';

const ENGINE_WORKER = '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js';

/**
 * DuckDB-WASM's worker script runs for its side effects (it installs the worker's message handler),
 * which its package's `sideEffects: false` would let the bundler drop from src/core/engine/duckdb.worker.ts.
 * Its Emscripten code holds a direct eval, which the bundler warns of: known, and left as it comes.
 * Used by the app's and the test harness's builds (their worker bundles).
 */
export function duckdbWorker(): Plugin {
  return {
    name: 'almanac-duckdb-worker',
    enforce: 'pre',
    async resolveId(id, importer) {
      if (id !== ENGINE_WORKER) return null;
      const resolved = await this.resolve(id, importer, { skipSelf: true });
      return resolved && { ...resolved, moduleSideEffects: true };
    },
    onLog(_level, log) {
      if (log.code === 'EVAL' && log.id?.includes('duckdb-browser-eh.worker')) return false;
    },
  };
}
