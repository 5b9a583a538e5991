import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startPublisher, type Publisher, type PublisherOptions } from '../../../src/publisher/server.js';
import { SERVICES, type Service } from '../../../src/core/sync/datasets.js';
import { sync, type SyncOptions } from '../../../src/core/sync/sync.js';
import { readState } from '../../../src/core/sync/metadata.js';
import { nodeHost, openStore } from '../../../src/core/database/node.js';
import { publishTiny, type TinyOptions } from '../../helpers/tiny-data.js';

/**
 * Puts tiny sample data for `services` into `dir` (the publisher's data): generation N of weekly
 * publishes, or a sequence as `publishTiny` takes it (`{ publishes: [{ step: 'day' }, …] }`).
 */
export async function generate(dir: string, services: readonly Service[], at: number | TinyOptions = 1): Promise<void> {
  await publishTiny(dir, services, typeof at === 'number' ? { generation: at } : at);
}

/**
 * Client rate rules for a publisher started with `limits: 'off'`: none. The published limits (10
 * downloads a minute for flags and indicators) would otherwise make a test of anything but the limits
 * sleep a minute every few syncs; test/reliability/network.test.ts tests the client's limiter.
 */
export const NO_LIMITS: SyncOptions['rules'] = Object.fromEntries(SERVICES.map((s) => [s, []]));

export function tempDir(name: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `almanac-${name}-`));
}

export interface Bench {
  pubDir: string;
  storeDir: string;
  publisher: Publisher;
  host: ReturnType<typeof nodeHost>;
  run(extra?: Partial<SyncOptions>): ReturnType<typeof sync>;
  /** Rows per table as the store answers them (opens and closes a store). */
  counts(service: Service): Promise<Record<string, number>>;
  manifestRows(service: Service): Record<string, number>;
  close(): Promise<void>;
}

export async function bench(services: readonly Service[], opts: Partial<PublisherOptions> = {}, pubDir?: string): Promise<Bench> {
  const root = tempDir('sync');
  const dataDir = pubDir ?? path.join(root, 'pub');
  if (!pubDir) await generate(dataDir, services);
  const storeDir = path.join(root, 'store');
  const publisher = await startPublisher({ dataDir, limits: 'off', ...opts });
  const host = nodeHost(storeDir);
  return {
    pubDir: dataDir,
    storeDir,
    publisher,
    host,
    run: (extra = {}) =>
      sync({ storage: host.storage, host, source: publisher.url, only: services, retry: { baseMs: 20 }, rules: NO_LIMITS, ...extra }),
    async counts(service) {
      const state = await readState(host.storage);
      const store = await openStore(storeDir);
      try {
        const out: Record<string, number> = {};
        for (const t of Object.keys(state.datasets[service]?.tables ?? {})) {
          const [{ n }] = await store.engine.all<{ n: number }>(`SELECT count(*) AS n FROM ${service}."${t}"`);
          out[t] = n;
        }
        return out;
      } finally {
        await store.close();
      }
    },
    manifestRows(service) {
      const m = JSON.parse(fs.readFileSync(path.join(dataDir, service, 'manifest.json'), 'utf8')) as {
        files: Record<string, { row_count: number }>;
      };
      const out: Record<string, number> = {};
      const state = JSON.parse(fs.readFileSync(path.join(storeDir, 'state.json'), 'utf8'));
      for (const [table, t] of Object.entries(state.datasets[service].tables as Record<string, { file: string }>)) {
        const entry = Object.entries(m.files).find(([name]) => name.startsWith(`${table}.`) || name === t.file);
        out[table] = entry ? entry[1].row_count : -1;
      }
      return out;
    },
    async close() {
      await publisher.close();
    },
  };
}
