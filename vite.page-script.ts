import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';
import { APP_ENTRY, APP_LOADER, SCRIPT_SRC } from './src/ui/page-script.js';

/** Vite's dev server loads its client and the modules by URL: dev pages allow scripts from the origin instead. */
const DEV_SCRIPT_SRC = "script-src 'self' 'wasm-unsafe-eval'";

/** Every <script> element of an HTML page, whole. */
const SCRIPTS = /<script\b[^>]*>[\s\S]*?<\/script\s*>/gi;

const LOADER_TAG = `<script type="module">${APP_LOADER}</script>`;

/**
 * The built page's one script is the constant loader of src/ui/page-script.ts, the script its CSP
 * allows by hash: the entry chunk gets the stable name the loader inserts (other chunks keep their
 * content hashes), the entry's script tag becomes the loader, and the build fails if index.html's CSP
 * does not read SCRIPT_SRC, if SCRIPT_SRC does not hold the loader's hash, or if the page carries any
 * other script (a plugin's injected tag would be refused by the browser).
 */
export function pageScript(): Plugin {
  let dev = false;
  return {
    name: 'almanac-page-script',
    config: () => ({
      build: { rollupOptions: { output: { entryFileNames: (chunk) => (chunk.isEntry ? APP_ENTRY : 'assets/[name]-[hash].js') } } },
    }),
    configResolved(config) {
      dev = config.command === 'serve';
    },
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        if (!html.includes(SCRIPT_SRC)) throw new Error(`index.html's CSP no longer reads "${SCRIPT_SRC}"`);
        if (dev) return html.replace(SCRIPT_SRC, DEV_SCRIPT_SRC);
        const hash = `'sha256-${createHash('sha256').update(APP_LOADER).digest('base64')}'`;
        if (!SCRIPT_SRC.includes(hash)) throw new Error(`SCRIPT_SRC does not allow the loader (${hash})`);
        const entry = `<script type="module" crossorigin src="./${APP_ENTRY}"></script>`;
        if (!html.includes(entry)) throw new Error(`index.html does not load the entry as ${entry}`);
        return html.replace(entry, LOADER_TAG);
      },
    },
    generateBundle: {
      // After Vite has emitted the page, with every plugin's tags in it.
      order: 'post',
      handler(_options, bundle) {
        const page = bundle['index.html'];
        if (page?.type !== 'asset') throw new Error('the build has no index.html');
        const scripts = String(page.source).match(SCRIPTS) ?? [];
        if (scripts.length !== 1 || scripts[0] !== LOADER_TAG) throw new Error(`index.html must run only ${LOADER_TAG}, not: ${scripts.join(' ')}`);
      },
    },
  };
}
