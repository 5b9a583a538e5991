/**
 * The load case of issue 22, loopback only and bounded: 200 keep-alive clients on a cheap route, each
 * waiting 100 ms between requests (~2,000 requests/s offered), plus 20 slowloris sockets that send a
 * header line a second and never finish, for 10 s; meanwhile a probe opens a new connection every
 * 250 ms and times its first answer (the response headers). The generator runs in this process, on
 * the same machine as the server.
 */
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { get, rssMb, type ServedStore } from './http.js';
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

export async function loadCase(server: ServedStore, name: string): Promise<BenchResult[]> {
  const { hostname, port } = new URL(server.url);
  const rssBefore = rssMb(server.pid);
  const loadBefore = os.loadavg();
  const end = performance.now() + DURATION_MS;
  const answers: number[] = [];
  let failures = 0;

  const client = async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    while (performance.now() < end) {
      const t0 = performance.now();
      try {
        const r = await get(agent, server.url + CHEAP);
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

  const probes: Promise<number>[] = [];
  const probe = () =>
    new Promise<number>((resolve) => {
      const t0 = performance.now();
      const req = http.get(server.url + CHEAP, { agent: false }, (res) => {
        resolve(res.statusCode === 200 ? performance.now() - t0 : Infinity);
        res.resume();
      });
      req.setTimeout(PROBE_GIVE_UP_MS, () => req.destroy());
      req.on('error', () => resolve(Infinity));
    });
  const probing = (async () => {
    while (performance.now() < end) {
      probes.push(probe());
      await sleep(PROBE_EVERY_MS);
    }
  })();

  await Promise.all([...Array.from({ length: CLIENTS }, client), ...Array.from({ length: SLOWLORIS }, slowloris), probing]);
  const probeTimes = await Promise.all(probes);
  await sleep(1000);
  const rssAfter = rssMb(server.pid);
  const loadAfter = os.loadavg();

  const probeFailed = probeTimes.filter((t) => !Number.isFinite(t)).length;
  const probeStats = stats(probeTimes.map((t) => (Number.isFinite(t) ? t : PROBE_GIVE_UP_MS)));
  const answerStats = answers.length ? stats(answers) : null;
  const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(0.99 * xs.length))];
  const probeP99 = p99(probeTimes.map((t) => (Number.isFinite(t) ? t : PROBE_GIVE_UP_MS)));
  const answerP99 = answers.length ? p99(answers) : NaN;
  const la = (l: number[]) => l.map((x) => x.toFixed(1)).join(' / ');
  const summary =
    `${answers.length} answers and ${failures} failures from ${CLIENTS} keep-alive clients on ${CHEAP} (each waiting ${PAUSE_MS} ms between requests) over ${DURATION_MS / 1000} s, ` +
    `answer time p99 ${Math.round(answerP99)} ms (median ${Math.round(answerStats?.median ?? NaN)}); ${SLOWLORIS} slowloris sockets, ${slowClosedByServer} closed by the server before the end; ` +
    `probe: ${probeTimes.length} new connections, ${probeFailed} unanswered within ${PROBE_GIVE_UP_MS / 1000} s, first answer median ${Math.round(probeStats.median)} ms, p99 ${Math.round(probeP99)} ms; ` +
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
