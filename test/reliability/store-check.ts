import fs from 'node:fs';
import { openStore } from '../../src/core/database/node.js';
import { readState, STATE_FILE } from '../../src/core/sync/metadata.js';
import { nodeHost } from '../../src/core/database/node.js';
import type { Service } from '../../src/core/sync/datasets.js';
import { historyFiles } from '../../src/core/sync/refresh/history.js';

/** Per table of a dataset: row count and an order-independent hash of every row, as the store answers. */
export type Checksums = Record<string, { n: number; h: string }>;

export async function checksums(dir: string, service: Service): Promise<{ generation: number; tables: Checksums }> {
  const state = await readState(nodeHost(dir).storage);
  const d = state.datasets[service];
  if (!d) return { generation: 0, tables: {} };
  const store = await openStore(dir);
  try {
    const tables: Checksums = {};
    for (const t of Object.keys(d.tables).sort()) {
      const [r] = await store.engine.all<{ n: number; h: string }>(`SELECT count(*) AS n, coalesce(sum(hash(t)), 0)::VARCHAR AS h FROM ${service}."${t}" t`);
      tables[t] = r;
    }
    return { generation: d.generation, tables };
  } finally {
    await store.close();
  }
}

/** Store files a dataset should hold after a finished sync: the state, its database, its sources. */
export async function leftovers(dir: string, service: Service): Promise<string[]> {
  const d = (await readState(nodeHost(dir).storage)).datasets[service]!;
  // A refreshed MF history also keeps its base generation, deltas, footer and snapshot (docs/storage.md).
  const keep = new Set([STATE_FILE, d.database, `${d.database}.wal`, ...Object.values(d.sources).map((s) => s.store), ...historyFiles(d.history)]);
  return fs.readdirSync(dir).filter((n) => !keep.has(n));
}
