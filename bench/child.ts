/**
 * One measured job in its own process, so its peak RSS is its own: `sync` (Almanac: download + ingest
 * through the real sync engine), `native-load` (native DuckDB loading the same parquet),
 * `native-queries` (native DuckDB asking what the Chromium memory case asks, over a Node store) or
 * `native-first` (native DuckDB's first NAV call in a fresh process).
 * Prints one JSON line: { ms, cpuMs, maxRssMb, ... } (cpuMs: the process's user + system CPU time, which
 * the shared machine's load does not inflate as it does the wall time).
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { sync } from '../src/core/sync/sync.js';
import { nodeHost } from '../src/core/database/node.js';
import { SERVICE_DEFS, SERVICES, contractOf, type Service } from '../src/core/sync/datasets.js';
import { projection } from '../src/core/sync/ingest.js';
import { parseNavParams, parseSearchParams } from '../src/core/contract/mf-params.js';
import { navRows, schemeNav } from '../src/core/services/mf/nav.js';
import { browse } from '../src/core/services/mf/search.js';
import { NativeEngine } from './native-engine.js';
import { NodeHost, openStore } from '../src/core/database/node.js';
import { Store } from '../src/core/database/store.js';
import { NodeEngine } from '../src/core/engine/node.js';
import { FsStorage } from '../src/core/storage/fs.js';
import { mfBenchCases } from './mf.js';
import { measure, stats, warmUp } from './lib.js';
import { ChangeRecorder } from '../src/core/changes/recorder.js';
import { WATCHES_FILE } from '../src/core/changes/watches.js';
import { MemoryStorage } from '../src/core/storage/memory.js';
import { fileState, normalizeState, type DatasetState, type StateStore } from '../src/core/sync/metadata.js';
import type { QueryPlan } from './chromium.js';
import type { HistoryChanges } from '../src/core/sync/progress.js';

const [job, a, b, c] = process.argv.slice(2);
const t0 = performance.now();
let extra: Record<string, unknown> = {};
if (job === 'sync') {
  const host = nodeHost(b);
  const summary = await sync({ storage: host.storage, host, source: a, only: c ? (c.split(',') as Service[]) : undefined });
  if (summary.errors.length) throw new Error(summary.errors.join('; '));
  extra = { requests: summary.requests, body_bytes: summary.body_bytes, statuses: summary.files.map((f) => f.status), details: summary.files.flatMap((f) => (f.detail ? [f.detail] : [])) };
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
  for (const code of plan.navCodes) await step(`NAV history ${code}`, () => schemeNav(native, parseNavParams([['scheme', code]])));
  await step('search', () => browse(native, parseSearchParams([...plan.search, ['active', 'active'], ['limit', '50']])));
  for (const q of plan.sql) await step(q.label, () => native.materialize(q.sql));
  await native.close();
  extra = { steps };
} else if (job === 'native-first') {
  // Native DuckDB's first call in a process of its own, as the server's is (bench/http.ts): `a` a copy
  // of the store, `b` the scheme. Opening and attaching are not timed; the call is the NAV service's
  // data statement, every row to JS.
  const opened = performance.now();
  const native = await NativeEngine.over(a);
  const open = performance.now() - opened;
  const t1 = performance.now();
  await navRows(native, [Number(b)], { latest: false });
  extra = { first: performance.now() - t1, open };
  await native.close();
} else if (job === 'mf-queries') {
  // The MF query cases over two stores (`a`: refreshed, `b`: synced fresh), `c` timed calls each, CPU
  // medians per case. One engine in one process serves both, attaching one store's databases at a time
  // in alternating runs: both see the same machine and the same V8 tiers, which separate processes did
  // not (measured: one store's search 9.0 then 6.0 ms CPU in two processes; two engines in one thread
  // cannot be used instead, they share one table of open files, docs/storage.md hazard 6).
  const engine = await NodeEngine.open();
  const [refreshed, fresh] = [swappable(engine, a), swappable(engine, b)];
  const cpu: Record<string, [number, number]> = {};
  const names = (await refreshed.use(() => mfBenchCases(engine))).map((q) => q.name);
  for (const [i, name] of names.entries()) {
    const samples: [number[], number[]] = [[], []];
    // Runs of 10 calls, the sides in turn and in ABBA order; attaching starts with an empty buffer
    // pool, so each run's first calls (and the first run's JIT warm-up) are not timed.
    for (let run = 0; samples[0].length < Number(c); run++) {
      for (const side of run % 2 ? [1, 0] : [0, 1]) {
        await [refreshed, fresh][side].use(async () => {
          const q = (await mfBenchCases(engine))[i];
          if (run < 2) await warmUp(q.run, 1000, 5000);
          for (let k = 0; k < 3; k++) await q.run();
          for (let k = 0; k < 10; k++) samples[side].push((await measure(q.run)).cpu);
        });
      }
    }
    cpu[name] = [stats(samples[0]).median, stats(samples[1]).median];
  }
  await engine.close();
  extra = { cpu };
} else if (job === 'changes') {
  // A sync of the next generation recording its changes for 100 watches (bench/run.ts adds them), as
  // the CLI runs it: `compare` is the time its comparisons took. After each, two more recorders with
  // their list and log in memory compare the same switch again, alternating REPEAT times: without
  // watches (`baseline`) and with the same 100 (`watchedAgain`), each the sum over the switches of
  // its median (the machine is shared and noisy; the first call also starts that recorder's engine).
  // Both are taken off the sync's time. Wall and CPU (this process, all threads).
  const REPEAT = 3;
  const host = nodeHost(b);
  const state = fileState(host.storage);
  const recorder = await ChangeRecorder.begin(host.storage, state);
  const baseline = await ChangeRecorder.begin(new MemoryStorage(), state);
  const copy = new MemoryStorage();
  await copy.writeTextAtomic(WATCHES_FILE, (await host.storage.readText(WATCHES_FILE)) ?? '');
  const again = await ChangeRecorder.begin(copy, state);
  const scratch = [recorder, baseline, again].map((r) => r.inScratch(host));
  const zero = () => ({ wall: 0, cpu: 0 });
  const spent = [zero(), zero(), zero()];
  /** What the measuring's own comparisons took in all (taken off the sync's time). */
  const extraTime = zero();
  const add = (into: { wall: number; cpu: number }, m: { wall: number; cpu: number }) => {
    into.wall += m.wall;
    into.cpu += m.cpu;
  };
  const median = (xs: number[]) => stats(xs).median;
  const compareSwitch = async (service: Service, next: DatasetState, history?: HistoryChanges) => {
    add(spent[0], await measure(() => scratch[0].onSwitch(service, next, history)));
    const runs: { wall: number; cpu: number }[][] = [[], []];
    for (let k = 0; k < REPEAT; k++) {
      for (const i of [1, 2]) {
        const m = await measure(() => scratch[i].onSwitch(service, next, history));
        runs[i - 1].push(m);
        add(extraTime, m);
      }
    }
    for (const i of [1, 2]) add(spent[i], { wall: median(runs[i - 1].map((m) => m.wall)), cpu: median(runs[i - 1].map((m) => m.cpu)) });
  };
  // No rate limits (the publisher runs without): waits would pad the sync and flatter the share.
  const rules = Object.fromEntries(SERVICES.map((s) => [s, []]));
  const c0 = process.cpuUsage();
  const s0 = performance.now();
  const summary = await sync({
    storage: host.storage, host, source: a, rules,
    onSwitch: compareSwitch,
  });
  add(spent[0], await measure(() => scratch[0].close()));
  for (const i of [1, 2]) add(extraTime, await measure(() => scratch[i].close()));
  const changes = await recorder.finish(summary);
  if (!changes || summary.errors.length || changes.errors) throw new Error([...summary.errors, ...(changes?.errors ?? [])].join('; '));
  const c = process.cpuUsage(c0);
  const [compare, bare, watchedAgain] = spent;
  // The sync as run, less the measuring's own comparisons.
  const sync_ = { wall: performance.now() - s0 - extraTime.wall, cpu: (c.user + c.system) / 1000 - extraTime.cpu };
  // What starting the comparing engine costs (once a sync), the module compiled.
  const engineStart = await measure(async () => (await host.scratch()).close());
  const watched = changes.watched.schemes.length + changes.watched.companies.length + changes.watched.indicators.length;
  const history = summary.history?.mf?.detail ?? 'unchanged';
  extra = { sync: sync_, compare, baseline: bare, watchedAgain, engineStart, watched, history, totals: changes.totals, generations: changes.to.generations };
} else {
  throw new Error(`unknown job ${job}`);
}
const ms = performance.now() - t0;
const usage = process.resourceUsage();
console.log(JSON.stringify({ ms, cpuMs: Math.round((usage.userCPUTime + usage.systemCPUTime) / 1000), maxRssMb: Math.round(usage.maxRSS / 1024), ...extra }));

/** A store whose databases `engine` holds only while `use` runs (Store.refresh over an empty state detaches them). */
function swappable(engine: NodeEngine, dir: string) {
  const storage = new FsStorage(dir);
  const file = fileState(storage);
  let on = false;
  const state: StateStore = { read: async () => (on ? file.read() : normalizeState(null)), update: (f) => file.update(f) };
  const store = new Store(engine, storage, new NodeHost(storage), state);
  return {
    async use<T>(fn: () => Promise<T>): Promise<T> {
      on = true;
      await store.refresh();
      try {
        return await fn();
      } finally {
        on = false;
        await store.refresh();
      }
    },
  };
}
