import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { bench, generate, type Bench } from './fixture.js';
import { readState } from '../../../src/core/sync/metadata.js';
import { openStore } from '../../../src/core/database/node.js';

/**
 * A phone's light choice: mf without its NAV history (`skipTables`), then the history when asked for.
 * Real publisher over HTTP on 127.0.0.1, tiny data.
 */
describe('sync leaving tables out (tiny mf)', { timeout: 300_000 }, () => {
  let b: Bench;
  afterAll(() => b?.close());

  it('skips the NAV history file, builds the rest, and fetches the history on a later sync that asks', async () => {
    b = await bench(['mf']);
    const light = await b.run({ only: ['mf'], skipTables: { mf: ['nav'] } });
    expect(light.errors).toEqual([]);
    const fetched = light.files.map((f) => f.name);
    expect(fetched.some((n) => n.startsWith('mf_nav_master_latest'))).toBe(true);
    // Only the snapshot, details and quality files: none fills the history table.
    let state = await readState(b.host.storage);
    expect(Object.keys(state.datasets.mf!.tables).sort()).toEqual(['data_quality', 'latest', 'scheme_details']);
    expect(Object.values(state.datasets.mf!.sources).every((s) => !s.tables?.includes('nav'))).toBe(true);
    // The manifest's row counts (the history's file gives none), and no history table at all.
    const rows = b.manifestRows('mf');
    expect(await b.counts('mf')).toEqual(rows);

    const full = await b.run({ only: ['mf'] });
    expect(full.errors).toEqual([]);
    state = await readState(b.host.storage);
    expect(Object.keys(state.datasets.mf!.tables).sort()).toEqual(['data_quality', 'latest', 'nav', 'scheme_details']);
    const counts = await b.counts('mf');
    expect(counts.nav).toBeGreaterThan(0);
    expect(counts).toEqual({ ...rows, nav: counts.nav });
    // The files of the light sync were kept: only the history's file was downloaded now.
    expect(full.files.filter((f) => f.status === 'downloaded').map((f) => state.datasets.mf!.sources[f.name]?.tables)).toEqual([['nav']]);
  });
});

/**
 * The MF history's refresh bookkeeping (docs/sync.md) follows the history held: none for a store that
 * never held it; kept unchanged, with the NAVs it describes, when a light sync leaves a held history out.
 */
describe('a light sync and the history\'s refresh bookkeeping (tiny mf)', { timeout: 600_000 }, () => {
  let b: Bench;
  afterAll(() => b?.close());
  const navRows = async () => {
    const store = await openStore(b.storeDir);
    try {
      return await store.engine.all<{ scheme_code: number; date: string; nav: number }>('SELECT scheme_code, "date"::VARCHAR AS "date", nav::DOUBLE AS nav FROM mf.nav ORDER BY ALL');
    } finally {
      await store.close();
    }
  };
  const stored = () => fs.readdirSync(b.storeDir);

  it('keeps none for a history never held, and keeps a held one as it was until a full sync refreshes it', async () => {
    b = await bench(['mf']);
    const light = await b.run({ only: ['mf'], skipTables: { mf: ['nav'] } });
    expect(light.errors).toEqual([]);
    expect(light.history).toBeUndefined();
    expect((await readState(b.host.storage)).datasets.mf!.history).toBeUndefined();
    expect(stored().filter((f) => /\.(footer|delta)$/.test(f))).toEqual([]);

    // The history comes whole, then a day is appended to it: a base and one delta.
    expect((await b.run({ only: ['mf'] })).errors).toEqual([]);
    await generate(b.pubDir, ['mf'], { publishes: [{ step: 'day' }] });
    const day = await b.run({ only: ['mf'] });
    expect(day.files.find((f) => f.name === 'mf_nav_master.parquet')).toMatchObject({ status: 'patched', refresh: 'append' });
    const held = (await readState(b.host.storage)).datasets.mf!;
    expect(held.history!.deltas).toHaveLength(1);
    const heldRows = await navRows();

    // A light sync of the next day: the snapshot moves on, the history held answers as it was (its
    // delta included) and its bookkeeping still describes it.
    await generate(b.pubDir, ['mf'], { publishes: [{ step: 'day' }, { step: 'day' }] });
    const light2 = await b.run({ only: ['mf'], skipTables: { mf: ['nav'] } });
    expect(light2.errors).toEqual([]);
    expect(light2.files.map((f) => f.name)).not.toContain('mf_nav_master.parquet');
    const after = (await readState(b.host.storage)).datasets.mf!;
    expect(after.generation).toBeGreaterThan(held.generation);
    expect(after.sources['mf_nav_master_latest.parquet'].store).not.toBe(held.sources['mf_nav_master_latest.parquet'].store);
    expect(after.history).toEqual(held.history);
    expect(after.tables.nav.rows).toBe(held.tables.nav.rows);
    expect(await navRows()).toEqual(heldRows);
    for (const f of [after.history!.footer, after.history!.snapshot!, after.history!.base!, ...after.history!.deltas.map((d) => d.store)]) {
      expect(stored()).toContain(f);
    }

    // The next full sync refreshes from it (the day the light sync left out, appended), equal to a fresh sync.
    const full = await b.run({ only: ['mf'] });
    expect(full.errors).toEqual([]);
    expect(full.files.find((f) => f.name === 'mf_nav_master.parquet')).toMatchObject({ status: 'patched', refresh: 'append' });
    expect((await readState(b.host.storage)).datasets.mf!.history!.deltas).toHaveLength(2);
    const counts = await b.counts('mf');
    expect(counts.nav).toBe(b.manifestRows('mf').nav);
  });
});
