import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { craftedServer, parquetOf } from './crafted.js';
import { tempDir } from './fixture.js';
import { conversion } from '../../../src/core/sync/conversion.js';
import { sync } from '../../../src/core/sync/sync.js';
import { readState } from '../../../src/core/sync/metadata.js';
import { nodeHost, openStore } from '../../../src/core/database/node.js';

describe('conversion: which retypes lose nothing', () => {
  it.each([
    ['DECIMAL(18,4)', 'DECIMAL(18,4)', 'same'],
    ['VARCHAR', 'DATE', 'parse'],
    ['VARCHAR', 'DECIMAL(18,4)', 'parse'],
    ['INTEGER', 'BIGINT', 'widen'],
    ['UINTEGER', 'BIGINT', 'widen'],
    ['DECIMAL(9,2)', 'DECIMAL(18,2)', 'widen'],
    ['INTEGER', 'DECIMAL(14,2)', 'widen'],
    ['DATE', 'VARCHAR', 'widen'],
    ['DECIMAL(12,4)', 'DOUBLE', 'widen'],
    ['DOUBLE', 'DECIMAL(18,4)', 'checked'],
    ['BIGINT', 'INTEGER', 'checked'],
    ['DECIMAL(18,6)', 'DECIMAL(18,4)', 'checked'],
    ['DECIMAL(38,4)', 'DECIMAL(18,4)', 'checked'],
    ['TIMESTAMP', 'DATE', 'checked'],
    ['BIGINT', 'DOUBLE', 'checked'],
    ['FLOAT', 'DECIMAL(18,4)', 'lossy'],
    ['FLOAT', 'DOUBLE', 'lossy'],
    ['DECIMAL(18,2)', 'DECIMAL(18,4)', 'lossy'],
    ['DATE', 'DECIMAL(18,4)', 'lossy'],
    ['VARCHAR[]', 'VARCHAR', 'lossy'],
    ['BOOLEAN', 'DATE', 'lossy'],
  ])('%s → %s: %s', (from, to, kind) => {
    expect(conversion(from, to).kind).toBe(kind);
  });
});

/** One pledge row per `pct` value; each publish below has a different row count, so a different manifest. */
const pledges = (pct: Float64Array | Float32Array, N = pct.length) => ({
  symbol: Array.from({ length: N }, (_, i) => `SYM${i}`),
  isin: Array.from({ length: N }, () => 'INE000A01010'),
  company_name: Array.from({ length: N }, (_, i) => `Company ${i}`),
  quarter_end: Array.from({ length: N }, () => '2026-09-30'),
  total_shares: BigInt64Array.from({ length: N }, () => 1_000_000n),
  promoter_shares: BigInt64Array.from({ length: N }, () => 600_000n),
  pledged_shares: BigInt64Array.from({ length: N }, () => 60_000n),
  promoter_holding_pct: Float64Array.from({ length: N }, () => 60),
  pledged_pct_of_promoter: pct,
  pledged_pct_of_total: Float64Array.from({ length: N }, () => 6),
});

describe('a retyped column in a typed file (crafted flags publisher, real HTTP)', { timeout: 600_000 }, () => {
  let srv: Awaited<ReturnType<typeof craftedServer>>;
  beforeAll(async () => {
    srv = await craftedServer();
  });
  afterAll(() => srv?.close());

  it('DOUBLE where DECIMAL(7,2) is expected: accepted when every value fits exactly, refused naming file, column and value when one does not, refused by type for FLOAT; the previous copy answers', async () => {
    const storeDir = path.join(tempDir('retype'), 'store');
    const host = nodeHost(storeDir);
    const run = () => sync({ storage: host.storage, host, source: srv.url, only: ['flags'], retry: { baseMs: 10 } });
    const read = async () => {
      const store = await openStore(storeDir);
      try {
        return await store.engine.all('SELECT symbol, pledged_pct_of_promoter AS pct, typeof(pledged_pct_of_promoter) AS t FROM flags.pledge_data ORDER BY symbol');
      } finally {
        await store.close();
      }
    };

    srv.publishFlags({ 'pledge_data.parquet': parquetOf(pledges(Float64Array.from([10, 12.34, 0.01, 99.99]))) });
    expect((await run()).errors).toEqual([]);
    const exact = await read();
    expect(exact).toEqual([
      { symbol: 'SYM0', pct: 10, t: 'DECIMAL(7,2)' },
      { symbol: 'SYM1', pct: 12.34, t: 'DECIMAL(7,2)' },
      { symbol: 'SYM2', pct: 0.01, t: 'DECIMAL(7,2)' },
      { symbol: 'SYM3', pct: 99.99, t: 'DECIMAL(7,2)' },
    ]);
    let flags = (await readState(host.storage)).datasets.flags!;
    const pct = flags.drift!.filter((n) => n.column === 'pledged_pct_of_promoter');
    expect(pct.map(({ change, from, to, status }) => ({ change, from, to, status }))).toEqual([
      { change: 'retyped', from: 'DOUBLE', to: 'DECIMAL(7,2)', status: 'accepted' },
    ]);

    srv.publishFlags({ 'pledge_data.parquet': parquetOf(pledges(Float64Array.from([10, 12.345, 0.01, 99.99, 1]))) });
    const inexact = await run();
    expect(inexact.files[0]).toMatchObject({
      status: 'failed',
      error: 'pledge_data.parquet: column "pledged_pct_of_promoter" is DOUBLE; value 12.345 does not convert to DECIMAL(7,2) exactly',
    });
    expect(await read()).toEqual(exact);
    flags = (await readState(host.storage)).datasets.flags!;
    expect(flags.drift!.find((n) => n.status === 'refused')).toMatchObject({
      table: 'pledge_data', file: 'pledge_data.parquet', change: 'retyped', column: 'pledged_pct_of_promoter', from: 'DOUBLE', to: 'DECIMAL(7,2)',
    });

    srv.publishFlags({ 'pledge_data.parquet': parquetOf(pledges(Float32Array.from([10, 12.5, 0.25, 99.5, 1, 2]))) });
    const float = await run();
    expect(float.files[0].error).toBe(
      'pledge_data.parquet: column "pledged_pct_of_promoter" is FLOAT, which cannot hold DECIMAL(7,2) values without loss (FLOAT keeps about 7 significant digits)',
    );
    expect(await read()).toEqual(exact);
    flags = (await readState(host.storage)).datasets.flags!;
    const refused = flags.drift!.filter((n) => n.status === 'refused');
    expect(refused.map((n) => `${n.column} ${n.from}`)).toEqual(['pledged_pct_of_promoter FLOAT']);
    expect(refused[0].detail).toMatch(/would lose values; the previous copy of flags\.pledge_data keeps answering/);
  });
});
