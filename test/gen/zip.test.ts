import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Gunzip, Unzip, UnzipInflate, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
