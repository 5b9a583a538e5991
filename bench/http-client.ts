/** The bench's HTTP client pieces, shared by the few-call cases and the load generator. */
import { readFileSync } from 'node:fs';
import http from 'node:http';

export interface Answer {
  status: number;
  bytes: number;
}

/** One request; resolves when the whole body has arrived (the client does not parse it). */
export function get(agent: http.Agent | false, url: string, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        agent,
        method: body ? 'POST' : 'GET',
        headers: body ? { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } : {},
      },
      (res) => {
        let bytes = 0;
        res.on('data', (b: Buffer) => (bytes += b.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The server's resident memory, MB, from /proc. */
export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

/** The server's CPU time so far (user + system), ms, from /proc: what its work cost, whatever the machine's load. */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of stat, in clock ticks (100 a second on Linux)
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}
