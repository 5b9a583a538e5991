/** Tiny flags data (test/helpers/tiny-data.ts), copied into a temp dir and loaded into DuckDB-WASM. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NodeEngine } from '../../../src/core/engine/node.js';
import { publishTiny } from '../../helpers/tiny-data.js';
import { loadFlags } from './load.js';

export interface TinyFlags {
  dir: string;
  engine: NodeEngine;
  cleanup(): Promise<void>;
}

export async function tinyFlags(seed = 11): Promise<TinyFlags> {
  const root = await mkdtemp(path.join(tmpdir(), 'almanac-flags-'));
  const dir = path.join(root, 'flags');
  await publishTiny(root, ['flags'], { seed });
  const engine = await NodeEngine.open();
  await loadFlags(engine, dir);
  return {
    dir,
    engine,
    async cleanup() {
      await engine.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
