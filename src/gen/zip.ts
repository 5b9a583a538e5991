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
 * descriptor. No zip64: an entry or archive of 4 GiB or more is refused.
 */
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { promisify } from 'node:util';
import { constants, crc32, deflateRaw, type ZlibOptions } from 'node:zlib';

export interface WrapTargets {
  gz?: string;
  /** The zip holds `src` as `name`, then each extra entry (e.g. README.md). */
  zip?: { dest: string; name: string; extra?: readonly { name: string; bytes: Uint8Array }[] };
}

const LIMIT = 0xffffffff;
const DOS_TIME = 0; // 00:00:00
const DOS_DATE = (0 << 9) | (1 << 5) | 1; // 1980-01-01
const FLAG_DATA_DESCRIPTOR = 0x0008;
const DEFLATE = 8;
const VERSION = 20;
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
    await zip?.begin(targets.zip!.name);
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
}

class ZipWriter {
  private readonly done: Entry[] = [];
  private current: { name: Buffer; offset: number } | null = null;
  constructor(readonly out: Sink) {}

  async begin(name: string): Promise<void> {
    this.current = { name: Buffer.from(name, 'utf8'), offset: this.out.offset };
    await this.out.put(localHeader(this.current.name));
  }

  async end(d: Deflated): Promise<void> {
    const { name, offset } = this.current!;
    if (d.size >= LIMIT || d.compressed >= LIMIT || this.out.offset >= LIMIT) {
      throw new Error(`${name.toString('utf8')}: 4 GiB or more needs zip64, which this writer does not do`);
    }
    await this.out.put(dataDescriptor(d));
    this.done.push({ ...d, name, offset });
    this.current = null;
  }

  /** A small entry from memory (a README): one block. */
  async add(name: string, bytes: Uint8Array, level: number): Promise<void> {
    await this.begin(name);
    const out = await deflateBlock(Buffer.from(bytes), blockOptions(level, null, true));
    await this.out.put(out);
    await this.end({ crc: crc32(bytes), size: bytes.length, compressed: out.length });
  }

  async close(): Promise<void> {
    const cdStart = this.out.offset;
    for (const e of this.done) await this.out.put(centralEntry(e));
    await this.out.put(endOfCentralDirectory(this.done.length, this.out.offset - cdStart, cdStart));
    if (this.out.offset >= LIMIT) throw new Error('zip archive of 4 GiB or more needs zip64, which this writer does not do');
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

function localHeader(name: Buffer): Buffer {
  const b = Buffer.alloc(30);
  b.writeUInt32LE(0x04034b50, 0);
  b.writeUInt16LE(VERSION, 4);
  b.writeUInt16LE(FLAG_DATA_DESCRIPTOR, 6);
  b.writeUInt16LE(DEFLATE, 8);
  b.writeUInt16LE(DOS_TIME, 10);
  b.writeUInt16LE(DOS_DATE, 12);
  // crc and sizes (14..25) stay 0: they follow the data in the descriptor.
  b.writeUInt16LE(name.length, 26);
  b.writeUInt16LE(0, 28);
  return Buffer.concat([b, name]);
}

function dataDescriptor(d: Deflated): Buffer {
  const b = Buffer.alloc(16);
  b.writeUInt32LE(0x08074b50, 0);
  b.writeUInt32LE(d.crc >>> 0, 4);
  b.writeUInt32LE(d.compressed, 8);
  b.writeUInt32LE(d.size, 12);
  return b;
}

function centralEntry(e: Entry): Buffer {
  const b = Buffer.alloc(46);
  b.writeUInt32LE(0x02014b50, 0);
  b.writeUInt16LE(VERSION, 4);
  b.writeUInt16LE(VERSION, 6);
  b.writeUInt16LE(FLAG_DATA_DESCRIPTOR, 8);
  b.writeUInt16LE(DEFLATE, 10);
  b.writeUInt16LE(DOS_TIME, 12);
  b.writeUInt16LE(DOS_DATE, 14);
  b.writeUInt32LE(e.crc >>> 0, 16);
  b.writeUInt32LE(e.compressed, 20);
  b.writeUInt32LE(e.size, 24);
  b.writeUInt16LE(e.name.length, 28);
  // extra, comment, disk, internal and external attributes (30..41) stay 0.
  b.writeUInt32LE(e.offset, 42);
  return Buffer.concat([b, e.name]);
}

function endOfCentralDirectory(count: number, size: number, offset: number): Buffer {
  const b = Buffer.alloc(22);
  b.writeUInt32LE(0x06054b50, 0);
  b.writeUInt16LE(count, 8);
  b.writeUInt16LE(count, 10);
  b.writeUInt32LE(size, 12);
  b.writeUInt32LE(offset, 16);
  return b;
}
