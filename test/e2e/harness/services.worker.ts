/// <reference lib="webworker" />
/**
 * Opens the browser store inside this worker (its DuckDB in a nested worker) and answers three
 * questions: the parity calls (calls.ts), per-table checksums, and wall times of the MF bench cases
 * (bench/mf.ts; `npm run bench`'s Chromium query pairing). Terminating it lets go of the store.
 */
import { holdStore, openBrowserStore } from '../../../src/core/database/browser.js';
import type { Service } from '../../../src/core/sync/datasets.js';
import { runCalls } from './calls.js';
import { mfBenchCases } from '../../../bench/mf.js';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const ready = holdStore().then(() => openBrowserStore());

type Ask = { id: number; op: 'calls' } | { id: number; op: 'checksums'; service: Service } | { id: number; op: 'time'; index: number; calls: number };

scope.onmessage = async (ev: MessageEvent<Ask>) => {
  const m = ev.data;
  try {
    const store = await ready;
    let value: unknown;
    if (m.op === 'calls') value = await runCalls(store.engine);
    else if (m.op === 'time') {
      // `calls` timed calls of case `index`, as the service worker of a page meets them (DuckDB's worker, messages included).
      const c = (await mfBenchCases(store.engine))[m.index];
      const ms: number[] = [];
      for (let k = 0; k < m.calls; k++) {
        const t = performance.now();
        await c.run();
        ms.push(performance.now() - t);
      }
      value = { name: c.name, ms };
    } else {
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
