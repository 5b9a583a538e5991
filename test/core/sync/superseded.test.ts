import { describe, expect, it } from 'vitest';
import type { DatasetState, HistoryState } from '../../../src/core/sync/metadata.js';
import { supersededDownload } from '../../../src/core/sync/refresh/history.js';

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
