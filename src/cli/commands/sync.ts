import { bool, str, UsageError, type Args } from '../args.js';
import { isService, SERVICES, type Service } from '../../core/sync/datasets.js';
import { readState } from '../../core/sync/metadata.js';
import { syncRecorded } from '../../core/changes/recorder.js';
import type { SyncEvent } from '../../core/sync/progress.js';
import { nodeHost } from '../../core/database/node.js';
import { fileLock } from '../../core/sync/node-lock.js';
import { print } from '../print.js';
import type { Command } from './command.js';

const command: Command = {
  name: 'sync',
  summary: 'download what changed from the publishers and switch to the new data',
  usage: 'npm run cli -- sync --data DIR [--source URL] [--only indicators,mf,flags] [--full] [--json]',
  async run(args: Args) {
    const host = nodeHost(str(args, 'data'));
    const only = parseOnly(args);
    const state = await readState(host.storage);
    const known = SERVICES.map((s) => state.datasets[s]?.source_url).find(Boolean);
    const source = str(args, 'source', known ?? '');
    if (!source) throw new UsageError('missing --source (no earlier sync to take it from)');
    if (!/^https?:\/\//.test(source)) throw new UsageError(`--source must be an http(s) URL, got ${source}`);
    const json = bool(args, 'json');
    const bar = !json && process.stderr.isTTY ? progressBar() : undefined;
    // --full: the MF history downloaded whole and rebuilt (full verification); other files go by ETag.
    const history = { full: bool(args, 'full') };
    const { summary } = await syncRecorded(
      { storage: host.storage, host, source, only, history, lock: fileLock(host.storage.dir), onEvent: bar ?? (json ? undefined : logLine) },
      host,
    );
    bar?.({ type: 'switched', service: 'mf', generation: -1 });
    if (json) {
      await print(
        `${JSON.stringify({
          files: summary.files.map(({ service, name, status, body_bytes, error, refresh, reason }) => ({
            service, name, status, body_bytes, ...(error ? { error } : {}), ...(refresh ? { refresh } : {}), ...(reason ? { reason } : {}),
          })),
          body_bytes: summary.body_bytes,
          requests: summary.requests,
          generations: summary.generations,
          errors: summary.errors,
        })}\n`,
      );
    } else {
      for (const f of summary.files) {
        await print(`${f.service}/${f.name}: ${f.status}${f.body_bytes ? ` (${f.body_bytes} bytes)` : ''}${f.detail ? `, ${f.detail}` : ''}${f.error ? ` — ${f.error}` : ''}\n`);
      }
      await print(`${summary.body_bytes} body bytes in ${summary.requests} requests\n`);
      for (const e of summary.errors) process.stderr.write(`error: ${e}\n`);
    }
    return summary.errors.length > 0 || summary.files.some((f) => f.status === 'failed') ? 1 : 0;
  },
};
export default command;

function parseOnly(args: Args): Service[] | undefined {
  const v = args.flags.only;
  if (v === undefined) return undefined;
  if (v === true) throw new UsageError('--only needs a list, e.g. --only mf,flags');
  const names = v.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = names.filter((n) => !isService(n));
  if (bad.length) throw new UsageError(`--only: unknown dataset ${bad.join(', ')} (known: ${SERVICES.join(', ')})`);
  return names as Service[];
}

function logLine(e: SyncEvent) {
  if (e.type === 'waiting' && e.seconds % 10 === 0) process.stderr.write(`${e.service}: waiting ${e.seconds}s (${e.reason})\n`);
  if (e.type === 'switched') process.stderr.write(`${e.service}: now at generation ${e.generation}\n`);
  if (e.type === 'service-failed') process.stderr.write(`${e.service}: ${e.error}\n`);
}

/** One redrawn line on the terminal: file, bytes, rate, ETA, or the countdown of a wait. */
function progressBar() {
  let last = 0;
  return (e: SyncEvent) => {
    let line: string | null = null;
    if (e.type === 'progress') {
      if (Date.now() - last < 100 && e.bytes < e.total) return;
      last = Date.now();
      const pct = e.total ? e.bytes / e.total : 1;
      const filled = Math.round(pct * 30);
      const eta = e.eta === null ? '' : ` ETA ${Math.ceil(e.eta)}s`;
      line = `${e.service}/${e.file} [${'#'.repeat(filled)}${'.'.repeat(30 - filled)}] ${mib(e.bytes)}/${mib(e.total)} MiB ${mib(e.rate)} MiB/s${eta}`;
    } else if (e.type === 'waiting') {
      line = `${e.service}${e.file ? `/${e.file}` : ''}: ${e.reason}, ${e.seconds}s`;
    } else if (e.type === 'ingest') {
      line = `${e.service}.${e.table}: ${e.rows} rows loaded`;
    } else if (e.type === 'switched' && e.generation < 0) {
      process.stderr.write('\r\x1b[K');
      return;
    }
    if (line !== null) process.stderr.write(`\r\x1b[K${line.slice(0, (process.stderr.columns ?? 100) - 1)}`);
  };
}

function mib(n: number): string {
  return (n / 2 ** 20).toFixed(1);
}
