import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { bench, generate, type Bench } from './fixture.js';
import { SERVICES } from '../../../src/core/sync/datasets.js';
import { readState } from '../../../src/core/sync/metadata.js';
import { NAV_ENDPOINT } from '../../../src/core/sync/refresh/history.js';
import { openStore } from '../../../src/core/database/node.js';

function hashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of SERVICES) {
    for (const f of fs.readdirSync(path.join(dir, s))) {
      out[`${s}/${f}`] = createHash('sha256').update(fs.readFileSync(path.join(dir, s, f))).digest('hex');
    }
  }
  return out;
}

describe('sync from the sample publisher (tiny, all three services)', { timeout: 600_000 }, async () => {
  let b: Bench;
  afterAll(() => b?.close());

  it('first sync: every chosen file downloads and each table holds the manifest row count', async () => {
    b = await bench(SERVICES);
    const s = await b.run();
    expect(s.errors).toEqual([]);
    expect(s.files.length).toBeGreaterThan(0);
    expect(s.files.every((f) => f.status === 'downloaded')).toBe(true);
    expect(s.body_bytes).toBe(s.files.reduce((n, f) => n + f.body_bytes, 0));
    for (const svc of SERVICES) {
      const counts = await b.counts(svc);
      expect(Object.keys(counts).length).toBeGreaterThan(0);
      expect(counts).toEqual(b.manifestRows(svc));
    }
    const state = await readState(b.host.storage);
    expect(Object.keys(state.datasets.mf!.tables).sort()).toEqual(['data_quality', 'latest', 'nav', 'scheme_details']);
    expect(Object.keys(state.datasets.flags!.tables)).toHaveLength(7);
  });

  it('the store answers SQL on every schema, with contract types and sync metadata', async () => {
    const store = await openStore(b.storeDir);
    try {
      const cols = await store.engine.all<{ column_name: string; column_type: string }>('SELECT column_name, column_type FROM (DESCRIBE mf.nav)');
      expect(cols.slice(0, 5)).toEqual([
        { column_name: 'scheme_code', column_type: 'INTEGER' },
        { column_name: 'date', column_type: 'DATE' },
        { column_name: 'nav', column_type: 'DECIMAL(18,4)' },
        { column_name: 'scheme_name', column_type: 'VARCHAR' },
        { column_name: 'isin', column_type: 'VARCHAR' },
      ]);
      const status = await store.engine.all<{ dataset: string; generation: number }>('SELECT dataset, generation FROM sync_status ORDER BY dataset');
      expect(status).toEqual([
        { dataset: 'flags', generation: 1 },
        { dataset: 'indicators', generation: 1 },
        { dataset: 'mf', generation: 1 },
      ]);
      expect((await store.status()).map((d) => d.dataset)).toEqual(['indicators', 'mf', 'flags']);
    } finally {
      await store.close();
    }
  });

  it('each dataset is one self-contained database file that native DuckDB opens with the same rows', async () => {
    const state = await readState(b.host.storage);
    const native = await DuckDBInstance.create(':memory:');
    const conn = await native.connect();
    try {
      for (const svc of SERVICES) {
        const d = state.datasets[svc]!;
        // No write-ahead log beside it: a stale one made native DuckDB refuse the file.
        expect(fs.existsSync(path.join(b.storeDir, `${d.database}.wal`))).toBe(false);
        await conn.run(`ATTACH '${path.join(b.storeDir, d.database)}' AS ${svc} (READ_ONLY)`);
        for (const [table, t] of Object.entries(d.tables)) {
          const rows = (await conn.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM ${svc}."${table}"`)).getRowObjects();
          expect({ table: `${svc}.${table}`, rows: rows[0].n }).toEqual({ table: `${svc}.${table}`, rows: t.rows });
        }
      }
    } finally {
      conn.closeSync();
      native.closeSync();
    }
  });

  it('second sync: nothing changed, so every file is not_modified and no body byte moves', async () => {
    const before = await readState(b.host.storage);
    const s = await b.run();
    expect(s.errors).toEqual([]);
    expect(s.files.length).toBe(Object.values(before.datasets).reduce((n, d) => n + Object.keys(d!.sources).length, 0));
    expect(s.files.every((f) => f.status === 'not_modified')).toBe(true);
    expect(s.body_bytes).toBe(0);
    const after = await readState(b.host.storage);
    for (const svc of SERVICES) expect(after.datasets[svc]!.generation).toBe(1);
  });

  it('next generation: only the files whose bytes changed download; row counts follow the new manifest', async () => {
    const state = await readState(b.host.storage);
    const before = hashes(b.pubDir);
    await generate(b.pubDir, SERVICES, 2);
    const after = hashes(b.pubDir);
    const s = await b.run();
    expect(s.errors).toEqual([]);
    for (const f of s.files) {
      // The gaps of the MF history asked of the NAV endpoint: a query, not a published file.
      if (f.name === NAV_ENDPOINT) continue;
      const changed = before[`${f.service}/${f.name}`] !== after[`${f.service}/${f.name}`];
      // A changed history may be patched instead of downloaded (docs/sync.md); no other file may.
      const status = changed ? (f.status === 'patched' && f.service === 'mf' && f.name === 'mf_nav_master.parquet' ? 'patched' : 'downloaded') : 'not_modified';
      expect({ file: `${f.service}/${f.name}`, status: f.status }).toEqual({ file: `${f.service}/${f.name}`, status });
    }
    expect(s.files.some((f) => f.status === 'downloaded')).toBe(true);
    const next = await readState(b.host.storage);
    for (const svc of SERVICES) {
      const changed = s.files.some((f) => f.service === svc && f.status === 'downloaded');
      expect(next.datasets[svc]!.generation).toBe(state.datasets[svc]!.generation + (changed ? 1 : 0));
      expect(await b.counts(svc)).toEqual(b.manifestRows(svc));
    }
    // Old generations are gone: only the current database and its sources remain per dataset, and a
    // patched MF history's base, which its view reads (docs/storage.md).
    const names = fs.readdirSync(b.storeDir).filter((n) => n.endsWith('.duckdb'));
    const kept = SERVICES.flatMap((svc) => [next.datasets[svc]!.database, next.datasets[svc]!.history?.base ?? []].flat());
    expect(names.sort()).toEqual(kept.sort());
  });
});
