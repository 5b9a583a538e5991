/// <reference lib="webworker" />
/**
 * Opens the browser store inside this worker (its DuckDB in a nested worker) and answers two
 * questions: the parity calls (calls.ts) and per-table checksums. Terminating it lets go of the store.
 */
import { holdStore, openBrowserStore } from '../../../src/core/database/browser.js';
import type { Service } from '../../../src/core/sync/datasets.js';
import { runCalls } from './calls.js';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const ready = holdStore().then(() => openBrowserStore());

scope.onmessage = async (ev: MessageEvent<{ id: number; op: 'calls' } | { id: number; op: 'checksums'; service: Service }>) => {
  const m = ev.data;
  try {
    const store = await ready;
    let value: unknown;
    if (m.op === 'calls') value = await runCalls(store.engine);
    else {
      const d = (await store.state()).datasets[m.service];
      const tables: Record<string, { n: number; h: string }> = {};
      for (const t of Object.keys(d?.tables ?? {}).sort()) {
        const [r] = await store.engine.all<{ n: number; h: string }>(
          `SELECT count(*) AS n, coalesce(sum(hash(t)), 0)::VARCHAR AS h FROM ${m.service}."${t}" t`,
        );
        tables[t] = r;
      }
      value = { generation: d?.generation ?? 0, tables };
    }
    scope.postMessage({ id: m.id, value });
  } catch (e) {
    scope.postMessage({ id: m.id, error: e instanceof Error ? e.message : String(e) });
  }
};
