import { defineConfig } from 'vite';

/**
 * The desktop core for Electron's main process: src/desktop/index.ts as one ESM file. Dependencies stay
 * in node_modules (electron-builder packs the production ones), so DuckDB-WASM finds its wasm on disk.
 */
export default defineConfig({
  publicDir: false,
  build: {
    ssr: 'src/desktop/index.ts',
    outDir: 'dist-electron',
    emptyOutDir: true,
    target: 'node20',
    rollupOptions: { output: { entryFileNames: 'desktop.mjs', format: 'es' } },
  },
});
