/**
 * The engine's worker: DuckDB-WASM's own ('eh' bundle), without its download-progress stream. Given a
 * TransformStream, it pipes the 33 MB wasm through one to report progress (which the app does not
 * show) and compiles from a Response rebuilt around it: measured in Chromium, that transform cost the
 * worker ~150 ms per start plus its progress messages, and the rebuilt Response has no URL.
 * Without it, DuckDB-WASM compiles straight from fetch() (WebAssembly.instantiateStreaming), and
 * logs one warning saying so. docs/performance.md, "Start to first chart".
 */
import '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js';

// Only DuckDB-WASM's instantiate reads it, on the first message, after this module ran.
Reflect.deleteProperty(globalThis, 'TransformStream');
