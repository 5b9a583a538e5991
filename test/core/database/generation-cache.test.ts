import { describe, it, expect, afterAll } from 'vitest';
import { bench, generate } from '../sync/fixture.js';
import { openStore } from '../../../src/core/database/node.js';
import { readState } from '../../../src/core/sync/metadata.js';
import { dataLastModified } from '../../../src/core/services/mf/freshness.js';
import { catalog } from '../../../src/core/services/mf/catalog.js';
import { recordedGeneratedAt } from '../../../src/core/services/sync-status.js';

/**
 * The store's answers cached per generation (src/core/engine/generation.ts) over real syncs: a cached
 * answer must never outlive its generation.
 */
describe.each([
  ['in this thread (the desktop app)', false],
  ['in a worker thread (cli serve)', true],
])('a cached answer never outlives its generation, the engine %s', { timeout: 600_000 }, async (_where, worker) => {
  const b = await bench(['mf']);
  afterAll(() => b.close());

  it('Last-Modified and the catalog follow each synced generation through Store.refresh', async () => {
    await b.run();
    const store = await openStore(b.storeDir, { worker });
    /** The catalog's counts, and the same counted now from the attached data. */
    const counts = async () => ({
      cached: (await catalog(store.engine)).data,
      now: (await store.engine.all('SELECT count(*) AS schemes, count(*) FILTER (WHERE is_active) AS active_schemes, count(*) FILTER (WHERE NOT is_active) AS matured_schemes, max(nav_date) AS latest_nav_date FROM mf.latest'))[0],
    });
    try {
      const g1 = (await readState(b.host.storage)).datasets.mf!;
      expect((await dataLastModified(store.engine)).getTime()).toBe(Date.parse(g1.generated_at!));
      const before = await counts();
      expect(before.cached).toEqual(before.now);
      // A refresh that finds the state as it was keeps the generation's answers and rewrites nothing.
      await store.refresh();
      expect((await dataLastModified(store.engine)).getTime()).toBe(Date.parse(g1.generated_at!));

      await generate(b.pubDir, ['mf'], 2);
      await b.run();
      const g2 = (await readState(b.host.storage)).datasets.mf!;
      expect(g2.generation).toBe(g1.generation + 1);
      expect(g2.generated_at).not.toBe(g1.generated_at);
      await store.refresh();
      expect((await dataLastModified(store.engine)).getTime()).toBe(Date.parse(g2.generated_at!));
      const after = await counts();
      expect(after.cached).toEqual(after.now);
      expect(after.now).not.toEqual(before.now);
      const [{ generation, generated_at }] = await store.engine.all<{ generation: number; generated_at: string }>(
        "SELECT generation, generated_at FROM main.sync_status WHERE dataset = 'mf'",
      );
      expect(generation).toBe(g2.generation);
      // What the store records for the generation is what it wrote into the table.
      expect(await recordedGeneratedAt(store.engine, 'mf')).toEqual([generated_at]);
    } finally {
      await store.close();
    }
  });
});
