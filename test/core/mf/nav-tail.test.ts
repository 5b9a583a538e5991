import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_LIMITS, generate, tempDir } from '../sync/fixture.js';
import { startPublisher, type Publisher } from '../../../src/publisher/server.js';
import { sync } from '../../../src/core/sync/sync.js';
import { nodeHost, openStore } from '../../../src/core/database/node.js';
import { parseNavParams } from '../../../src/core/contract/mf-params.js';
import { schemeNav } from '../../../src/core/services/mf/nav.js';
import { navTail } from '../../../src/core/services/mf/nav-tail.js';
import { readState } from '../../../src/core/sync/metadata.js';

/**
 * One scheme's NAV history on a refreshed store reads the base table and the tail of newer days held in
 * memory (services/mf/nav-tail.ts), not the view: its answers must equal a fresh store's, for schemes
 * with and without new days, and for windows that end before the tail, cut into it, or lie within it.
 */
describe('one scheme on a refreshed history: base table plus the tail in memory', { timeout: 600_000 }, () => {
  const root = tempDir('nav-tail');
  const pubDir = path.join(root, 'pub');
  const refreshed = path.join(root, 'refreshed');
  const fresh = path.join(root, 'fresh');
  let publisher: Publisher;
  const run = (dir: string) => {
    const host = nodeHost(dir);
    return sync({ storage: host.storage, host, source: publisher.url, only: ['mf'], retry: { baseMs: 20 }, rules: NO_LIMITS });
  };
  const republish = async (publishes: { step: 'day' }[]) => {
    fs.rmSync(pubDir, { recursive: true, force: true });
    await generate(pubDir, ['mf'], publishes.length ? { publishes } : { generation: 1 });
  };

  beforeAll(async () => {
    await republish([]);
    publisher = await startPublisher({ dataDir: pubDir, limits: 'off' });
    expect((await run(refreshed)).errors).toEqual([]);
    // A Monday (three days through the snapshot and the NAV endpoint), then a Tuesday: two deltas.
    for (const days of [1, 2]) {
      await republish(Array.from({ length: days }, () => ({ step: 'day' as const })));
      const s = await run(refreshed);
      expect(s.errors).toEqual([]);
      expect(s.files.find((f) => f.name === 'mf_nav_master.parquet')).toMatchObject({ status: 'patched', refresh: 'append' });
    }
    expect((await run(fresh)).errors).toEqual([]);
  });
  afterAll(async () => {
    await publisher?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  /** Every answer asked of one store, keyed by request; and what its tail held. */
  async function answers(dir: string, codes: number[], windows: [string, string][][]) {
    const store = await openStore(dir);
    try {
      const tail = await navTail(store.engine);
      const out: Record<string, unknown> = {};
      for (const code of codes) {
        for (const w of windows) out[`${code} ${JSON.stringify(w)}`] = await schemeNav(store.engine, parseNavParams([['scheme', String(code)], ...w]));
      }
      return { out, tail };
    } finally {
      await store.close();
    }
  }

  it('equals a fresh sync of the same publish, scheme by scheme and window by window', async () => {
    expect((await readState(nodeHost(refreshed).storage)).datasets.mf!.history!.deltas).toHaveLength(2);
    const store = await openStore(refreshed);
    let inTail: number[], notInTail: number[], first: string, last: string, deltaRows: number;
    try {
      const e = store.engine;
      inTail = (await e.all<{ c: number }>('SELECT DISTINCT scheme_code AS c FROM mf._nav_delta ORDER BY hash(c) LIMIT 40')).map((r) => r.c);
      notInTail = (
        await e.all<{ c: number }>('SELECT scheme_code AS c FROM mf.latest WHERE scheme_code NOT IN (SELECT scheme_code FROM mf._nav_delta) ORDER BY hash(c) LIMIT 10')
      ).map((r) => r.c);
      [{ first, last, n: deltaRows }] = await e.all<{ first: string; last: string; n: number }>('SELECT min(date) AS first, max(date) AS last, count(*) AS n FROM mf._nav_delta');
    } finally {
      await store.close();
    }
    expect(inTail.length).toBeGreaterThan(10);
    expect(notInTail.length).toBeGreaterThan(0);
    expect(first < last).toBe(true);
    const dayBefore = new Date(Date.parse(`${first}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const windows: [string, string][][] = [
      [],
      [['since', first]],
      [['since', last]],
      [['to', dayBefore]],
      [['since', '2020-01-01'], ['to', first]],
      [['since', first], ['to', first]],
      [['since', '1990-01-01'], ['to', '1990-12-31']],
    ];
    const codes = [...inTail, ...notInTail];
    const a = await answers(refreshed, codes, windows);
    const b = await answers(fresh, codes, windows);
    // The refreshed store answered through its tail, which holds every delta row; the fresh one has none.
    expect(a.tail?.codes.length).toBe(deltaRows);
    expect(b.tail).toBeNull();
    for (const key of Object.keys(b.out)) expect(a.out[key], key).toEqual(b.out[key]);
    // The tail's rows were in the answers: the schemes with new days end on the publish's last day.
    const whole = (code: number) => a.out[`${code} []`] as { data: { date: string }[] };
    expect(inTail.filter((c) => whole(c).data.at(-1)!.date >= first)).toEqual(inTail);
  });
});
