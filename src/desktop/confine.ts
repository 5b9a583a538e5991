import type { Engine } from '../core/engine/engine.js';

/**
 * Takes the store's DuckDB off the filesystem for good, once every current file is attached. The
 * window sends SQL of its own (the SQL view) to the main process, which runs with the user's rights:
 * without this, `COPY … TO '<any path>'` or `ATTACH '<new file>'` from a compromised page would write
 * anywhere. Reading what is attached still works; a new generation needs a new store (the desktop
 * core reopens it after every change anyway). `allowed_directories` is not used: DuckDB-WASM 1.32
 * let `<dir>/./../x` through it (measured), so a directory allowance would not confine anything.
 */
export async function confine(engine: Engine): Promise<void> {
  await engine.exec('SET enable_external_access = false');
  await engine.exec('SET lock_configuration = true');
}
