/**
 * What a sync records on a light copy (the phone's: the MF snapshot without `mf.nav`, docs/mobile.md):
 * its new NAVs are the snapshot's, and the watched schemes' changes equal a diff, in JavaScript, of
 * the snapshot rows the two stores hold, read with plain SELECTs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bench, generate, NO_LIMITS, type Bench } from '../sync/fixture.js';
import { openStore } from '../../../src/core/database/node.js';
import { syncRecorded } from '../../../src/core/changes/recorder.js';
import { addWatch } from '../../../src/core/changes/watches.js';
import { changePct } from '../../../src/core/changes/diff.js';
import type { KeptChanges } from '../../../src/core/changes/shape.js';

type Latest = Map<number, { date: string; nav: number }>;

async function latest(dir: string): Promise<Latest> {
  const store = await openStore(dir);
  try {
    const rows = await store.engine.all<{ c: number; d: string; n: number }>(
      "SELECT scheme_code AS c, strftime(nav_date, '%Y-%m-%d') AS d, nav::DOUBLE AS n FROM mf.latest WHERE nav_date IS NOT NULL",
    );
    return new Map(rows.map((r) => [r.c, { date: r.d, nav: r.n }]));
  } finally {
    await store.close();
  }
}

let b: Bench;
let first: KeptChanges;
let second: KeptChanges;
let g1: Latest;
let g2: Latest;
/** The tables the first sync left, with their rows. */
let held: Record<string, number>;
const watched: number[] = [];

beforeAll(async () => {
  b = await bench(['mf']);
  const opts = { storage: b.host.storage, host: b.host, source: b.publisher.url, rules: NO_LIMITS, retry: { baseMs: 20 }, only: ['mf' as const], skipTables: { mf: ['nav'] } };
  first = (await syncRecorded(opts, b.host)).changes!;
  held = await b.counts('mf');
  g1 = await latest(b.storeDir);
  // Watched: two schemes still publishing, one matured (its snapshot row will not move).
  const store = await openStore(b.storeDir);
  try {
    const live = await store.engine.all<{ c: number }>('SELECT scheme_code AS c FROM mf.latest WHERE is_active ORDER BY scheme_code LIMIT 2');
    const ended = await store.engine.all<{ c: number }>('SELECT scheme_code AS c FROM mf.latest WHERE NOT is_active ORDER BY scheme_code LIMIT 1');
    watched.push(...[...live, ...ended].map((r) => r.c));
    for (const c of watched) await addWatch(b.host.storage, store.engine, 'scheme', String(c));
  } finally {
    await store.close();
  }
  await generate(b.pubDir, ['mf'], 2);
  second = (await syncRecorded(opts, b.host)).changes!;
  g2 = await latest(b.storeDir);
}, 600_000);

afterAll(async () => {
  await b?.close();
});

describe('changes on a light copy (no NAV history)', () => {
  it('the first sync counts the snapshot NAVs it took in', () => {
    expect(held.nav).toBeUndefined();
    expect(first.totals.new_navs).toBe(held.latest);
  });

  it("the next: one new NAV per scheme whose latest date moved; watched schemes' last NAV and % change from the snapshot before", () => {
    expect(second.errors).toBeUndefined();
    const moved = [...g2].filter(([c, l]) => !g1.has(c) || l.date > g1.get(c)!.date);
    expect(moved.length).toBeGreaterThan(0);
    expect(second.totals.new_navs).toBe(moved.length);
    const expected = watched.flatMap((c) => {
      const [a, z] = [g1.get(c), g2.get(c)!];
      if (a && a.date === z.date && a.nav === z.nav) return [];
      return [{ scheme_code: c, new_navs: 1, last_date: z.date, last_nav: z.nav, change_pct: changePct(a?.nav ?? null, z.nav), revised_navs: 0, revisions: [] }];
    });
    // The live ones moved a week on; the matured one did not.
    expect(expected.map((s) => s.scheme_code)).toEqual(watched.slice(0, 2));
    expect(second.watched.schemes).toEqual(expected);
  });
});
