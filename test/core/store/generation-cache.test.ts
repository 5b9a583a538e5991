import { describe, it, expect, afterAll } from 'vitest';
import { bench, generate } from '../sync/fixture.js';
import { openStore } from '../../../src/core/store/node.js';
import { readState } from '../../../src/core/sync/state.js';
import { dataLastModified } from '../../../src/core/services/mf/freshness.js';

/**
 * The store's answers cached per generation (src/core/engine/generation.ts) over real syncs: a cached
 * answer must never outlive its generation.
 */
describe('a cached answer never outlives its generation', { timeout: 600_000 }, async () => {
  const b = await bench(['mf']);
  afterAll(() => b.close());

  it('Last-Modified follows each synced generation through Store.refresh', async () => {
    await b.run();
    const store = await openStore(b.storeDir);
    try {
      const g1 = (await readState(b.host.storage)).datasets.mf!;
      expect((await dataLastModified(store.engine)).getTime()).toBe(Date.parse(g1.generated_at!));
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
      const [{ generation }] = await store.engine.all<{ generation: number }>("SELECT generation FROM main.sync_status WHERE dataset = 'mf'");
      expect(generation).toBe(g2.generation);
    } finally {
      await store.close();
    }
  });
});
