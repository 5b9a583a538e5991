/**
 * gzip and zip wrappers of one file, written from a single deflate pass: a gzip member and a zip
 * entry carry the same raw deflate stream, so `wrapFile` compresses once and writes both (the full
 * MF history is ~4 GB of text per format; deflating it twice would double the generator's biggest
 * cost). node:zlib deflates on its thread pool: fflate's JavaScript deflate was about 8x slower here
 * (196 MB of CSV: 39.8 s against 5.0 s).
 * Large inputs are deflated in 4 MiB blocks on several threads, as pigz does: each block is primed
 * with the previous block's last 32 KiB and ends on a sync flush, so the blocks join into one deflate
 * stream that any inflater reads. A file of one block deflates exactly as a plain deflate would.
 * Equal input gives equal bytes: the block size is fixed, the gzip header is the one node:zlib writes
 * on Unix (mtime 0, OS 3), zip entries carry a fixed DOS time (1980-01-01 00:00) and a data
 * descriptor. Zip64 only where a field would overflow 32 bits (an entry that may reach 4 GiB, an
 * offset past 4 GiB), so the files of ordinary size stay readable by zip readers without zip64.
 */
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { constants, crc32, deflateRaw, type ZlibOptions } from 'node:zlib';

export interface WrapTargets {
  gz?: string;
  /** The zip holds `src` as `name`, then each extra entry (e.g. README.md). */
  zip?: { dest: string; name: string; extra?: readonly { name: string; bytes: Uint8Array }[] };
}

/** The largest value of a 32-bit zip field; the value itself means "see the zip64 extra field". */
const LIMIT = 0xffffffff;
const LIMIT16 = 0xffff;
const DOS_TIME = 0; // 00:00:00
const DOS_DATE = (0 << 9) | (1 << 5) | 1; // 1980-01-01
const FLAG_DATA_DESCRIPTOR = 0x0008;
const DEFLATE = 8;
const VERSION = 20;
const VERSION_ZIP64 = 45;
const BLOCK = 4 << 20;
const WINDOW = 32 << 10;
/** Blocks deflating at once: two cores, plus one so a read never leaves a core idle. */
const IN_FLIGHT = 3;
const deflateBlock = promisify<Buffer, ZlibOptions, Buffer>(deflateRaw);

export async function wrapFile(src: string, targets: WrapTargets, level = 6): Promise<void> {
  const gz = targets.gz ? new Sink(targets.gz) : null;
  const zip = targets.zip ? new ZipWriter(new Sink(targets.zip.dest)) : null;
  try {
    await gz?.put(gzipHeader(level));
    await zip?.begin(targets.zip!.name, (await stat(src)).size);
    const d = await deflateFile(src, level, [gz, zip?.out].filter((s): s is Sink => s !== null && s !== undefined));
    await gz?.put(gzipTrailer(d.crc, d.size));
    await zip?.end(d);
    for (const e of targets.zip?.extra ?? []) await zip!.add(e.name, e.bytes, level);
    await zip?.close();
  } finally {
    await Promise.all([gz?.finish(), zip?.out.finish()]);
  }
}

interface Deflated {
  crc: number;
  size: number;
  compressed: number;
}

/** Deflates the file at `src` once, block by block, and writes the stream to each sink in order. */
async function deflateFile(src: string, level: number, sinks: Sink[]): Promise<Deflated> {
  const fh = await open(src, 'r');
  try {
    const size = (await fh.stat()).size;
    const d: Deflated = { crc: 0, size: 0, compressed: 0 };
    // An empty file is one empty block, so it still gets a valid (final) deflate block.
    const blocks = Math.max(1, Math.ceil(size / BLOCK));
    const jobs: Promise<Buffer>[] = [];
    // Block buffers are reused: a fresh 4 MiB buffer per block cost a page fault per 4 KiB read. With
    // at most IN_FLIGHT blocks deflating, the buffer of block i - (IN_FLIGHT + 1) is free again.
    const pool = Array.from({ length: Math.min(blocks, IN_FLIGHT + 1) }, () => Buffer.allocUnsafe(Math.min(BLOCK, size)));
    let prev: Buffer | null = null;
    let started = 0;
    const start = async (): Promise<void> => {
      const block = pool[started % pool.length].subarray(0, Math.min(BLOCK, size - d.size));
      const { bytesRead } = await fh.read(block, 0, block.length, d.size);
      if (bytesRead !== block.length) throw new Error(`${src}: changed while being compressed`);
      d.crc = crc32(block, d.crc);
      d.size += block.length;
      const job = deflateBlock(block, blockOptions(level, prev, ++started === blocks));
      // Awaited in order below; a failure meanwhile must not count as unhandled.
      job.catch(() => undefined);
      jobs.push(job);
      prev = block;
    };
    for (let done = 0; done < blocks; done++) {
      while (started < blocks && jobs.length < IN_FLIGHT) await start();
      const out = await jobs.shift()!;
      d.compressed += out.length;
      for (const s of sinks) await s.put(out);
    }
    return d;
  } finally {
    await fh.close();
  }
}

/** One block's deflate: primed with the previous block's tail, ended by a sync flush unless last. */
function blockOptions(level: number, prev: Buffer | null, last: boolean): ZlibOptions {
  return {
    level,
    ...(prev ? { dictionary: prev.subarray(Math.max(0, prev.length - WINDOW)) } : {}),
    finishFlush: last ? constants.Z_FINISH : constants.Z_SYNC_FLUSH,
  };
}

/** A write stream that counts its bytes and respects backpressure. */
class Sink {
  offset = 0;
  private readonly out: WriteStream;
  constructor(dest: string) {
    this.out = createWriteStream(dest);
  }
  async put(b: Buffer): Promise<void> {
    this.offset += b.length;
    if (!this.out.write(b)) await once(this.out, 'drain');
  }
  finish(): Promise<void> {
    return new Promise((resolve) => this.out.end(() => resolve()));
  }
}

interface Entry extends Deflated {
  name: Buffer;
  offset: number;
  zip64: boolean;
}

/**
 * Whether an entry of `size` input bytes needs 64-bit sizes. Decided before deflating (the local
 * header comes first), so with room for deflate's worst expansion (zlib's deflateBound: about one
 * byte in 2,000 plus a few per block) rather than on the compressed size.
 */
function needsZip64(size: number): boolean {
  return size + Math.floor(size / 2048) + (1 << 20) >= LIMIT;
}

class ZipWriter {
  private readonly done: Entry[] = [];
  private current: { name: Buffer; offset: number; zip64: boolean } | null = null;
  constructor(readonly out: Sink) {}

  async begin(name: string, size: number): Promise<void> {
    this.current = { name: Buffer.from(name, 'utf8'), offset: this.out.offset, zip64: needsZip64(size) };
    await this.out.put(localHeader(this.current.name, this.current.zip64));
  }

  async end(d: Deflated): Promise<void> {
    const { name, offset, zip64 } = this.current!;
    if (!zip64 && (d.size >= LIMIT || d.compressed >= LIMIT)) throw new Error(`${name.toString('utf8')}: grew while being compressed`);
    await this.out.put(dataDescriptor(d, zip64));
    this.done.push({ ...d, name, offset, zip64 });
    this.current = null;
  }

  /** A small entry from memory (a README): one block. */
  async add(name: string, bytes: Uint8Array, level: number): Promise<void> {
    await this.begin(name, bytes.length);
    const out = await deflateBlock(Buffer.from(bytes), blockOptions(level, null, true));
    await this.out.put(out);
    await this.end({ crc: crc32(bytes), size: bytes.length, compressed: out.length });
  }

  async close(): Promise<void> {
    const cdStart = this.out.offset;
    for (const e of this.done) await this.out.put(centralEntry(e));
    const cd = { count: this.done.length, size: this.out.offset - cdStart, offset: cdStart };
    if (cd.count >= LIMIT16 || cd.size >= LIMIT || cd.offset >= LIMIT) {
      const record = this.out.offset;
      await this.out.put(zip64EndOfCentralDirectory(cd));
      await this.out.put(zip64Locator(record));
    }
    await this.out.put(endOfCentralDirectory(cd));
  }
}

/** RFC 1952 header as node:zlib writes it: no name, mtime 0, XFL from the level, OS 3 (Unix). */
function gzipHeader(level: number): Buffer {
  const xfl = level === 9 ? 2 : level < 2 ? 4 : 0;
  return Buffer.from([0x1f, 0x8b, DEFLATE, 0, 0, 0, 0, 0, xfl, 3]);
}

function gzipTrailer(crc: number, size: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeUInt32LE(crc >>> 0, 0);
  b.writeUInt32LE(size % 0x100000000, 4);
  return b;
}

function localHeader(name: Buffer, zip64: boolean): Buffer {
  const b = Buffer.alloc(30);
  b.writeUInt32LE(0x04034b50, 0);
  b.writeUInt16LE(zip64 ? VERSION_ZIP64 : VERSION, 4);
  b.writeUInt16LE(FLAG_DATA_DESCRIPTOR, 6);
  b.writeUInt16LE(DEFLATE, 8);
  b.writeUInt16LE(DOS_TIME, 10);
  b.writeUInt16LE(DOS_DATE, 12);
  // crc and sizes (14..25) follow the data in the descriptor: 0 here, or for zip64 all ones in the
  // sizes with a zip64 extra field of zeros, which tells readers the descriptor's sizes are 8 bytes.
  if (zip64) {
    b.writeUInt32LE(LIMIT, 18);
    b.writeUInt32LE(LIMIT, 22);
  }
  const extra = zip64 ? zip64Extra([0, 0]) : Buffer.alloc(0);
  b.writeUInt16LE(name.length, 26);
  b.writeUInt16LE(extra.length, 28);
  return Buffer.concat([b, name, extra]);
}

function dataDescriptor(d: Deflated, zip64: boolean): Buffer {
  const b = Buffer.alloc(zip64 ? 24 : 16);
  b.writeUInt32LE(0x08074b50, 0);
  b.writeUInt32LE(d.crc >>> 0, 4);
  if (zip64) {
    b.writeBigUInt64LE(BigInt(d.compressed), 8);
    b.writeBigUInt64LE(BigInt(d.size), 16);
  } else {
    b.writeUInt32LE(d.compressed, 8);
    b.writeUInt32LE(d.size, 12);
  }
  return b;
}

/** The zip64 extended information extra field (header 0x0001) carrying `values` as 8-byte numbers. */
function zip64Extra(values: readonly number[]): Buffer {
  const b = Buffer.alloc(4 + 8 * values.length);
  b.writeUInt16LE(0x0001, 0);
  b.writeUInt16LE(8 * values.length, 2);
  values.forEach((v, i) => b.writeBigUInt64LE(BigInt(v), 4 + 8 * i));
  return b;
}

function centralEntry(e: Entry): Buffer {
  // In order: sizes (both, for an entry written as zip64), then the local header's offset if past 4 GiB.
  const wide = [...(e.zip64 ? [e.size, e.compressed] : []), ...(e.offset >= LIMIT ? [e.offset] : [])];
  const version = wide.length > 0 ? VERSION_ZIP64 : VERSION;
  const extra = wide.length > 0 ? zip64Extra(wide) : Buffer.alloc(0);
  const b = Buffer.alloc(46);
  b.writeUInt32LE(0x02014b50, 0);
  b.writeUInt16LE(version, 4);
  b.writeUInt16LE(version, 6);
  b.writeUInt16LE(FLAG_DATA_DESCRIPTOR, 8);
  b.writeUInt16LE(DEFLATE, 10);
  b.writeUInt16LE(DOS_TIME, 12);
  b.writeUInt16LE(DOS_DATE, 14);
  b.writeUInt32LE(e.crc >>> 0, 16);
  b.writeUInt32LE(e.zip64 ? LIMIT : e.compressed, 20);
  b.writeUInt32LE(e.zip64 ? LIMIT : e.size, 24);
  b.writeUInt16LE(e.name.length, 28);
  b.writeUInt16LE(extra.length, 30);
  // comment, disk, internal and external attributes (32..41) stay 0.
  b.writeUInt32LE(Math.min(e.offset, LIMIT), 42);
  return Buffer.concat([b, e.name, extra]);
}

interface CentralDirectory {
  count: number;
  size: number;
  offset: number;
}

function zip64EndOfCentralDirectory(cd: CentralDirectory): Buffer {
  const b = Buffer.alloc(56);
  b.writeUInt32LE(0x06064b50, 0);
  b.writeBigUInt64LE(44n, 4); // the size of the rest of this record
  b.writeUInt16LE(VERSION_ZIP64, 12);
  b.writeUInt16LE(VERSION_ZIP64, 14);
  // this disk and the central directory's disk (16..23) stay 0.
  b.writeBigUInt64LE(BigInt(cd.count), 24);
  b.writeBigUInt64LE(BigInt(cd.count), 32);
  b.writeBigUInt64LE(BigInt(cd.size), 40);
  b.writeBigUInt64LE(BigInt(cd.offset), 48);
  return b;
}

function zip64Locator(recordOffset: number): Buffer {
  const b = Buffer.alloc(20);
  b.writeUInt32LE(0x07064b50, 0);
  b.writeBigUInt64LE(BigInt(recordOffset), 8);
  b.writeUInt32LE(1, 16); // disks in all
  return b;
}

/** Fields that overflow hold all ones; a reader then takes them from the zip64 record. */
function endOfCentralDirectory(cd: CentralDirectory): Buffer {
  const b = Buffer.alloc(22);
  b.writeUInt32LE(0x06054b50, 0);
  b.writeUInt16LE(Math.min(cd.count, LIMIT16), 8);
  b.writeUInt16LE(Math.min(cd.count, LIMIT16), 10);
  b.writeUInt32LE(Math.min(cd.size, LIMIT), 12);
  b.writeUInt32LE(Math.min(cd.offset, LIMIT), 16);
  return b;
}
