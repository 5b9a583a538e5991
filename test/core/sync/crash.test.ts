import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, NO_LIMITS, tempDir } from './fixture.js';
import { startPublisher, type Publisher } from '../../../src/publisher/server.js';
import { Crash, type SyncStep } from '../../../src/core/sync/hooks.js';
import { sync } from '../../../src/core/sync/sync.js';
import { readState, STATE_FILE } from '../../../src/core/sync/metadata.js';
import { nodeHost, openStore } from '../../../src/core/database/node.js';

const STEPS: SyncStep[] = [
  'manifest', 'download:response', 'download:chunk', 'download:complete',
  'ingest:table', 'ingest:checkpoint', 'switch:before', 'switch:after', 'cleanup',
];

describe('a sync killed at any step leaves the previous data answering; the next sync finishes', { timeout: 900_000 }, () => {
  let root: string;
  let pub: Publisher;
  let template: string;
  let manifestRows: Record<string, number>;

  beforeAll(async () => {
    root = tempDir('crash');
    const pubDir = path.join(root, 'pub');
    await generate(pubDir, ['flags']);
    pub = await startPublisher({ dataDir: pubDir, limits: 'off' });
    template = path.join(root, 'template');
    const host = nodeHost(template);
    const first = await sync({ storage: host.storage, host, source: pub.url, only: ['flags'], rules: NO_LIMITS });
    expect(first.errors).toEqual([]);
    await generate(pubDir, ['flags'], 2);
    const m = JSON.parse(fs.readFileSync(path.join(pubDir, 'flags', 'manifest.json'), 'utf8'));
    manifestRows = Object.fromEntries(Object.entries(m.tables as Record<string, { row_count: number }>).map(([t, v]) => [t, v.row_count]));
  });
  afterAll(() => pub?.close());

  it.each(STEPS)('killed at %s', async (step) => {
    const dir = path.join(root, step.replace(':', '-'));
    fs.cpSync(template, dir, { recursive: true });
    const host = nodeHost(dir);
    const before = await readState(host.storage);
    let fired = false;
    await expect(
      sync({
        storage: host.storage, host, source: pub.url, only: ['flags'], rules: NO_LIMITS,
        hook: (at) => {
          if (at === step && !fired) {
            fired = true;
            throw new Error(`killed at ${at}`);
          }
        },
      }),
    ).rejects.toBeInstanceOf(Crash);
    expect(fired).toBe(true);

    // Whatever generation the state names answers in full, with the rows the state records.
    const mid = await readState(host.storage);
    const switched = step === 'switch:after' || step === 'cleanup';
    expect(mid.datasets.flags!.generation).toBe(before.datasets.flags!.generation + (switched ? 1 : 0));
    const store = await openStore(dir);
    try {
      for (const [table, t] of Object.entries(mid.datasets.flags!.tables)) {
        expect(await store.engine.all(`SELECT count(*) AS n FROM flags.${table}`)).toEqual([{ n: t.rows }]);
      }
    } finally {
      await store.close();
    }

    const again = await sync({ storage: host.storage, host, source: pub.url, only: ['flags'], rules: NO_LIMITS });
    expect(again.errors).toEqual([]);
    expect(again.files.filter((f) => f.status === 'failed')).toEqual([]);
    const done = await readState(host.storage);
    expect(Object.fromEntries(Object.entries(done.datasets.flags!.tables).map(([t, v]) => [t, v.rows]))).toEqual(manifestRows);
    // Nothing left behind: only the state, the current database and the files it was built from.
    const d = done.datasets.flags!;
    const expected = [STATE_FILE, d.database, ...Object.values(d.sources).map((s) => s.store)];
    expect(fs.readdirSync(dir).filter((n) => n !== `${d.database}.wal`).sort()).toEqual(expected.sort());
  });
});
