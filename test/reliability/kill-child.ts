/**
 * The kill campaign's child process, so every run owns its DuckDB-WASM and several runs go at once.
 *   kill STORE SOURCE SERVICE STEP NTH [FILE]: a sync that SIGKILLs itself the NTH time it reaches
 *     STEP (for FILE only, when given), the stand-in for a crash or a power cut (no finally block,
 *     no flush, no exit handler runs); any other STEP (e.g. 'none') never kills.
 *   resync STORE SOURCE SERVICE: what the store answers now, then a sync, then what it answers and
 *     which files are left over, as one JSON line.
 */
import { sync } from '../../src/core/sync/sync.js';
import { nodeHost } from '../../src/core/database/node.js';
import type { Service } from '../../src/core/sync/datasets.js';
import { fileLock } from '../../src/core/sync/node-lock.js';
import { checksums, leftovers } from './store-check.js';

const [mode, store, source, svc, step, nth, file] = process.argv.slice(2);
const service = svc as Service;
const host = nodeHost(store);
let seen = 0;

if (mode === 'kill') {
  const s = await sync({
    storage: host.storage, host, source, only: [service], retry: { baseMs: 20 }, lock: fileLock(store),
    hook: (at, detail) => {
      if (at !== step || (file && detail.file !== file)) return;
      if (++seen === Number(nth)) process.kill(process.pid, 'SIGKILL');
    },
  });
  process.stdout.write(`${JSON.stringify({ errors: [...s.errors, ...s.files.flatMap((f) => (f.error ? [`${f.name}: ${f.error}`] : []))] })}\n`);
} else {
  const mid = await checksums(store, service);
  const s = await sync({ storage: host.storage, host, source, only: [service], retry: { baseMs: 20 }, lock: fileLock(store) });
  const errors = [...s.errors, ...s.files.flatMap((f) => (f.error ? [`${f.name}: ${f.error}`] : []))];
  process.stdout.write(`${JSON.stringify({ mid, errors, after: await checksums(store, service), leftovers: await leftovers(store, service) })}\n`);
}
