/**
 * The load case of issue 22, loopback only and bounded: 200 keep-alive clients on a cheap route, each
 * waiting 100 ms between requests (~2,000 requests/s offered), plus 20 slowloris sockets that send a
 * header line a second and never finish, for 10 s; meanwhile a probe opens a new connection every
 * 250 ms and times its first answer (the response headers). The generator runs in a process of its
 * own (this file run as a script), the probe in the bench's: a probe sharing the generator's event loop
 * timed that loop's lag as much as the server. All three on the same machine as the server.
 */
import http from 'node:http';
import net from 'node:net';
import { spawn } from 'node:child_process';
import os from 'node:os';
import { get, rssMb } from './http-client.js';
import type { ServedStore } from './http.js';
import { stats, type BenchResult } from './lib.js';

const DURATION_MS = 10_000;
const CLIENTS = 200;
const PAUSE_MS = 100;
const SLOWLORIS = 20;
const PROBE_EVERY_MS = 250;
/** A probe not answered by then counts as failed (and at this time in the p99). */
const PROBE_GIVE_UP_MS = 10_000;
/** Answered from constants, without the engine: the server's own overhead under load. */
const CHEAP = '/mf/v1/terms';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the generator reports. */
interface Generated {
  answers: number[];
  failures: number;
  slowClosedByServer: number;
}

/** The 200 clients and the 20 slowloris sockets against `url`, for DURATION_MS. */
async function generate(url: string): Promise<Generated> {
  const { hostname, port } = new URL(url);
  const end = performance.now() + DURATION_MS;
  const answers: number[] = [];
  let failures = 0;

  const client = async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    while (performance.now() < end) {
      const t0 = performance.now();
      try {
        const r = await get(agent, url + CHEAP);
        if (r.status === 200) answers.push(performance.now() - t0);
        else failures++;
      } catch {
        failures++;
      }
      await sleep(PAUSE_MS);
    }
    agent.destroy();
  };

  /** Sends the request line and one header line a second, never the blank line that ends the headers. */
  let slowClosedByServer = 0;
  const slowloris = async () => {
    const socket = net.connect(Number(port), hostname);
    socket.on('error', () => {});
    // Read what the server sends (its 408): a socket nobody reads never sees the end that follows it,
    // so the close it counts would come only at socket.destroy() below, after the window.
    socket.resume();
    let closed = false;
    socket.once('close', () => {
      closed = true;
      if (performance.now() < end) slowClosedByServer++;
    });
    socket.write(`GET ${CHEAP} HTTP/1.1\r\nHost: ${hostname}\r\n`);
    for (let i = 0; !closed && performance.now() < end; i++) {
      await sleep(1000);
      if (!closed) socket.write(`x-slow-${i}: 1\r\n`);
    }
    socket.destroy();
  };

  await Promise.all([...Array.from({ length: CLIENTS }, client), ...Array.from({ length: SLOWLORIS }, slowloris)]);
  return { answers, failures, slowClosedByServer };
}

/** A new connection every PROBE_EVERY_MS for DURATION_MS; each one's time to its first answer (Infinity: none). */
async function probe(url: string): Promise<number[]> {
  const once = () =>
    new Promise<number>((resolve) => {
      const t0 = performance.now();
      const req = http.get(url + CHEAP, { agent: false }, (res) => {
        resolve(res.statusCode === 200 ? performance.now() - t0 : Infinity);
        res.resume();
      });
      req.setTimeout(PROBE_GIVE_UP_MS, () => req.destroy());
      req.on('error', () => resolve(Infinity));
    });
  const end = performance.now() + DURATION_MS;
  const probes: Promise<number>[] = [];
  while (performance.now() < end) {
    probes.push(once());
    await sleep(PROBE_EVERY_MS);
  }
  return Promise.all(probes);
}

export async function loadCase(server: ServedStore, name: string): Promise<BenchResult[]> {
  const rssBefore = rssMb(server.pid);
  const loadBefore = os.loadavg();
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/http-load.ts', server.url], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const started = new Promise<void>((resolve) => child.stdout.on('data', (b: Buffer) => ((out += b), out.includes('\n') && resolve())));
  const done = new Promise<Generated>((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out.slice(out.indexOf('\n') + 1)) as Generated) : reject(new Error(`load generator exited ${code}`)))),
  );
  await started;
  const probeTimes = await probe(server.url);
  const { answers, failures, slowClosedByServer } = await done;
  await sleep(1000);
  const rssAfter = rssMb(server.pid);
  const loadAfter = os.loadavg();

  const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(0.99 * xs.length))];
  const probeFailed = probeTimes.filter((t) => !Number.isFinite(t)).length;
  const probeCapped = probeTimes.map((t) => (Number.isFinite(t) ? t : PROBE_GIVE_UP_MS));
  const probeStats = stats(probeCapped);
  const probeP99 = p99(probeCapped);
  const answerStats = answers.length ? stats(answers) : null;
  const answerP99 = answers.length ? p99(answers) : NaN;
  const la = (l: number[]) => l.map((x) => x.toFixed(1)).join(' / ');
  const summary =
    `${answers.length} answers and ${failures} failures from ${CLIENTS} keep-alive clients on ${CHEAP} (each waiting ${PAUSE_MS} ms between requests) over ${DURATION_MS / 1000} s, ` +
    `answer time p99 ${Math.round(answerP99)} ms (median ${Math.round(answerStats?.median ?? NaN)}); ${SLOWLORIS} slowloris sockets, ${slowClosedByServer} closed by the server before the end; ` +
    `probe (a process of its own): ${probeTimes.length} new connections, ${probeFailed} unanswered within ${PROBE_GIVE_UP_MS / 1000} s, first answer median ${Math.round(probeStats.median)} ms, p99 ${Math.round(probeP99)} ms; ` +
    `load ${la(loadBefore)} -> ${la(loadAfter)}`;
  return [
    {
      case: name,
      unit: 'ms',
      measure: 'wall',
      almanac: probeP99,
      target: 'p99 < 1 s',
      met: probeP99 < 1000 && probeFailed === 0,
      note: summary,
      detail: { answers: answers.length, failures, answer_p99_ms: answerP99, answer: answerStats, probe: probeStats, probe_p99_ms: probeP99, probe_failed: probeFailed, slowloris_closed: slowClosedByServer, load_before: loadBefore, load_after: loadAfter },
    },
    {
      case: 'http load: server RSS after the few-call cases and the load',
      unit: 'MB',
      almanac: rssAfter,
      reference: { name: 'the same server before the load (after the few-call cases)', value: rssBefore },
      target: 'within +10 % of the server before this work (docs/performance.md)',
      note: `RSS ${rssBefore} MB before the load, ${rssAfter} MB 1 s after it`,
    },
  ];
}

// Run as a script: the generator, reporting on stdout.
if (process.argv[1]?.endsWith('http-load.ts')) {
  process.stdout.write('started\n');
  process.stdout.write(JSON.stringify(await generate(process.argv[2])));
}
