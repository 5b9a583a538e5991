/**
 * The flags data the way the app gets it: the generator writes tiny data, the stand-in publisher
 * serves it over HTTP on 127.0.0.1, the real sync downloads and ingests it, and the store ATTACHes
 * it as schema `flags` in DuckDB-WASM.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startPublisher } from '../../src/publisher/server.js';
import { sync } from '../../src/core/sync/sync.js';
import { nodeHost, openStore } from '../../src/core/database/node.js';
import type { Engine } from '../../src/core/engine/engine.js';
import { NO_LIMITS } from '../core/sync/fixture.js';
import { publishTiny } from './tiny-data.js';

export interface TinyFlagsStore {
  engine: Engine;
  /** The published directory (DIR/flags): manifest.json and the files. */
  published: string;
  close(): Promise<void>;
}

export async function openTinyFlagsStore(seed = 11): Promise<TinyFlagsStore> {
  const root = await mkdtemp(path.join(tmpdir(), 'almanac-flags-store-'));
  const published = path.join(root, 'pub', 'flags');
  await publishTiny(path.dirname(published), ['flags'], { seed });
  const publisher = await startPublisher({ dataDir: path.dirname(published), limits: 'off' });
  try {
    const host = nodeHost(path.join(root, 'store'));
    const summary = await sync({ storage: host.storage, host, source: publisher.url, only: ['flags'], rules: NO_LIMITS });
    if (summary.errors.length) throw new Error(`flags sync failed: ${summary.errors.join('; ')}`);
  } finally {
    await publisher.close();
  }
  const store = await openStore(path.join(root, 'store'));
  return {
    engine: store.engine,
    published,
    async close() {
      await store.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
