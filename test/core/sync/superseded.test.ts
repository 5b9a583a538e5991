import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readState, type DatasetState, type HistoryState } from '../../../src/core/sync/metadata.js';
import { supersededDownload } from '../../../src/core/sync/refresh/history.js';
import { sync } from '../../../src/core/sync/sync.js';
import { nodeHost } from '../../../src/core/database/node.js';
import { startPublisher, type Publisher } from '../../../src/publisher/server.js';
import type { Publish } from '../../helpers/tiny-data.js';
import { NO_LIMITS, generate, tempDir } from './fixture.js';

const FILE = 'mf_nav_master.parquet';
const download = 'src~mf~g1~mf_nav_master.parquet';

/** An MF state whose history file was last downloaded whole as `download` with ETag "a". */
function state(h: Partial<HistoryState> | null): DatasetState {
  const history: HistoryState | undefined = h
    ? { file: FILE, etag: '"a"', footer: download, snapshot: null, base: null, base_rows: 0, deltas: [], verified_at: '2026-11-27T00:00:00Z', refresh: 'full', detail: '', ...h }
    : undefined;
  return { sources: { [FILE]: { file: FILE, store: download, etag: '"a"' } }, history } as unknown as DatasetState;
}

describe('supersededDownload: the history download a refreshed store no longer needs', () => {
  it('is the whole download once the history reads a base and the publish has another ETag', () => {
    expect(supersededDownload(state({ base: 'mf-g1.duckdb', etag: '"b"', footer: 'src~mf~g2~mf_nav_master.parquet.footer' }))).toBe(download);
  });

  it('is nothing while the download may still serve', () => {
    // Read as one table from it (no base), or no history at all.
    expect(supersededDownload(state({ base: null, etag: '"b"', footer: 'x.footer' }))).toBeNull();
    expect(supersededDownload(state(null))).toBeNull();
    // The publisher still has the same file: a whole download could be answered 304 for this copy.
    expect(supersededDownload(state({ base: 'mf-g1.duckdb', etag: '"a"', footer: 'x.footer' }))).toBeNull();
    // Its footer is the one the next refresh compares with.
    expect(supersededDownload(state({ base: 'mf-g1.duckdb', etag: '"b"', footer: download }))).toBeNull();
  });
});

describe('a whole download refused after refreshes', { timeout: 600_000 }, () => {
  const root = tempDir('superseded');
  const pubDir = path.join(root, 'pub');
  const storeDir = path.join(root, 'store');
  const host = nodeHost(storeDir);
  let publisher: Publisher;
  const run = () => sync({ storage: host.storage, host, source: publisher.url, only: ['mf'], retry: { baseMs: 20 }, rules: NO_LIMITS });
  const publish = async (publishes: Publish[]) => {
    fs.rmSync(pubDir, { recursive: true, force: true });
    await generate(pubDir, ['mf'], { publishes });
  };
  beforeAll(async () => {
    await publish([]);
    publisher = await startPublisher({ dataDir: pubDir, limits: 'off' });
  });
  afterAll(async () => {
    await publisher?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('fails the service and keeps the refreshed generation, instead of falling back to the older download', async () => {
    expect((await run()).errors).toEqual([]);
    await publish([{ step: 'day' }]);
    expect((await run()).errors).toEqual([]);
    const refreshed = (await readState(host.storage)).datasets.mf!;
    expect(refreshed.history!.deltas).toHaveLength(1);
    // The next publish drops a required column from every history file: the history comes whole and is refused.
    await publish([{ step: 'day' }, { step: 'day', drift: 'drop' }]);
    const s = await run();
    expect(s.errors.join('\n')).toMatch(/mf_nav_master\.parquet: .*the NAV history stays as refreshed \(generation 2\)/);
    const after = (await readState(host.storage)).datasets.mf!;
    expect(after.generation).toBe(refreshed.generation);
    expect(after.tables.nav.rows).toBe(refreshed.tables.nav.rows);
  });
});
