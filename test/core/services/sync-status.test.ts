import { describe, it, expect, afterAll } from 'vitest';
import { NodeEngine } from '../../../src/core/engine/node.js';
import { newGeneration } from '../../../src/core/engine/generation.js';
import { hasSyncStatus, recordedGeneratedAt } from '../../../src/core/services/sync-status.js';

describe('hasSyncStatus (real DuckDB-WASM)', async () => {
  const engine = await NodeEngine.open();
  afterAll(() => engine.close());

  it("counts only the open database's own main.sync_status, not an attached database's", async () => {
    await engine.exec("ATTACH ':memory:' AS mf; CREATE TABLE mf.main.sync_status (dataset VARCHAR)");
    expect(await hasSyncStatus(engine)).toBe(false);
    await engine.exec('CREATE TABLE main.sync_status (dataset VARCHAR)');
    expect(await hasSyncStatus(engine)).toBe(true);
  });

  it('is read once per data generation: the store starts a new one when it writes the table', async () => {
    await engine.exec('DROP TABLE IF EXISTS main.sync_status');
    newGeneration(engine);
    expect(await hasSyncStatus(engine)).toBe(false);
    await engine.exec('CREATE TABLE main.sync_status (dataset VARCHAR)');
    expect(await hasSyncStatus(engine)).toBe(false);
    newGeneration(engine);
    expect(await hasSyncStatus(engine)).toBe(true);
  });

  it("a generation the store recorded is answered from its record, without reading the table", async () => {
    await engine.exec('DROP TABLE IF EXISTS main.sync_status');
    newGeneration(engine, { generatedAt: new Map([['mf', '2026-11-20T18:30:00Z'], ['flags', null]]), overlaid: new Map() });
    // No table: any statement would say so; the record answers.
    expect(await hasSyncStatus(engine)).toBe(true);
    expect(await recordedGeneratedAt(engine, 'mf')).toEqual(['2026-11-20T18:30:00Z']);
    expect(await recordedGeneratedAt(engine, 'flags')).toEqual([]);
    expect(await recordedGeneratedAt(engine, 'indicators')).toEqual([]);
    // A generation with no record (mid-switch, or an engine no store keeps) reads the table.
    newGeneration(engine);
    expect(await recordedGeneratedAt(engine, 'mf')).toEqual([]);
    await engine.exec("CREATE TABLE main.sync_status (dataset VARCHAR, generated_at VARCHAR); INSERT INTO main.sync_status VALUES ('mf', '2026-11-21T18:30:00Z'), ('indicators', NULL)");
    newGeneration(engine);
    expect(await recordedGeneratedAt(engine, 'mf')).toEqual(['2026-11-21T18:30:00Z']);
    expect(await recordedGeneratedAt(engine, 'indicators')).toEqual([]);
  });

  it('any other failure is an error, not a "no"', async () => {
    const closed = await NodeEngine.open();
    await closed.close();
    await expect(hasSyncStatus(closed)).rejects.toThrow();
  });
});
