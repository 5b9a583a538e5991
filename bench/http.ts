/**
 * The few-call regime (issue 22): what a script, a notebook or an MCP agent waits for when it makes a
 * handful of calls to `npm run cli -- serve`, not a hundred. Wall time over HTTP, one keep-alive
 * socket, 3 warm-ups then 30 timed calls, alternating in runs of five with native DuckDB
 * (@duckdb/node-api) running only the data statement on a copy of the same store, every row handed to
 * JS. Everything else Almanac does per request (resolving the scheme, freshness, JSON, HTTP) counts
 * against it. Then the first NAV request after the server first answers, an MCP tools/call against
 * the REST call for the same question, and a load case (bench/http-load.ts) with the server's RSS
 * after it. The server runs in a child process, as a user runs it; the client and native here.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import http from 'node:http';
import { cpuMs, get, type Answer } from './http-client.js';
import os from 'node:os';
import path from 'node:path';
import { NativeEngine } from './native-engine.js';
import { PICK_SQL } from './mf.js';
import { MIXED_IDS_SQL } from './cases.js';
import { interleaved, ratio, stats, type BenchResult, type Stats } from './lib.js';
import { navRows } from '../src/core/services/mf/nav.js';
import { browse } from '../src/core/services/mf/search.js';
import { series } from '../src/core/services/indicators/series.js';
import { parseSearchParams, type NavWindow } from '../src/core/contract/mf-params.js';
import { loadCase } from './http-load.js';

const WARMUPS = 3;
const TIMED = 30;
/**
 * Servers started for the first-call case (each ~5 s at full scale). Nine, not five: native's own first
 * call ranges 14-108 ms within a run, and medians of five moved the ratio by more than its margin.
 */
const FIRST_SPAWNS = 9;

export interface ServedStore {
  url: string;
  pid: number;
  /** ms from spawn to the server's first answer. */
  firstAnswerMs: number;
  stop(): Promise<void>;
}

/** `npm run cli -- serve` over `storeDir` on a free loopback port; resolves once it has answered. */
export async function serve(storeDir: string): Promise<ServedStore> {
  const t0 = performance.now();
  const proc: ChildProcess = spawn(process.execPath, ['scripts/cli.mjs', 'serve', '--data', storeDir, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, HOME: os.tmpdir() },
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /Almanac local server: (http:\/\/[^/\s]+)\//.exec(out);
      if (m) resolve(m[1]);
    });
    proc.once('exit', (code) => reject(new Error(`serve exited (${code}) before it listened: ${out}`)));
  });
  for (;;) {
    const r = await get(new http.Agent(), `${url}/mf/v1/terms`).catch(() => null);
    if (r?.status === 200) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  return {
    url,
    pid: proc.pid!,
    firstAnswerMs: performance.now() - t0,
    stop: () =>
      new Promise<void>((resolve) => {
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}

const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' / ');
const r1 = (n: number) => Math.round(n * 10) / 10;
const spread = (s: Stats) => `median ${r1(s.median)} ms (min ${r1(s.min)}, p90 ${r1(s.p90)})`;

/** Every call must succeed: a 4xx/5xx answered fast is no answer. */
async function ok(a: Promise<Answer>, what: string): Promise<Answer> {
  const r = await a;
  if (r.status !== 200) throw new Error(`${what}: HTTP ${r.status}`);
  return r;
}

export async function httpCases(storeDir: string, scratch: string, wants: (name: string) => boolean, child: (...argv: string[]) => Promise<unknown>): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const copy = path.join(scratch, 'native-copy');
  rmSync(copy, { recursive: true, force: true });
  cpSync(storeDir, copy, { recursive: true, filter: (f) => !f.endsWith('.wal') });

  // What to ask, chosen from the data by native DuckDB (not timed).
  let native = await NativeEngine.over(copy);
  const picked = await native.all<{ scheme_code: number; nav_date: string }>(PICK_SQL);
  const [{ scheme_code: longest, n: longestRows }] = await native.all<{ scheme_code: number; n: number }>(
    'SELECT scheme_code, count(*) AS n FROM mf.nav GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1',
  );
  const ids = (await native.all<{ indicator_id: string }>(MIXED_IDS_SQL)).map((r) => r.indicator_id);
  const fifty = picked.map((p) => p.scheme_code).join(',');
  const asOf = picked[0].nav_date.slice(0, 8) + '01';
  await native.close();

  /** The NAV service's own data statements (src/core/services/mf/nav.ts `navRows`), on native, rows to JS. */
  const dataStatement = (codes: number[], w: Partial<NavWindow>) => navRows(native, codes, { latest: false, ...w });
  // The first NAV request after the server first answers, against native's first call on a fresh
  // instance: one sample each is noise (page cache, the warm-up's step in progress), so FIRST_SPAWNS
  // servers and as many native instances, taking turns, and the medians compared. The target's
  // reference is the issue's: a new instance in this long-running process. Beside it, native's first
  // call in a process of its own, as the server's is: a new process touches its memory for the first
  // time, and on this machine (a VM) a page touched first costs ~15-70 µs (docs/performance.md).
  // That one is reported, not judged.
  const firstNavName = 'http few-call: first NAV request after the server first answers';
  if (wants(firstNavName)) {
    const ours: number[] = [];
    const theirs: number[] = [];
    const opens: number[] = [];
    const readies: number[] = [];
    const own: number[] = [];
    for (let i = 0; i < FIRST_SPAWNS; i++) {
      const s = await serve(storeDir);
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        readies.push(s.firstAnswerMs);
        const t0 = performance.now();
        await ok(get(agent, `${s.url}/mf/v1/nav?scheme=${longest}`), 'first NAV');
        ours.push(performance.now() - t0);
      } finally {
        agent.destroy();
        await s.stop();
      }
      const opened = performance.now();
      native = await NativeEngine.over(copy);
      try {
        opens.push(performance.now() - opened);
        const t1 = performance.now();
        await dataStatement([longest], {});
        theirs.push(performance.now() - t1);
      } finally {
        await native.close();
      }
      own.push(((await child('native-first', copy, String(longest))) as { first: number }).first);
    }
    const [a, n, o] = [stats(ours), stats(theirs), stats(own)];
    results.push({
      case: firstNavName,
      unit: 'ms',
      measure: 'wall',
      almanac: a,
      reference: { name: "native DuckDB's first call on a fresh instance (data statement only)", value: n },
      ratio: ratio(a.median, n.median),
      target: '<= 3x native',
      met: a.median <= 3 * n.median,
      note: `the longest scheme (${longestRows} rows), asked as soon as the server first answered (${Math.round(stats(readies).median)} ms after spawn, median), ${FIRST_SPAWNS} servers and ${FIRST_SPAWNS} native instances taking turns: Almanac ${spread(a)}, native ${spread(n)}, native opened and attached in ${Math.round(stats(opens).median)} ms before its call (not counted); native's first call in a process of its own ${spread(o)}, ratio ${ratio(a.median, o.median)}x (reported, not judged); load ${load()}`,
    });
  }
  native = await NativeEngine.over(copy);
  const server = await serve(storeDir);
  try {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

    const cases: { name: string; path: string; native: () => Promise<unknown>; reference: string }[] = [
      {
        name: `http few-call: mf nav history, longest scheme (${longestRows} rows)`,
        path: `/mf/v1/nav?scheme=${longest}`,
        native: () => dataStatement([longest], {}),
        reference: 'native DuckDB, the data statement only, rows to JS',
      },
      {
        name: 'http few-call: mf nav history, one scheme',
        path: `/mf/v1/nav?scheme=${picked[0].scheme_code}`,
        native: () => dataStatement([picked[0].scheme_code], {}),
        reference: 'native DuckDB, the data statement only, rows to JS',
      },
      {
        name: 'http few-call: mf latest as of a date, 50 schemes',
        path: `/mf/v1/nav?schemes=${fifty}&latest=true&to=${asOf}`,
        native: () => dataStatement(picked.map((p) => p.scheme_code), { latest: true, to: asOf }),
        reference: 'native DuckDB, the data statement only, rows to JS',
      },
      {
        name: 'http few-call: mf search, three filters',
        path: '/mf/v1/search?group=equity&plan=direct&option=growth',
        native: () => browse(native, parseSearchParams([['group', 'equity'], ['plan', 'direct'], ['option', 'growth']])),
        reference: "native DuckDB running the service's statements (the same SQL), rows to JS",
      },
      {
        name: 'http few-call: series, 10 mixed-frequency ids',
        path: `/v1/series?ids=${ids.join(',')}`,
        native: () => series(native, { ids, from: null, to: null, format: 'json' }),
        reference: "native DuckDB running the service's statements (the same SQL), rows to JS",
      },
    ];
    for (const c of cases) {
      if (!wants(c.name)) continue;
      const call = () => ok(get(agent, server.url + c.path), c.name);
      for (let i = 0; i < WARMUPS; i++) {
        await call();
        await c.native();
      }
      const before = load();
      const cpu0 = cpuMs(server.pid);
      const [a, n] = await interleaved(call, c.native, TIMED);
      const serverCpu = (cpuMs(server.pid) - cpu0) / TIMED;
      results.push({
        case: c.name,
        unit: 'ms',
        measure: 'wall',
        almanac: a.wall,
        reference: { name: c.reference, value: n.wall },
        ratio: ratio(a.wall, n.wall),
        target: '<= 2x native',
        met: a.wall.median <= 2 * n.wall.median,
        note:
          `wall time, one keep-alive socket, ${WARMUPS} warm-ups then ${TIMED} calls alternating in runs of 5; Almanac ${spread(a.wall)}, native ${spread(n.wall)}; ` +
          `CPU per call (what the machine's load does not inflate): the server ${r1(serverCpu)} ms (mean, 10 ms ticks), native ${r1(n.cpu.median)} ms (median); load ${before} -> ${load()}`,
        detail: { server_cpu_ms_per_call: serverCpu, native_cpu: n.cpu },
      });
    }

    const mcpName = 'http few-call: MCP tools/call mf_nav vs the REST call';
    if (wants(mcpName)) {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'mf_nav', arguments: { scheme: String(picked[0].scheme_code) } } });
      const mcp = () => ok(get(agent, `${server.url}/mcp`, body), 'mcp');
      const rest = () => ok(get(agent, `${server.url}/mf/v1/nav?scheme=${picked[0].scheme_code}`), 'rest');
      for (let i = 0; i < WARMUPS; i++) {
        await mcp();
        await rest();
      }
      const before = load();
      const [m, r] = await interleaved(mcp, rest, TIMED);
      results.push({
        case: mcpName,
        unit: 'ms',
        measure: 'wall',
        almanac: m.wall,
        reference: { name: 'the same question over REST, same server', value: r.wall },
        ratio: ratio(m.wall, r.wall),
        target: '<= 2x REST',
        met: m.wall.median <= 2 * r.wall.median,
        note: `MCP ${spread(m.wall)}, REST ${spread(r.wall)}; load ${before} -> ${load()}`,
      });
    }
    agent.destroy();
    await native.close();

    const loadName = "http load: a new connection's first answer";
    if (wants('http load')) results.push(...(await loadCase(server, loadName)));
  } finally {
    await server.stop();
    rmSync(copy, { recursive: true, force: true });
  }
  return results;
}

