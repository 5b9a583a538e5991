/**
 * Malicious publishers: manifests with names that try to leave the store, sizes and row counts that
 * lie, archives that explode or climb out, files that only pretend to be parquet or DuckDB. Each
 * scenario is a sync against a publisher that says exactly what the test wants. Goals: nothing
 * written outside the store (a sentinel tree around it is hashed before and after), the previous
 * data keeps answering, a clear error names the file, memory and disk stay bounded.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { zipSync, strToU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parquetOf } from '../core/sync/crafted.js';
import { NO_LIMITS, tempDir } from '../core/sync/fixture.js';
import { sync } from '../../src/core/sync/sync.js';
import { fileState, readState, setChoice } from '../../src/core/sync/metadata.js';
import { nodeHost } from '../../src/core/database/node.js';
import type { Service } from '../../src/core/sync/datasets.js';
import { tinyData } from '../helpers/tiny-data.js';
import { checksums } from './store-check.js';
import { hostilePublisher, type HostileFile } from './hostile.js';
import { LONG, writeFigures } from './figures.js';

const MIB = 2 ** 20;
/**
 * The unpack limit most of the campaign runs with (the default, 16 GiB, is too big to fill in a test).
 * The `defaultCaps` scenarios run with the defaults, where the cap that stops a bomb is its ratio.
 */
const CAP = 8 * MIB;

const surveillance = (n: number) => ({
  symbol: Array.from({ length: n }, (_, i) => `SYM${i}`),
  isin: Array.from({ length: n }, () => 'INE000A01010'),
  company_name: Array.from({ length: n }, (_, i) => `Company ${i}`),
  snapshot_date: Array.from({ length: n }, () => '2026-11-13'),
  exchange: Array.from({ length: n }, () => 'NSE'),
  framework: Array.from({ length: n }, () => 'GSM'),
  stage: Int32Array.from({ length: n }, (_, i) => i % 4),
  stage_label: Array.from({ length: n }, (_, i) => `Stage ${i}`),
  effective_date: Array.from({ length: n }, () => '2026-10-01'),
});
const CSV_HEADER = 'symbol,isin,company_name,snapshot_date,exchange,framework,stage,stage_label,effective_date\n';
const CSV_ROW = 'A,INE000A01010,A Ltd,2026-11-13,NSE,GSM,1,Stage I,2026-10-01\n';
const good = parquetOf(surveillance(3));

/** Path → SHA-256 of every file and directory under `root`, except the store itself. */
function tree(root: string, skip: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    const abs = path.join(root, rel);
    if (abs === skip || abs.startsWith(`${skip}${path.sep}`)) continue;
    const st = fs.lstatSync(abs);
    out[rel] = st.isFile() ? createHash('sha256').update(fs.readFileSync(abs)).digest('hex') : st.isDirectory() ? 'dir' : 'other';
  }
  return out;
}

/** Bytes of the files in `dir`; a file removed between the listing and its stat counts nothing. */
function dirBytes(dir: string): number {
  return fs.readdirSync(dir).reduce((n, f) => n + (fs.statSync(path.join(dir, f), { throwIfNoEntry: false })?.size ?? 0), 0);
}

const zeros = (n: number) => Buffer.alloc(n, 0);
const csvRows = (bytes: number) => Buffer.from(CSV_HEADER + CSV_ROW.repeat(Math.ceil(bytes / CSV_ROW.length)));
/** A gzip file of `members` members of 1 MiB of rows each (RFC 1952 allows many): ~3 KiB per MiB inflated. */
const gzipMembers = (members: number, header = CSV_HEADER) =>
  Buffer.concat([gzipSync(header), ...Array<Buffer>(members).fill(gzipSync(CSV_ROW.repeat(Math.ceil(MIB / CSV_ROW.length)), { level: 9 }))]);
/** `n` MiB of zeros as a gzip of 16 MiB members (RFC 1952 allows many): ~16 KiB per member, cheap to build at any size. */
const gzipZeros = (n: number) => Buffer.concat(Array<Buffer>(Math.ceil(n / 16)).fill(gzipSync(zeros(16 * MIB), { level: 9 })));
const CAPPED = /unpacks to more than 8388608 bytes \(the unpack limit\); refused, the data already here is kept/;
/** The default caps: above the 64 MiB floor, 100x the compressed bytes (docs/sync.md, "Unpacking"). */
const IMPLAUSIBLE = /unpacks to more than 67108864 bytes \(implausible for \d+ compressed bytes: over 100x and over 67108864 bytes\); refused, the data already here is kept/;
/** The store may grow by at most this much while a bomb is refused (issue 24), the process's memory by this. */
const STORE_GROWTH = 200e6;
const RSS_GROWTH = 256 * MIB;

interface Scenario {
  label: string;
  service?: Service;
  choice?: string;
  files: () => Record<string, HostileFile>;
  raw?: string;
  /** The error the sync must report (a clear one: it names what was refused). */
  error: RegExp;
  /** Only the manifest may be requested (names refused before any download). */
  manifestOnly?: boolean;
  /** Runs with the default caps (no unpack limit given): only the ratio and the space left stop it. */
  defaultCaps?: boolean;
}

/** Bombs just above the floor (so they stay cheap), inside a zip and a gzip, against the default caps. */
const DEFAULT_CAPS: Scenario[] = [
  { label: 'default caps: duckdb gzip bomb (80 MiB of zeros)', service: 'indicators', defaultCaps: true, files: () => ({ 'indicators_all.duckdb.gz': { body: gzipZeros(80) } }), error: IMPLAUSIBLE },
  { label: 'default caps: duckdb zip bomb (80 MiB of zeros)', service: 'indicators', defaultCaps: true, files: () => ({ 'indicators_all.duckdb.zip': { body: Buffer.from(zipSync({ 'indicators_all.duckdb': zeros(80 * MIB), 'README.md': strToU8('x') }, { level: 9 })) } }), error: IMPLAUSIBLE },
  { label: 'default caps: csv.gz of valid rows in 80 members (80 MiB)', choice: 'csv.gz', defaultCaps: true, files: () => ({ 'surveillance_flags.csv.gz': { body: gzipMembers(80), rows: 3 } }), error: IMPLAUSIBLE },
  { label: 'default caps: csv.zip of valid rows (80 MiB)', choice: 'csv.zip', defaultCaps: true, files: () => ({ 'surveillance_flags.csv.zip': { body: Buffer.from(zipSync({ 'surveillance_flags.csv': csvRows(80 * MIB) }, { level: 9 })) } }), error: IMPLAUSIBLE },
  ...(LONG
    ? [{ label: 'default caps: duckdb gzip bomb (1 GiB of zeros, as found in issue 24)', service: 'indicators' as const, defaultCaps: true, files: () => ({ 'indicators_all.duckdb.gz': { body: gzipZeros(1024) } }), error: IMPLAUSIBLE }]
    : []),
];

const evilName = (name: string): Scenario => ({
  label: `manifest name ${JSON.stringify(name.length > 40 ? `${name.slice(0, 20)}…(${name.length})` : name)}`,
  files: () => ({ 'surveillance_flags.parquet': { body: good }, [name]: { body: Buffer.from('pwned') } }),
  error: /refused manifest file name/,
  manifestOnly: true,
});

const NAMES = [
  '../evil.parquet', '../../sentinel/evil.parquet', '/tmp/evil.parquet', '..\\evil.parquet', 'sub\\..\\..\\evil.parquet',
  '%2e%2e%2fevil.parquet', '..%2Fevil.parquet', '%2F..%2Fevil.parquet', 'evil\u0000.parquet', 'evil%00.parquet',
  `${'a'.repeat(5000)}.parquet`, 'C:\\evil.parquet', 'C:evil.parquet', '.', '..', '.evil.parquet', 'evil.parquet/..',
  'surveillance_flags.parquet\n', '\uff0e\uff0e\uff0fevil.parquet', 'sub/evil.parquet', '~/evil.parquet', 'evil .parquet',
];

const SCENARIOS: Scenario[] = [
  ...DEFAULT_CAPS,
  ...NAMES.map(evilName),
  { label: 'manifest is not JSON', files: () => ({}), raw: '{"files": ', error: /manifest refused: not JSON/ },
  { label: 'manifest without files', files: () => ({}), raw: '{"files": []}', error: /no `files` object/ },
  { label: 'manifest with 100,000 files', files: () => ({}), raw: JSON.stringify({ files: Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`t${i}.parquet`, { size_bytes: 1 }])) }), error: /manifest refused: 100000 files/ },
  { label: 'size_bytes absurd (2^60)', files: () => ({ 'surveillance_flags.parquet': { body: good, size: 2 ** 60 } }), error: /no valid size_bytes/ },
  { label: 'size_bytes negative', files: () => ({ 'surveillance_flags.parquet': { body: good, size: -5 } }), error: /no valid size_bytes/ },
  { label: 'size_bytes a string', files: () => ({ 'surveillance_flags.parquet': { body: good, size: '9' } }), error: /no valid size_bytes/ },
  { label: 'size lies low (body bigger)', files: () => ({ 'surveillance_flags.parquet': { body: good, size: good.length - 100 } }), error: /announces \d+ bytes, the manifest \d+/ },
  { label: 'size lies high (body smaller)', files: () => ({ 'surveillance_flags.parquet': { body: good, size: good.length + 100 } }), error: /announces \d+ bytes, the manifest \d+/ },
  { label: 'chunked body longer than the manifest', files: () => ({ 'surveillance_flags.parquet': { body: Buffer.concat([good, randomBytes(8 * MIB)]), size: good.length, chunked: true } }), error: /body longer than the \d+ bytes announced/ },
  { label: 'Content-Length matches, body ends early every time', files: () => ({ 'surveillance_flags.parquet': { body: good, contentLength: good.length + 1000, size: good.length + 1000 } }), error: /connection dropped|gave up/ },
  { label: 'row_count huge (10^15)', files: () => ({ 'surveillance_flags.parquet': { body: good, rows: 1e15 } }), error: /3 rows loaded, the manifest announces 1000000000000000/ },
  { label: 'row_count wrong (4 for 3)', files: () => ({ 'surveillance_flags.parquet': { body: good, rows: 4 } }), error: /3 rows loaded, the manifest announces 4/ },
  { label: 'fake parquet (random bytes)', files: () => ({ 'surveillance_flags.parquet': { body: randomBytes(4096) } }), error: /surveillance_flags\.parquet: .*(parquet|EOF)/i },
  { label: 'fake parquet (magic only)', files: () => ({ 'surveillance_flags.parquet': { body: Buffer.concat([Buffer.from('PAR1'), randomBytes(2000), Buffer.from('PAR1')]) } }), error: /surveillance_flags\.parquet: .*(parquet|EOF)/i },
  { label: 'truncated parquet', files: () => ({ 'surveillance_flags.parquet': { body: good.subarray(0, good.length - 30) } }), error: /surveillance_flags\.parquet: .*(parquet|EOF)/i },
  { label: 'empty file', files: () => ({ 'surveillance_flags.parquet': { body: Buffer.alloc(0) } }), error: /surveillance_flags\.parquet: .*(parquet|EOF)/i },
  { label: 'zip bomb (csv.zip, 32 MiB of rows)', choice: 'csv.zip', files: () => ({ 'surveillance_flags.csv.zip': { body: Buffer.from(zipSync({ 'surveillance_flags.csv': csvRows(32 * MIB) }, { level: 9 })) } }), error: CAPPED },
  { label: 'zip bomb (zeros, 64 MiB)', choice: 'csv.zip', files: () => ({ 'surveillance_flags.csv.zip': { body: Buffer.from(zipSync({ 'surveillance_flags.csv': zeros(64 * MIB) }, { level: 9 })) } }), error: CAPPED },
  ...['../../evil.csv', '/tmp/evil.csv', '..\\evil.csv', 'C:/evil.csv', 'a/../../evil.csv'].map((entry): Scenario => ({
    label: `zip-slip entry ${JSON.stringify(entry)}`,
    choice: 'csv.zip',
    files: () => ({ 'surveillance_flags.csv.zip': { body: Buffer.from(zipSync({ [entry]: strToU8(CSV_HEADER + CSV_ROW), 'README.md': strToU8('x') })) } }),
    error: /refused zip entry/,
  })),
  { label: 'zip with two csv entries', choice: 'csv.zip', files: () => ({ 'surveillance_flags.csv.zip': { body: Buffer.from(zipSync({ 'a.csv': strToU8(CSV_HEADER), 'b.csv': strToU8(CSV_HEADER) })) } }), error: /more than one \.csv entry/ },
  { label: 'zip without a csv entry', choice: 'csv.zip', files: () => ({ 'surveillance_flags.csv.zip': { body: Buffer.from(zipSync({ 'README.md': strToU8('x') })) } }), error: /no \.csv entry/ },
  { label: 'not a zip', choice: 'csv.zip', files: () => ({ 'surveillance_flags.csv.zip': { body: randomBytes(3000) } }), error: /surveillance_flags\.csv\.zip|invalid zip|no \.csv entry/ },
  { label: 'gzip bomb (csv.gz of zeros, 64 MiB)', choice: 'csv.gz', files: () => ({ 'surveillance_flags.csv.gz': { body: gzipSync(zeros(64 * MIB), { level: 9 }) } }), error: CAPPED },
  { label: 'gzip bomb (csv.gz of valid rows, 16 MiB)', choice: 'csv.gz', files: () => ({ 'surveillance_flags.csv.gz': { body: gzipSync(csvRows(16 * MIB), { level: 9 }), rows: 3 } }), error: CAPPED },
  { label: 'gzip bomb (csv.gz of valid rows in 1,024 members, 1 GiB)', choice: 'csv.gz', files: () => ({ 'surveillance_flags.csv.gz': { body: gzipMembers(1024), rows: 3 } }), error: CAPPED },
  { label: 'gzip bomb (tsv.gz of valid rows in 1,024 members, 1 GiB)', choice: 'tsv.gz', files: () => ({ 'surveillance_flags.tsv.gz': { body: gzipMembers(1024, CSV_HEADER.replaceAll(',', '\t')), rows: 3 } }), error: CAPPED },
  { label: 'gzip that is not gzip', choice: 'csv.gz', files: () => ({ 'surveillance_flags.csv.gz': { body: randomBytes(3000) } }), error: /surveillance_flags\.csv\.gz/ },
  { label: 'fake duckdb (random bytes, gz)', service: 'indicators', files: () => ({ 'indicators_all.duckdb.gz': { body: gzipSync(randomBytes(64 * 1024)) } }), error: /indicators/ },
  { label: 'fake duckdb (text, zip)', service: 'indicators', files: () => ({ 'indicators_all.duckdb.zip': { body: Buffer.from(zipSync({ 'indicators_all.duckdb': strToU8('DUCK'.repeat(5000)) })) } }), error: /indicators/ },
  { label: 'duckdb gzip bomb (64 MiB of zeros)', service: 'indicators', files: () => ({ 'indicators_all.duckdb.gz': { body: gzipSync(zeros(64 * MIB), { level: 9 }) } }), error: CAPPED },
  { label: 'duckdb zip-slip', service: 'indicators', files: () => ({ 'indicators_all.duckdb.zip': { body: Buffer.from(zipSync({ '../indicators_all.duckdb': randomBytes(100) })) } }), error: /refused zip entry/ },
  ...(LONG
    ? [
        { label: 'gzip bomb (csv.gz of zeros, 512 MiB)', choice: 'csv.gz', files: () => ({ 'surveillance_flags.csv.gz': { body: gzipSync(zeros(512 * MIB), { level: 9 }) } }), error: CAPPED },
        { label: 'gzip bomb (csv.gz of valid rows in 16,384 members, 16 GiB)', choice: 'csv.gz', files: () => ({ 'surveillance_flags.csv.gz': { body: gzipMembers(16_384), rows: 3 } }), error: CAPPED },
      ]
    : []),
];

describe('malicious publisher campaign', { timeout: 900_000 }, () => {
  let srv: Awaited<ReturnType<typeof hostilePublisher>>;
  let root: string;
  let store: string;
  let sentinel: Record<string, string>;
  let previous: Awaited<ReturnType<typeof checksums>>;
  let indicators: Awaited<ReturnType<typeof checksums>>;
  const tally = { scenarios: 0, failures: 0, 'writes outside the store': 0, 'clear errors': 0, 'peak store growth bytes': 0, 'peak RSS growth MiB': 0, 'peak RSS MiB': 0 };

  beforeAll(async () => {
    srv = await hostilePublisher();
    root = tempDir('malicious');
    // Sentinels on every side of the store: siblings, parent, a nested tree.
    fs.mkdirSync(path.join(root, 'sentinel', 'deep', 'er'), { recursive: true });
    for (const p of ['sentinel/a.txt', 'sentinel/deep/b.txt', 'sentinel/deep/er/c.txt', 'top.txt']) fs.writeFileSync(path.join(root, p), p);
    store = path.join(root, 'nest', 'store');
    fs.mkdirSync(store, { recursive: true });
    srv.publish('flags', { 'surveillance_flags.parquet': { body: good, rows: 3 } });
    const host = nodeHost(store);
    const s = await sync({ storage: host.storage, host, source: srv.url, only: ['flags'], rules: NO_LIMITS });
    expect(s.errors).toEqual([]);
    previous = await checksums(store, 'flags');
    expect(previous.tables.surveillance_flags.n).toBe(3);
    // A real indicators generation too (the generator's tiny indicators_all.duckdb.gz), for the DuckDB bombs to spare.
    const all = 'indicators_all.duckdb.gz';
    srv.publish('indicators', { [all]: { body: fs.readFileSync(path.join(await tinyData('indicators'), all)) } });
    const i = await sync({ storage: host.storage, host, source: srv.url, only: ['indicators'], rules: NO_LIMITS });
    expect(i.errors).toEqual([]);
    indicators = await checksums(store, 'indicators');
    expect(Object.keys(indicators.tables).length).toBeGreaterThan(0);
    sentinel = tree(root, store);
  }, 300_000);

  afterAll(async () => {
    await srv?.close();
    tally['peak RSS MiB'] = Math.round(process.resourceUsage().maxRSS / 1024);
    writeFigures({
      campaign: 'malicious',
      title: 'Malicious publishers',
      checks: [
        `${SCENARIOS.length} hostile publishers (traversal names, lying sizes and row counts, zip and gzip bombs, zip-slip, fake parquet and DuckDB), each synced into one store nested in a sentinel tree.`,
        'After each: every file around the store hashes as before; the previous flags and indicators data answer the same rows and hashes; the sync reports an error naming what was refused; unpacking (zip, .duckdb.gz, csv.gz and tsv.gz alike) is capped (8 MiB in this campaign, except the default-caps bombs, which the 64 MiB floor and 100x ratio stop).',
        'Peak store growth: the most the store directory grew during any scenario, sampled every 5 ms while the sync runs (must stay under 200 MB); peak RSS growth: the most the test process RSS rose during a sync, sampled alike (under 256 MiB for the default-caps bombs); peak RSS: the test process high-water mark.',
      ],
      counts: tally,
    });
  });

  it.each(SCENARIOS)('$label', async (sc) => {
    tally.scenarios++;
    try {
      const service = sc.service ?? 'flags';
      const host = nodeHost(store);
      await setChoice(fileState(host.storage), 'flags', (sc.choice ?? 'auto') as never);
      srv.publish(service, sc.files(), sc.raw);
      // The store's size is sampled while the sync runs (a refused unpack is removed before it returns).
      const before = dirBytes(store);
      const rssBefore = process.memoryUsage.rss();
      let peakRss = rssBefore;
      let peak = before;
      const sample = setInterval(() => {
        peak = Math.max(peak, dirBytes(store));
        peakRss = Math.max(peakRss, process.memoryUsage.rss());
      }, 5);
      let s;
      try {
        s = await sync({ storage: host.storage, host, source: srv.url, only: [service], retry: { baseMs: 5, attempts: 3 }, maxUnpackedBytes: sc.defaultCaps ? undefined : CAP, rules: NO_LIMITS });
      } finally {
        clearInterval(sample);
      }
      const growth = Math.max(peak, dirBytes(store)) - before;
      // Memory may not follow the bomb: unpack holds one slice's output at a time (~16 MiB); the rest is
      // the sync's own engine.
      const rssGrowth = peakRss - rssBefore;
      tally['peak RSS growth MiB'] = Math.max(tally['peak RSS growth MiB'], Math.round(rssGrowth / MIB));
      if (sc.defaultCaps) expect(rssGrowth).toBeLessThan(RSS_GROWTH);
      tally['peak store growth bytes'] = Math.max(tally['peak store growth bytes'], growth);
      expect(growth).toBeLessThan(STORE_GROWTH);
      const outside = tree(root, store);
      const changed = [...new Set([...Object.keys(outside), ...Object.keys(sentinel)])].filter((k) => outside[k] !== sentinel[k]);
      tally['writes outside the store'] += changed.length;
      expect(changed).toEqual([]);
      // As the CLI prints them: the file's name, then why it was refused.
      const errors = [...s.errors, ...s.files.flatMap((f) => (f.error ? [`${f.name}: ${f.error}`] : []))].join('\n');
      expect(errors).toMatch(sc.error);
      tally['clear errors']++;
      if (sc.manifestOnly) expect(srv.seen).toEqual([srv.seen[0]]);
      // A refused file may still bring a new generation, rebuilt from the files kept: the same tables
      // and row counts here, the same row hashes in the last test (opening the store costs seconds).
      const now = (await readState(host.storage)).datasets;
      const rows = (d: (typeof now)['flags']) => Object.fromEntries(Object.entries(d!.tables).map(([t, v]) => [t, v.rows]));
      expect(rows(now.flags)).toEqual({ surveillance_flags: 3 });
      if (service === 'indicators') expect(rows(now.indicators)).toEqual(Object.fromEntries(Object.entries(indicators.tables).map(([t, v]) => [t, v.n])));
    } catch (e) {
      tally.failures++;
      throw e;
    }
  });
  it('afterwards the previous flags and indicators data answer the same rows and row hashes', async () => {
    expect((await checksums(store, 'flags')).tables).toEqual(previous.tables);
    expect((await checksums(store, 'indicators')).tables).toEqual(indicators.tables);
  });
});
