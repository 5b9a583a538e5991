/**
 * A parquet file's footer (its FileMetaData, Thrift compact protocol) read without the body: what the
 * history's refresh compares to tell a rebuilt file (same row groups, new bytes) from a revised one.
 * Only what the comparison needs is decoded; the rest of the structure is skipped generically.
 */

/** One row group as the comparison sees it: rows, and every column chunk's sizes and statistics. */
export interface RowGroupPrint {
  rows: number;
  /** Sizes, value counts, codec, encodings and statistics of every column chunk, offsets left out. */
  print: string;
  /** Byte range of the row group's column chunks in the file: [start, end). */
  start: number;
  end: number;
}

export interface Footer {
  rows: number;
  /** The columns: names, physical and logical types, nesting (FileMetaData.schema), as one string. */
  schema: string;
  groups: RowGroupPrint[];
}

/**
 * Bytes read from the end of a file first: the footer's length and magic. Then the footer itself, exactly
 * (a few KB for the tiny data, ~0.2 % of the history at full scale): two small range reads move fewer
 * bytes than any fixed guess large enough for both.
 */
export const FOOTER_PROBE = 8;

/** Length of the footer ending `tail` (the file's last bytes): its last 8 are `len` + "PAR1". */
export function footerLength(tail: Uint8Array): number {
  const n = tail.length;
  if (n < 8 || String.fromCharCode(...tail.subarray(n - 4)) !== 'PAR1') throw new Error('not a parquet file (no PAR1 at the end)');
  return new DataView(tail.buffer, tail.byteOffset + n - 8, 4).getUint32(0, true);
}

/** Parses the footer at the end of `tail` (which must hold all of it plus the last 8 bytes). */
export function parseFooter(tail: Uint8Array): Footer {
  const len = footerLength(tail);
  if (len + 8 > tail.length) throw new Error(`parquet footer of ${len} bytes, only ${tail.length - 8} read`);
  const meta = new Reader(tail.subarray(tail.length - 8 - len, tail.length - 8)).struct();
  const groups = ((meta.get(4) as Value[] | undefined) ?? []).map((g) => rowGroup(g as Struct));
  return { rows: Number(meta.get(3) ?? 0), schema: printed(meta.get(2) ?? []), groups };
}

/** The same columns, named and typed alike: rows of one file can stand beside the other's. */
export function sameSchema(a: Footer, b: Footer): boolean {
  return a.schema === b.schema;
}

/** Footers of the same rows: the same number of row groups, each with the same rows, sizes and statistics. */
export function sameRows(a: Footer, b: Footer): boolean {
  return a.rows === b.rows && a.groups.length === b.groups.length && a.groups.every((g, i) => g.rows === b.groups[i].rows && g.print === b.groups[i].print);
}

/** Indexes of the row groups that differ (only meaningful when both files have the same row groups' rows). */
export function differingGroups(a: Footer, b: Footer): number[] {
  return b.groups.flatMap((g, i) => (a.groups[i]?.rows === g.rows && a.groups[i]?.print === g.print ? [] : [i]));
}

// ColumnMetaData fields left out of a print: data_page_offset (9), index_page_offset (10),
// dictionary_page_offset (11) and bloom_filter_offset (14) move with anything before them, whatever the rows.
const OFFSETS = new Set([9, 10, 11, 14]);

function rowGroup(g: Struct): RowGroupPrint {
  const parts: unknown[] = [g.get(2), g.get(3)];
  let start = Infinity;
  let end = 0;
  for (const c of (g.get(1) as Struct[] | undefined) ?? []) {
    const md = c.get(3) as Struct | undefined;
    if (!md) throw new Error('parquet column chunk without metadata');
    const first = Number(md.get(11) ?? md.get(9));
    start = Math.min(start, first);
    end = Math.max(end, first + Number(md.get(7)));
    parts.push([...md].filter(([k]) => !OFFSETS.has(k)));
  }
  return { rows: Number(g.get(3)), print: printed(parts), start, end };
}

/** Decoded Thrift values as one comparable string. */
function printed(v: unknown): string {
  return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x instanceof Uint8Array ? Array.from(x) : x instanceof Map ? [...x] : x));
}

type Value = boolean | number | bigint | Uint8Array | Value[] | Struct;
type Struct = Map<number, Value>;

/** Thrift compact protocol, read-only. */
class Reader {
  private at = 0;
  constructor(private readonly b: Uint8Array) {}

  private byte(): number {
    if (this.at >= this.b.length) throw new Error('parquet footer ends early');
    return this.b[this.at++];
  }

  private varint(): bigint {
    let out = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const x = this.byte();
      out |= BigInt(x & 0x7f) << shift;
      if (!(x & 0x80)) return out;
      if (shift > 63n) throw new Error('parquet footer: varint too long');
    }
  }

  private zigzag(): bigint {
    const v = this.varint();
    return (v >> 1n) ^ -(v & 1n);
  }

  struct(): Struct {
    const out: Struct = new Map();
    let id = 0;
    for (;;) {
      const h = this.byte();
      if (h === 0) return out;
      const type = h & 0x0f;
      id = h >> 4 ? id + (h >> 4) : Number(this.zigzag());
      out.set(id, type === 1 ? true : type === 2 ? false : this.value(type));
    }
  }

  private value(type: number): Value {
    switch (type) {
      case 1:
      case 2:
        return this.byte() === 1;
      case 3:
        return this.byte();
      case 4:
      case 5:
        return Number(this.zigzag());
      case 6:
        return this.zigzag();
      case 7:
        this.at += 8;
        return 0;
      case 8: {
        const n = Number(this.varint());
        if (this.at + n > this.b.length) throw new Error('parquet footer ends early');
        return this.b.subarray(this.at, (this.at += n));
      }
      case 9:
      case 10: {
        const h = this.byte();
        const n = h >> 4 === 15 ? Number(this.varint()) : h >> 4;
        return Array.from({ length: n }, () => this.value(h & 0x0f));
      }
      case 11: {
        const n = Number(this.varint());
        if (n === 0) return [];
        const kv = this.byte();
        return Array.from({ length: n }, () => [this.value(kv >> 4), this.value(kv & 0x0f)]);
      }
      case 12:
        return this.struct();
      default:
        throw new Error(`parquet footer: unknown thrift type ${type}`);
    }
  }
}
