import { afterAll, describe, expect, it } from 'vitest';
import { bench, type Bench } from './fixture.js';
import { readState } from '../../../src/core/sync/state.js';

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
