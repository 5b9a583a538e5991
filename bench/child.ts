/**
 * One measured job in its own process, so its peak RSS is its own: `sync` (Almanac: download + ingest
 * through the real sync engine) or `native-load` (native DuckDB loading the same parquet). Prints one
 * JSON line: { ms, maxRssMb, ... }.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { sync } from '../src/core/sync/sync.js';
import { nodeHost } from '../src/core/store/node.js';
import type { Service } from '../src/core/sync/datasets.js';

const [job, a, b, c] = process.argv.slice(2);
const t0 = performance.now();
let extra: Record<string, unknown> = {};
if (job === 'sync') {
  const host = nodeHost(b);
  const summary = await sync({ storage: host.storage, host, source: a, only: c ? (c.split(',') as Service[]) : undefined });
  if (summary.errors.length) throw new Error(summary.errors.join('; '));
  extra = { requests: summary.requests, body_bytes: summary.body_bytes, statuses: summary.files.map((f) => f.status) };
} else if (job === 'native-load') {
  const db = await DuckDBInstance.create(b);
  const conn = await db.connect();
  await conn.run(`CREATE TABLE nav AS SELECT * FROM read_parquet('${a.replaceAll("'", "''")}')`);
  await conn.run('CHECKPOINT');
  conn.closeSync();
  db.closeSync();
} else {
  throw new Error(`unknown job ${job}`);
}
const ms = performance.now() - t0;
console.log(JSON.stringify({ ms, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024), ...extra }));
