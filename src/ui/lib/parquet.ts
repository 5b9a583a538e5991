import * as parquet from 'parquet-wasm';
import wasmUrl from 'parquet-wasm/esm/parquet_wasm_bg.wasm?url';

let ready: Promise<typeof parquet> | undefined;

/**
 * parquet-wasm's browser build must load its wasm before first use. The same module instance serves
 * the sync engine's ingest and the SQL export. The wasm is precached, so this works offline.
 */
export function initParquet(): Promise<typeof parquet> {
  ready ??= parquet.default({ module_or_path: wasmUrl }).then(() => parquet);
  return ready;
}
