/**
 * The page runs one script: this constant inline module, which inserts a module script for the app's
 * entry (a stable name, so the loader and its hash never change between builds). It inserts an element
 * rather than importing: Chromium refuses the imports of an inline module allowed by hash (they stay
 * parser-inserted, which 'strict-dynamic' does not trust). vite.page-script.ts writes it into the built
 * index.html in place of the entry's script tag and refuses a page with any other script.
 *
 * Every CSP of the page (index.html's meta, `npm start`'s header, the desktop window's header) allows
 * scripts by SCRIPT_SRC: the loader's hash, plus 'strict-dynamic', so the entry it inserts, that entry's
 * imports (static or dynamic) and the workers they start are trusted through it, while a parser-inserted <script>,
 * an injected inline one or any other file on the origin is not. There is no 'self': under
 * 'strict-dynamic' the browser ignores it anyway, and CSP Evaluator rates it "maybe weak" (a JSONP
 * endpoint or an upload on the origin would be a script source). 'wasm-unsafe-eval': DuckDB-WASM and
 * parquet-wasm compile WebAssembly. Every browser the app runs in (module workers, OPFS) has both.
 * test/e2e/page-script.test.ts recomputes the hash from dist/index.html.
 */
export const APP_ENTRY = 'app.js';
export const APP_LOADER = `const s = document.createElement('script'); s.type = 'module'; s.src = './${APP_ENTRY}'; document.head.append(s);`;
export const SCRIPT_SRC = "script-src 'sha256-HL2QziwZj0cK7mIqjNEL7rQ3UsTShSnvtZjy7DkFTyY=' 'strict-dynamic' 'wasm-unsafe-eval'";
