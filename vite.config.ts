import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { VitePWA } from 'vite-plugin-pwa';
import { duckdbWorker } from './vite.duckdb-worker.js';
import { connectSrc } from './vite.connect-src.js';
import { pageScript } from './vite.page-script.js';

/**
 * The app is static: everything it needs (shell, DuckDB-WASM eh bundle, parquet-wasm) is precached
 * so it answers with the network off after one visit. config.json (the sources) is fetched
 * network-first so `npm start` can point the app at its embedded publisher, and still answers offline.
 */
export default defineConfig({
  root: '.',
  base: './',
  plugins: [
    svelte(),
    connectSrc(process.env.ALMANAC_CONNECT_SRC),
    pageScript(),
    VitePWA({
      registerType: 'autoUpdate',
      // src/ui/main.ts registers sw.js: a script tag of the plugin's own would be refused by the CSP (vite.page-script.ts).
      injectRegister: false,
      includeAssets: ['icon.svg', 'icon-192.png', 'icon-512.png'],
      manifest: {
        name: 'Almanac',
        short_name: 'Almanac',
        description: 'Offline mirror of indicator, mutual-fund NAV and corporate red-flag data, queried locally',
        theme_color: '#15202b',
        background_color: '#f7f8fa',
        display: 'standalone',
        start_url: './',
        scope: './',
        icons: [
          { src: 'icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: 'icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: 'icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: 'icon.svg', sizes: 'any', type: 'image/svg+xml' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,wasm,webmanifest}'],
        // The DuckDB eh wasm is ~34 MB; without this it would be left out and offline start would fail.
        maximumFileSizeToCacheInBytes: 64 * 1024 * 1024,
        navigateFallback: 'index.html',
        runtimeCaching: [
          {
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.endsWith('/config.json'),
            handler: 'NetworkFirst',
            options: { cacheName: 'almanac-config', networkTimeoutSeconds: 3 },
          },
        ],
      },
    }),
  ],
  worker: { format: 'es', plugins: () => [duckdbWorker()] },
  optimizeDeps: { exclude: ['@duckdb/duckdb-wasm', 'parquet-wasm'] },
  build: { target: 'es2022', outDir: 'dist', chunkSizeWarningLimit: 4096 },
});
