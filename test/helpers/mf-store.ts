/**
 * The MF data the way the app gets it: the generator writes tiny data, the stand-in publisher serves
 * it over HTTP on 127.0.0.1, the real sync downloads and ingests it into `storeDir`, and the store
 * ATTACHes it as schema `mf` in DuckDB-WASM. `close` also removes the store directory.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { startPublisher } from '../../src/publisher/server.js';
import { sync } from '../../src/core/sync/sync.js';
import { nodeHost, openStore } from '../../src/core/database/node.js';
import type { Engine } from '../../src/core/engine/engine.js';
import { generateTinyMf } from './mf-fixture.js';
import { NO_LIMITS } from '../core/sync/fixture.js';

export async function openTinyMfStore(storeDir: string): Promise<{ engine: Engine; close: () => Promise<void> }> {
  const published = path.dirname(await generateTinyMf());
  const publisher = await startPublisher({ dataDir: published, limits: 'off' });
  try {
    const host = nodeHost(storeDir);
    const summary = await sync({ storage: host.storage, host, source: publisher.url, only: ['mf'], rules: NO_LIMITS });
    if (summary.errors.length) throw new Error(`mf sync failed: ${summary.errors.join('; ')}`);
  } finally {
    await publisher.close();
    rmSync(published, { recursive: true, force: true });
  }
  const store = await openStore(storeDir);
  return {
    engine: store.engine,
    close: async () => {
      await store.close();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
