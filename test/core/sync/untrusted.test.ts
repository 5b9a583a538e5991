import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { zipSync, strToU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { craftedServer, parquetOf } from './crafted.js';
import { NO_LIMITS, tempDir } from './fixture.js';
import { checkFileName } from '../../../src/core/sync/names.js';
import { parseManifest } from '../../../src/core/sync/manifest.js';
import { sync } from '../../../src/core/sync/sync.js';
import { fileState, setChoice } from '../../../src/core/sync/metadata.js';
import { nodeHost, openStore } from '../../../src/core/database/node.js';

/** Every path under `root`, so a test can prove nothing was written outside the store. */
function tree(root: string): string[] {
  return fs.readdirSync(root, { recursive: true, encoding: 'utf8' }).map((p) => p.replaceAll('\\', '/')).sort();
}

const surveillance = (n: number, extra = true) => ({
  stage_label: Array.from({ length: n }, (_, i) => `Stage ${i}`),
  symbol: Array.from({ length: n }, (_, i) => `SYM${i}`),
  isin: Array.from({ length: n }, () => 'INE000A01010'),
  company_name: Array.from({ length: n }, (_, i) => `Company ${i}`),
  snapshot_date: Array.from({ length: n }, () => '2026-11-13'),
  exchange: Array.from({ length: n }, () => 'NSE'),
  framework: Array.from({ length: n }, () => 'GSM'),
  stage: Int32Array.from({ length: n }, (_, i) => i % 4),
  effective_date: Array.from({ length: n }, () => '2026-10-01'),
  ...(extra ? { analyst_note: Array.from({ length: n }, (_, i) => `note ${i}`) } : {}),
});

describe('manifest names are untrusted', () => {
  it.each([
    '../evil.parquet', 'a/b.parquet', 'a\\b.parquet', '/etc/passwd', '%2e%2e%2fevil.parquet', '..%2fevil',
    'x\u0000.parquet', 'C:evil.parquet', `${'a'.repeat(300)}.parquet`, '', '.hidden.parquet', 'a..parquet',
  ])('refuses %j', (name) => {
    expect(() => checkFileName(name)).toThrow(/refused manifest file name/);
  });

  it('any name it accepts is one plain path segment', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => {
        let ok = true;
        try {
          checkFileName(s);
        } catch {
          ok = false;
        }
        if (ok) expect(s).toMatch(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,119}$/);
        if (ok) expect(s.includes('..')).toBe(false);
      }),
    );
  });

  it('a manifest with one unsafe name is refused whole; sizes must be real numbers', () => {
    expect(() => parseManifest(JSON.stringify({ files: { 'ok.parquet': { size_bytes: 1 }, '../x': { size_bytes: 1 } } }))).toThrow(/refused/);
    expect(() => parseManifest(JSON.stringify({ files: { 'ok.parquet': { size_bytes: -1 } } }))).toThrow(/size_bytes/);
    expect(() => parseManifest(JSON.stringify({ files: { 'ok.parquet': { size_bytes: '5' } } }))).toThrow(/size_bytes/);
    expect(() => parseManifest('[]')).toThrow(/files/);
  });
});

describe('sync against a crafted publisher', { timeout: 600_000 }, () => {
  let srv: Awaited<ReturnType<typeof craftedServer>>;
  let root: string;
  beforeAll(async () => {
    srv = await craftedServer();
  });
  afterAll(() => srv?.close());

  function run(storeDir: string, maxUnpackedBytes?: number) {
    const host = nodeHost(storeDir);
    return sync({ storage: host.storage, host, source: srv.url, only: ['flags'], retry: { baseMs: 10 }, maxUnpackedBytes, rules: NO_LIMITS });
  }

  it('a manifest naming a file outside the store is refused before any download', async () => {
    root = tempDir('evil');
    for (const evil of ['../../evil.parquet', 'sub/evil.parquet', '%2e%2e%2fevil.parquet']) {
      srv.publishFlags({}, { [evil]: 10, 'surveillance_flags.parquet': 10 });
      srv.seen.length = 0;
      const s = await run(path.join(root, 'store'));
      expect(s.errors.join()).toMatch(/refused manifest file name/);
      expect(srv.seen).toEqual(['/flags/v1/downloads/manifest']);
    }
    expect(tree(root).filter((p) => p.includes('evil'))).toEqual([]);
  });

  it('maps columns by name, casts to the contract, keeps extra columns; a file missing a required column is refused and the previous copy keeps answering', async () => {
    root = tempDir('byname');
    const storeDir = path.join(root, 'store');
    srv.publishFlags({ 'surveillance_flags.parquet': parquetOf(surveillance(5)) });
    const first = await run(storeDir);
    expect(first.errors).toEqual([]);
    let store = await openStore(storeDir);
    const cols = await store.engine.all<{ column_name: string; column_type: string }>('SELECT column_name, column_type FROM (DESCRIBE flags.surveillance_flags)');
    expect(cols.map((c) => `${c.column_name} ${c.column_type}`)).toEqual([
      'symbol VARCHAR', 'isin VARCHAR', 'company_name VARCHAR', 'snapshot_date DATE', 'exchange VARCHAR',
      'framework VARCHAR', 'stage INTEGER', 'stage_label VARCHAR', 'effective_date DATE', 'analyst_note VARCHAR',
    ]);
    expect(await store.engine.all('SELECT symbol, snapshot_date, stage FROM flags.surveillance_flags ORDER BY symbol LIMIT 1')).toEqual([
      { symbol: 'SYM0', snapshot_date: '2026-11-13', stage: 0 },
    ]);
    await store.close();

    const { framework: _dropped, ...missing } = surveillance(9);
    srv.publishFlags({ 'surveillance_flags.parquet': parquetOf(missing) });
    const second = await run(storeDir);
    const f = second.files.find((x) => x.name === 'surveillance_flags.parquet')!;
    expect(f.status).toBe('failed');
    expect(f.error).toMatch(/surveillance_flags\.parquet: required column "framework" is missing/);
    store = await openStore(storeDir);
    expect(await store.engine.all('SELECT count(*) AS n FROM flags.surveillance_flags')).toEqual([{ n: 5 }]);
    await store.close();
  });

  it('a csv.gz or tsv.gz is unpacked through the cap, then loads; inflating past the cap refuses it', async () => {
    root = tempDir('gz');
    const storeDir = path.join(root, 'store');
    const lines = ['symbol,isin,company_name,snapshot_date,exchange,framework,stage,stage_label,effective_date', 'A,INE000A01010,A Ltd,2026-11-13,NSE,GSM,1,Stage I,2026-10-01', 'B,INE000A01010,B Ltd,2026-11-13,BSE,ASM,2,Stage II,2026-10-02'];
    for (const [choice, sep] of [['csv.gz', ','], ['tsv.gz', '\t']] as const) {
      await setChoice(fileState(nodeHost(storeDir).storage), 'flags', choice);
      const text = `${lines.map((l) => l.replaceAll(',', sep)).join('\n')}\n`;
      srv.publishFlags({ [`surveillance_flags.${choice}`]: gzipSync(text) });
      const over = await run(storeDir, text.length - 1);
      expect(over.files[0].error).toMatch(new RegExp(`unpacks to more than ${text.length - 1} bytes \\(the unpack limit\\); refused, the data already here is kept`));
      const ok = await run(storeDir, text.length);
      expect(ok.errors).toEqual([]);
      const store = await openStore(storeDir);
      expect(await store.engine.all('SELECT symbol, exchange, stage, effective_date FROM flags.surveillance_flags ORDER BY symbol')).toEqual([
        { symbol: 'A', exchange: 'NSE', stage: 1, effective_date: '2026-10-01' },
        { symbol: 'B', exchange: 'BSE', stage: 2, effective_date: '2026-10-02' },
      ]);
      await store.close();
      expect(fs.readdirSync(storeDir).filter((n) => n.startsWith('tmp~'))).toEqual([]);
    }
  });

  it('zip entries that climb out of the archive are refused; decompression is capped', async () => {
    root = tempDir('zip');
    const storeDir = path.join(root, 'store');
    const csv = 'symbol,isin,company_name,snapshot_date,exchange,framework,stage,stage_label,effective_date\nA,INE000A01010,A Ltd,2026-11-13,NSE,GSM,1,Stage I,2026-10-01\n';
    await setChoice(fileState(nodeHost(storeDir).storage), 'flags', 'csv.zip');
    srv.publishFlags({ 'surveillance_flags.csv.zip': Buffer.from(zipSync({ '../../evil.csv': strToU8(csv), 'README.md': strToU8('x') })) });
    const slip = await run(storeDir);
    expect(slip.files[0]).toMatchObject({ status: 'failed' });
    expect(slip.files[0].error).toMatch(/refused zip entry "\.\.\/\.\.\/evil\.csv"/);
    expect(tree(root).filter((p) => p.includes('evil'))).toEqual([]);

    srv.publishFlags({ 'surveillance_flags.csv.zip': Buffer.from(zipSync({ 'surveillance_flags.csv': strToU8(csv.repeat(200)) })) });
    const bomb = await run(storeDir, 4096);
    expect(bomb.files[0].error).toMatch(/unpacks to more than 4096 bytes/);

    srv.publishFlags({ 'surveillance_flags.csv.zip': Buffer.from(zipSync({ 'surveillance_flags.csv': strToU8(csv), 'README.md': strToU8('x') })) });
    const ok = await run(storeDir);
    expect(ok.errors).toEqual([]);
    const store = await openStore(storeDir);
    expect(await store.engine.all('SELECT symbol, stage, effective_date FROM flags.surveillance_flags')).toEqual([
      { symbol: 'A', stage: 1, effective_date: '2026-10-01' },
    ]);
    await store.close();
  });
});
