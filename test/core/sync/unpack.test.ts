/**
 * The unpack caps (issue 24): every file the generator publishes unpacks under them, a bomb is stopped
 * at the ratio cap with the store holding no more than the cap, and the space left caps it too. The
 * bombs served over HTTP by a hostile publisher are in test/reliability/malicious.test.ts.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { tinyData } from '../../helpers/tiny-data.js';
import { tempDir } from './fixture.js';
import { FsStorage } from '../../../src/core/storage/fs.js';
import { MemoryStorage } from '../../../src/core/storage/memory.js';
import { plausibleBytes, unpack, UNPACK_FLOOR, UNPACK_RATIO } from '../../../src/core/sync/unpack.js';

const MIB = 2 ** 20;

describe('unpack caps', () => {
  it('nothing under the floor is refused for its ratio; above it, 100x the compressed bytes', () => {
    expect(UNPACK_FLOOR).toBe(64 * MIB);
    expect(UNPACK_RATIO).toBe(100);
    expect(plausibleBytes(1000)).toBe(64 * MIB);
    expect(plausibleBytes(10 * MIB)).toBe(1000 * MIB);
  });

  it('every archive the generator publishes unpacks under the default caps', { timeout: 300_000 }, async () => {
    const ratios: number[] = [];
    for (const service of ['indicators', 'flags', 'mf'] as const) {
      const dir = await tinyData(service);
      const storage = new FsStorage(tempDir(`unpack-${service}`));
      for (const name of fs.readdirSync(dir).filter((n) => /\.(csv|tsv|duckdb)\.(gz|zip)$/.test(n))) {
        fs.copyFileSync(path.join(dir, name), path.join(storage.dir, name));
        const kind = name.endsWith('.gz') ? 'gz' : 'zip';
        const n = await unpack(storage, name, 'out', { kind, want: `.${name.split('.').at(-2)}` });
        ratios.push(n / fs.statSync(path.join(dir, name)).size);
      }
    }
    expect(ratios.length).toBeGreaterThan(30);
    // The tiny DuckDB files are mostly empty blocks (indicator_config.duckdb.gz: 56.6x), all under the floor.
    expect(Math.max(...ratios)).toBeGreaterThan(UNPACK_RATIO / 4);
  });

  it('a gzip bomb stops at the ratio cap, with no more than the cap written', async () => {
    const storage = new FsStorage(tempDir('unpack-bomb'));
    // 80 MiB of zeros in 16 MiB members (~80 KiB): the cap is the floor, 64 MiB.
    await fs.promises.writeFile(path.join(storage.dir, 'bomb.csv.gz'), Buffer.concat(Array<Buffer>(5).fill(gzipSync(Buffer.alloc(16 * MIB)))));
    await expect(unpack(storage, 'bomb.csv.gz', 'out', { kind: 'gz', want: '.csv' })).rejects.toThrow(
      /bomb\.csv\.gz: unpacks to more than 67108864 bytes \(implausible for \d+ compressed bytes: over 100x and over 67108864 bytes\); refused, the data already here is kept/,
    );
    expect(await storage.size('out')).toBeLessThanOrEqual(UNPACK_FLOOR);
  });

  it('the space left caps an entry too: at most half of it, so the table loaded from it has room', async () => {
    // Random text barely compresses, so neither the floor nor the ratio is what stops it.
    const text = randomBytes(600 * 1024).toString('hex');
    const storage = new MemoryStorage(2 * MIB);
    for (const [name, body] of [['t.csv.gz', gzipSync(text)], ['t.csv.zip', zipSync({ 't.csv': Buffer.from(text) })]] as const) {
      storage.files.set(name, body);
      const left = (await storage.available())!;
      await expect(unpack(storage, name, 'out', { kind: name.endsWith('gz') ? 'gz' : 'zip', want: '.csv' })).rejects.toThrow(
        `unpacks to more than ${Math.floor(left / 2)} bytes (half the ${left} bytes of space left for the store); refused, the data already here is kept`,
      );
      expect((await storage.size('out'))!).toBeLessThanOrEqual(left / 2);
      storage.files.clear();
    }
    // With room for it, the same file unpacks whole.
    const roomy = new MemoryStorage(8 * MIB);
    roomy.files.set('t.csv.gz', gzipSync(text));
    expect(await unpack(roomy, 't.csv.gz', 'out', { kind: 'gz', want: '.csv' })).toBe(text.length);
  });

  it('the disk store reports the free space of its filesystem', async () => {
    const storage = new FsStorage(tempDir('unpack-space'));
    const st = fs.statfsSync(storage.dir);
    expect(Math.abs((await storage.available()) - st.bavail * st.bsize)).toBeLessThan(64 * MIB);
  });
});
