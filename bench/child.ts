/**
 * One measured job in its own process, so its peak RSS is its own: `sync` (Almanac: download + ingest
 * through the real sync engine), `native-load` (native DuckDB loading the same parquet) or
 * `native-queries` (native DuckDB asking what the Chromium memory case asks, over a Node store).
 * Prints one JSON line: { ms, cpuMs, maxRssMb, ... } (cpuMs: the process's user + system CPU time, which
 * the shared machine's load does not inflate as it does the wall time).
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { sync } from '../src/core/sync/sync.js';
import { nodeHost } from '../src/core/store/node.js';
import { SERVICE_DEFS, SERVICES, contractOf, type Service } from '../src/core/sync/datasets.js';
import { projection } from '../src/core/sync/ingest.js';
import { parseNavParams, parseSearchParams } from '../src/core/contract/mf-params.js';
import { nav } from '../src/core/services/mf/nav.js';
import { search } from '../src/core/services/mf/search.js';
import { NativeEngine } from './native-engine.js';
import { openStore } from '../src/core/store/node.js';
import { mfBenchCases } from './mf.js';
import { measure, stats, warmUp } from './lib.js';
import { ChangeRecorder } from '../src/core/changes/recorder.js';
import { MemoryStorage } from '../src/core/storage/memory.js';
import { fileState } from '../src/core/sync/state.js';
import type { QueryPlan } from './chromium.js';

const [job, a, b, c] = process.argv.slice(2);
const t0 = performance.now();
let extra: Record<string, unknown> = {};
if (job === 'sync') {
  const host = nodeHost(b);
  const summary = await sync({ storage: host.storage, host, source: a, only: c ? (c.split(',') as Service[]) : undefined });
  if (summary.errors.length) throw new Error(summary.errors.join('; '));
  extra = { requests: summary.requests, body_bytes: summary.body_bytes, statuses: summary.files.map((f) => f.status) };
} else if (job === 'native-load') {
  // The same statement shape the ingest runs: the file's columns mapped onto the contract by name and
  // cast (date text → DATE, nav → DECIMAL). `c` caps native DuckDB's threads (DuckDB-WASM has one).
  const db = await DuckDBInstance.create(b, c ? { threads: c } : undefined);
  const conn = await db.connect();
  const file = `read_parquet('${a.replaceAll("'", "''")}')`;
  const have = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM ${file}`)).getRowObjects();
  const { select } = projection(
    have.map((r) => ({ name: String(r.column_name), type: String(r.column_type) })),
    { contract: contractOf(SERVICE_DEFS.mf, 'nav'), renames: {} },
    'mf_nav_master.parquet',
  );
  await conn.run(`CREATE TABLE nav AS SELECT ${select} FROM ${file}`);
  await conn.run('CHECKPOINT');
  conn.closeSync();
  db.closeSync();
} else if (job === 'native-queries') {
  // The same questions as the tab: the services for NAV histories and the search, the SQL as written.
  const plan = JSON.parse(b) as QueryPlan;
  const native = await NativeEngine.over(a);
  const steps: { label: string; ms: number }[] = [];
  const step = async (label: string, fn: () => Promise<unknown>) => {
    const s0 = performance.now();
    await fn();
    steps.push({ label, ms: Math.round(performance.now() - s0) });
  };
  for (const code of plan.navCodes) await step(`NAV history ${code}`, () => nav(native, parseNavParams([['scheme', code]])));
  await step('search', () => search(native, parseSearchParams([...plan.search, ['active', 'active'], ['limit', '50']])));
  for (const q of plan.sql) await step(q.label, () => native.materialize(q.sql));
  await native.close();
  extra = { steps };
} else if (job === 'mf-queries') {
  // The MF query cases over the store in `a`, `b` timed calls each once warm: CPU medians per case.
  const store = await openStore(a);
  const cpu: Record<string, number> = {};
  for (const q of await mfBenchCases(store.engine)) {
    await warmUp(q.run, 1000, 5000);
    const samples: number[] = [];
    for (let i = 0; i < Number(b); i++) samples.push((await measure(q.run)).cpu);
    cpu[q.name] = stats(samples).median;
  }
  await store.close();
  extra = { cpu };
} else if (job === 'changes') {
  // A sync of the next generation recording its changes for 100 watches (bench/run.ts adds them).
  // compare: the time spent comparing; baseline: the same comparisons by a recorder that has no
  // watches (its own list and log in memory), run right after each one and taken off the sync's time.
  // Wall and CPU (this process, all threads: the machine is shared, its load inflates wall times).
  const host = nodeHost(b);
  const state = fileState(host.storage);
  const recorder = await ChangeRecorder.begin(host.storage, state);
  const baseline = await ChangeRecorder.begin(new MemoryStorage(), state);
  const [scratch, bare] = [recorder.inScratch(host), baseline.inScratch(host)];
  const spent = { compare: { wall: 0, cpu: 0 }, baseline: { wall: 0, cpu: 0 } };
  const timed = async (into: { wall: number; cpu: number }, fn: () => Promise<unknown>) => {
    const m = await measure(fn);
    into.wall += m.wall;
    into.cpu += m.cpu;
  };
  // No rate limits (the publisher runs without): waits would pad the sync and flatter the share.
  const rules = Object.fromEntries(SERVICES.map((s) => [s, []]));
  const c0 = process.cpuUsage();
  const s0 = performance.now();
  const summary = await sync({
    storage: host.storage, host, source: a, rules,
    onSwitch: async (service, next) => {
      await timed(spent.compare, () => scratch.onSwitch(service, next));
      await timed(spent.baseline, () => bare.onSwitch(service, next));
    },
  });
  await timed(spent.compare, () => scratch.close());
  await timed(spent.baseline, () => bare.close());
  const changes = await recorder.finish(summary);
  if (!changes || summary.errors.length || changes.errors) throw new Error([...summary.errors, ...(changes?.errors ?? [])].join('; '));
  const c = process.cpuUsage(c0);
  // The sync as run, less the baseline comparisons (the measuring's own, not the app's).
  const sync_ = { wall: performance.now() - s0 - spent.baseline.wall, cpu: (c.user + c.system) / 1000 - spent.baseline.cpu };
  const watched = changes.watched.schemes.length + changes.watched.companies.length + changes.watched.indicators.length;
  extra = { sync: sync_, ...spent, watched, totals: changes.totals, generations: changes.to.generations };
} else {
  throw new Error(`unknown job ${job}`);
}
const ms = performance.now() - t0;
const usage = process.resourceUsage();
console.log(JSON.stringify({ ms, cpuMs: Math.round((usage.userCPUTime + usage.systemCPUTime) / 1000), maxRssMb: Math.round(usage.maxRSS / 1024), ...extra }));
