import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32, gunzipSync, gzipSync } from 'node:zlib';
import { Gunzip, Unzip, UnzipInflate, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import unzipper from 'unzipper';
import { wrapFile } from '../../src/gen/zip.js';

const README = '# data\n\nSample README.\n';

/** ~21 MB of CSV-like text: six 4 MiB deflate blocks (more than the writer keeps buffers for), with repeats across block borders. */
function bigText(): Buffer {
  const lines: string[] = ['scheme_code,date,nav,scheme_name'];
  for (let i = 0; lines.length < 360_000; i++) lines.push(`${100000 + (i % 997)},2024-01-${String(1 + (i % 28)).padStart(2, '0')},${(10 + i * 0.0137).toFixed(4)},"Fund ${i % 997} - Direct Plan - Growth"`);
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** Feeds `bytes` to a streaming decoder in odd-sized pieces, as a download arrives. */
function pieces(bytes: Uint8Array, push: (c: Uint8Array, final: boolean) => void): void {
  for (let i = 0; i < bytes.length; i += 65_521) push(bytes.subarray(i, i + 65_521), i + 65_521 >= bytes.length);
}

describe('wrapFile: one deflate, gzip and zip', () => {
  let dir: string;
  let big: Buffer;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'almanac-zip-'));
    big = bigText();
    writeFileSync(path.join(dir, 'big.csv'), big);
    writeFileSync(path.join(dir, 'small.csv'), big.subarray(0, 100_000));
    writeFileSync(path.join(dir, 'empty.csv'), '');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const wrap = (name: string, tag: string) =>
    wrapFile(path.join(dir, name), {
      gz: path.join(dir, `${tag}.gz`),
      zip: { dest: path.join(dir, `${tag}.zip`), name, extra: [{ name: 'README.md', bytes: Buffer.from(README) }] },
    });
  const read = (name: string): Buffer => readFileSync(path.join(dir, name));

  it('a file of several blocks round-trips through gunzip, unzip and the streaming readers sync uses', async () => {
    expect(big.length).toBeGreaterThan(5 * (4 << 20));
    await wrap('big.csv', 'big');
    expect(gunzipSync(read('big.gz')).equals(big)).toBe(true);
    const entries = unzipSync(read('big.zip'));
    expect(Object.keys(entries)).toEqual(['big.csv', 'README.md']);
    expect(Buffer.from(entries['big.csv']).equals(big)).toBe(true);
    expect(new TextDecoder().decode(entries['README.md'])).toBe(README);

    const gunzipped: Uint8Array[] = [];
    const gz = new Gunzip((d) => gunzipped.push(d));
    pieces(read('big.gz'), (c, f) => gz.push(c, f));
    expect(Buffer.concat(gunzipped).equals(big)).toBe(true);

    const unzipped: Uint8Array[] = [];
    const uz = new Unzip((entry) => {
      if (entry.name !== 'big.csv') return;
      entry.ondata = (err, d) => {
        if (err) throw err;
        unzipped.push(d);
      };
      entry.start();
    });
    uz.register(UnzipInflate);
    pieces(read('big.zip'), (c, f) => uz.push(c, f));
    expect(Buffer.concat(unzipped).equals(big)).toBe(true);
    // Blocks cost almost nothing in size against one plain deflate of the whole file.
    expect(read('big.gz').length).toBeLessThan(gzipSync(big).length * 1.01);
  });

  it('writes the same bytes every time', async () => {
    await wrap('big.csv', 'again');
    expect(read('again.gz').equals(read('big.gz'))).toBe(true);
    expect(read('again.zip').equals(read('big.zip'))).toBe(true);
  });

  it('a one-block file gzips exactly as node:zlib does', async () => {
    await wrap('small.csv', 'small');
    expect(read('small.gz').equals(gzipSync(read('small.csv'), { level: 6 }))).toBe(true);
  });

  it('an empty file gives a valid empty gzip and zip entry', async () => {
    await wrap('empty.csv', 'empty');
    expect(gunzipSync(read('empty.gz')).length).toBe(0);
    expect(unzipSync(read('empty.zip'))['empty.csv'].length).toBe(0);
  });

  it('a file past 4 GiB gets a zip64 entry that a zip64 reader unpacks whole, and the README after it', async () => {
    // Sparse zeros, deflated at level 1: a few seconds, a few MB on disk (the full MF history's text
    // formats are ~4 GB each and grow with every generation).
    const size = 2 ** 32 + (3 << 20);
    writeFileSync(path.join(dir, 'huge.bin'), '');
    truncateSync(path.join(dir, 'huge.bin'), size);
    await wrapFile(path.join(dir, 'huge.bin'), { zip: { dest: path.join(dir, 'huge.zip'), name: 'huge.bin', extra: [{ name: 'README.md', bytes: Buffer.from(README) }] } }, 1);
    rmSync(path.join(dir, 'huge.bin'));

    // unzipper reads the central directory (zip64 sizes in its extra field) and each local entry.
    const archive = await unzipper.Open.file(path.join(dir, 'huge.zip'));
    expect(archive.files.map((f) => [f.path, f.uncompressedSize])).toEqual([['huge.bin', size], ['README.md', README.length]]);
    let n = 0;
    let crc = 0;
    for await (const chunk of archive.files[0].stream()) {
      n += chunk.length;
      crc = crc32(chunk, crc);
    }
    expect(n).toBe(size);
    // What came out is `size` zeros: the CRC of that many zeros, computed here on its own.
    const zeros = Buffer.alloc(1 << 24);
    let expected = 0;
    for (let left = size; left > 0; left -= zeros.length) expected = crc32(zeros.subarray(0, Math.min(left, zeros.length)), expected);
    expect(crc >>> 0).toBe(expected >>> 0);
    expect(archive.files[0].crc32 >>> 0).toBe(expected >>> 0);
    expect((await archive.files[1].buffer()).toString()).toBe(README);
    // Files of ordinary size stay plain zip, for readers that know no zip64.
    expect(read('big.zip').includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(false);
  }, 120_000);
});
