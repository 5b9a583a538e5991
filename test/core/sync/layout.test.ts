import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NodeEngine } from '../../../src/core/engine/node.js';
import { BUILD_SETTINGS } from '../../../src/core/sync/sync.js';

/**
 * The storage layout a generation's build chooses (docs/performance.md): text without FSST. Pinned
 * against DuckDB's default for the same data, so a version that ignores the setting, or stops
 * choosing FSST, shows here.
 */
describe('generation layout', { timeout: 300_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-layout-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function textCompression(name: string, settings: string): Promise<string[]> {
    const e = await NodeEngine.open({ path: path.join(dir, name), create: true });
    try {
      if (settings) await e.exec(settings);
      await e.exec(`CREATE TABLE latest AS
        SELECT 'AMC ' || (i % 37) || ' Flexi Cap Fund - Direct Plan - Growth ' || i AS scheme_name FROM range(5000) r(i);
        CHECKPOINT;`);
      const rows = await e.all<{ c: string }>(
        "SELECT DISTINCT compression AS c FROM pragma_storage_info('latest') WHERE segment_type = 'VARCHAR' ORDER BY 1",
      );
      return rows.map((r) => r.c);
    } finally {
      await e.close();
    }
  }

  it('stores 5,000 scheme names without FSST, where DuckDB would choose it', async () => {
    // DuckDB's choice is not fixed: for these names it took FSST in 19 builds of 20 and Uncompressed in
    // one (2026-11-27), which failed this test once in a full run. So: FSST at least once in three
    // default builds (a version that stops choosing it shows), and never in three built ones.
    // One after another: one DuckDB-WASM instance with open files per process (docs/storage.md, hazard 6).
    const builds = async (label: string, settings: string) => {
      const out: string[] = [];
      for (const i of [0, 1, 2]) out.push(...(await textCompression(`${label}-${i}.duckdb`, settings)));
      return out;
    };
    expect(await builds('default', '')).toContain('FSST');
    expect(await builds('built', BUILD_SETTINGS)).not.toContain('FSST');
  });
});
