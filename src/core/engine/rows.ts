import { DataType, DateUnit, Precision, type Data, type Field, type Table, type Vector } from 'apache-arrow';
import type { Row } from './engine.js';

/**
 * Arrow → plain JS, as the publisher wrote the numbers. DuckDB-WASM hands DECIMAL back unscaled and
 * BIGINT as bigint; dividing the exact unscaled integer by 10^scale gives the double nearest the
 * decimal, so 10.12 prints as 10.12, never 10.120000000000001.
 *
 * Each column is read straight from its Arrow buffers where the type allows (numbers, dates,
 * booleans, ASCII text, DECIMAL and BIGINT within 2^53), then every row object is a copy of one
 * template with all the keys, filled in place: one object shape for all rows. The per-cell
 * `Vector.get` and keys added one column at a time cost ~1 µs a row, mostly garbage collection
 * (measured on a 90,623-row NAV result: 75 ms; docs/performance.md).
 */
export function tableToRows<T = Row>(table: Table): T[] {
  const names = table.schema.fields.map((f) => f.name);
  const cols = tableToColumns(table);
  const template: Row = {};
  for (const name of names) template[name] = null;
  const out: Row[] = new Array(table.numRows);
  for (let r = 0; r < out.length; r++) {
    const row = { ...template };
    for (let c = 0; c < cols.length; c++) row[names[c]] = cols[c][r];
    out[r] = row;
  }
  return out as T[];
}

/** Each column's plain values (as tableToRows converts them), in schema order. */
export function tableToColumns(table: Table): unknown[][] {
  return table.schema.fields.map((f, c) => columnValues(table.getChildAt(c)!, f));
}

function columnValues(vector: Vector, field: Field): unknown[] {
  const read = bufferReader(field.type);
  if (!read) return Array.from(vector, converter(field));
  const out: unknown[] = new Array(vector.length);
  let at = 0;
  for (const data of vector.data) {
    read(data, out, at, data.nullCount > 0 ? data.nullBitmap! : null);
    at += data.length;
  }
  return out;
}

/**
 * Fills out[at ..] with one chunk's values read from its buffers; a cell whose bit in `nulls` (the
 * validity bitmap, when the chunk has nulls) is clear becomes null. One loop per type, so each stays
 * monomorphic.
 */
type Reader = (data: Data, out: unknown[], at: number, nulls: Uint8Array | null) => void;

const isNull = (nulls: Uint8Array | null, p: number) => nulls !== null && ((nulls[p >> 3] >> (p & 7)) & 1) === 0;

function bufferReader(t: DataType): Reader | null {
  if ((DataType.isInt(t) && t.bitWidth <= 32) || (DataType.isFloat(t) && t.precision !== Precision.HALF)) {
    return ({ values, offset, length }, out, at, nulls) => {
      for (let i = 0; i < length; i++) out[at + i] = isNull(nulls, offset + i) ? null : values[i];
    };
  }
  if (DataType.isInt(t) && t.bitWidth === 64 && t.isSigned) {
    return ({ values, offset, length }, out, at, nulls) => {
      const w = words(values);
      for (let i = 0; i < length; i++) {
        const x = (w[2 * i + 1] | 0) * 2 ** 32 + w[2 * i];
        out[at + i] = isNull(nulls, offset + i) ? null : Number.isSafeInteger(x) ? x : bigToNumber((values as BigInt64Array)[i]);
      }
    };
  }
  if (DataType.isDate(t) && t.unit === DateUnit.DAY) {
    // Long results come sorted or grouped by date: a run of equal days is formatted once.
    return ({ values, offset, length }, out, at, nulls) => {
      let day = NaN;
      let text = '';
      for (let i = 0; i < length; i++) {
        if (isNull(nulls, offset + i)) {
          out[at + i] = null;
          continue;
        }
        if (values[i] !== day) {
          day = values[i];
          text = isoDate(day * DAY_MS);
        }
        out[at + i] = text;
      }
    };
  }
  if (DataType.isBool(t)) {
    return ({ values, offset, length }, out, at, nulls) => {
      for (let i = 0, p = offset; i < length; i++, p++) out[at + i] = isNull(nulls, p) ? null : ((values[p >> 3] >> (p & 7)) & 1) === 1;
    };
  }
  if (DataType.isUtf8(t)) return readUtf8;
  if (DataType.isDecimal(t) && t.bitWidth === 128) {
    const scale = t.scale;
    return ({ values, offset, length }, out, at, nulls) => {
      const w = values as Uint32Array;
      for (let i = 0, k = 0; i < length; i++, k += 4) {
        // Within 2^53 the two high words are the sign extension of the second: the exact integer
        // as a double, the same value decimalToNumber gets through a BigInt.
        const w1 = w[k + 1], w2 = w[k + 2], w3 = w[k + 3];
        const x = w2 === 0 && w3 === 0 ? w1 * 2 ** 32 + w[k] : w2 === 0xffffffff && w3 === 0xffffffff ? (w1 - 2 ** 32) * 2 ** 32 + w[k] : NaN;
        out[at + i] = isNull(nulls, offset + i)
          ? null
          : !Number.isSafeInteger(x)
            ? decimalToNumber(w.subarray(k, k + 4), scale)
            : scale === 0
              ? x
              : x / 10 ** scale;
      }
    };
  }
  return null;
}

/** The 32-bit words of a 64-bit integer buffer, low word first (Arrow is little-endian). */
function words(values: ArrayBufferView): Uint32Array {
  return new Uint32Array(values.buffer, values.byteOffset, values.byteLength >> 2);
}

const utf8 = new TextDecoder('utf-8');

/**
 * ASCII text (ids, codes, dates as text, most names) is decoded once per chunk and sliced; a chunk
 * with any other character is decoded value by value as apache-arrow does (the decoder drops a
 * leading byte-order mark per value, which slicing would not).
 */
const readUtf8: Reader = ({ values, valueOffsets, offset, length }, out, at, nulls) => {
  const bytes = values as Uint8Array;
  const offsets = valueOffsets as Int32Array;
  const start = offsets[0];
  const text = utf8.decode(bytes.subarray(start, offsets[length]));
  const ascii = text.length === offsets[length] - start;
  for (let i = 0; i < length; i++) {
    out[at + i] = isNull(nulls, offset + i)
      ? null
      : ascii
        ? text.slice(offsets[i] - start, offsets[i + 1] - start)
        : utf8.decode(bytes.subarray(offsets[i], offsets[i + 1]));
  }
};

type Conv = (v: unknown) => unknown;
const id: Conv = (v) => v;

export function converter(field: Field): Conv {
  const t = field.type;
  if (DataType.isDecimal(t)) {
    const scale = t.scale;
    return (v) => (v == null ? null : decimalToNumber(v as Uint32Array, scale));
  }
  if (DataType.isInt(t) && t.bitWidth === 64) return (v) => (v == null ? null : bigToNumber(v as bigint));
  if (DataType.isDate(t)) return (v) => (v == null ? null : isoDate(v as number | Date));
  if (DataType.isTimestamp(t)) return (v) => (v == null ? null : new Date(Number(v)).toISOString());
  if (DataType.isList(t) || DataType.isFixedSizeList(t)) {
    const inner = converter(t.children[0]);
    return (v) => (v == null ? null : Array.from(v as Iterable<unknown>, inner));
  }
  if (DataType.isStruct(t)) {
    const kids = t.children.map((f) => [f.name, converter(f)] as const);
    return (v) => {
      if (v == null) return null;
      const o: Row = {};
      for (const [name, conv] of kids) o[name] = conv((v as Record<string, unknown>)[name]);
      return o;
    };
  }
  return id;
}

export function bigToNumber(v: bigint): number | string {
  return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(v) : v.toString();
}

/** Arrow Decimal128 arrives as four little-endian 32-bit words of a two's-complement integer. */
export function decimalToNumber(words: Uint32Array, scale: number): number {
  let big = 0n;
  for (let i = words.length - 1; i >= 0; i--) big = (big << 32n) | BigInt(words[i] >>> 0);
  const bits = BigInt(words.length * 32);
  if (words[words.length - 1] & 0x80000000) big -= 1n << bits;
  if (scale === 0) return Number(big);
  if (big <= BigInt(Number.MAX_SAFE_INTEGER) && big >= -BigInt(Number.MAX_SAFE_INTEGER)) return Number(big) / 10 ** scale;
  const neg = big < 0n;
  const s = (neg ? -big : big).toString().padStart(scale + 1, '0');
  return Number(`${neg ? '-' : ''}${s.slice(0, -scale)}.${s.slice(-scale)}`);
}

const DAY_MS = 86_400_000;

/**
 * YYYY-MM-DD of a UTC instant. Whole days in years 1..9999 take the civil-from-days arithmetic
 * (H. Hinnant), several times faster than toISOString per cell; anything else takes toISOString.
 */
export function isoDate(v: number | Date): string {
  const ms = v instanceof Date ? v.getTime() : v;
  const days = ms / DAY_MS;
  if (Number.isInteger(days) && days >= -719_162 && days <= 2_932_896) {
    const z = days + 719_468;
    const era = Math.floor(z / 146_097);
    const doe = z - era * 146_097;
    const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
    const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
    const mp = Math.floor((5 * doy + 2) / 153);
    const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
    const m = mp < 10 ? mp + 3 : mp - 9;
    const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
    return `${String(y).padStart(4, '0')}-${m < 10 ? '0' : ''}${m}-${d < 10 ? '0' : ''}${d}`;
  }
  return new Date(ms).toISOString().slice(0, 10);
}
