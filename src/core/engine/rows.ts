import { DataType, type Table, type Field } from 'apache-arrow';
import type { Row } from './engine.js';

/**
 * Arrow → plain JS, as the publisher wrote the numbers. DuckDB-WASM hands DECIMAL back unscaled and
 * BIGINT as bigint; dividing the exact unscaled integer by 10^scale gives the double nearest the
 * decimal, so 10.12 prints as 10.12, never 10.120000000000001.
 */
export function tableToRows<T = Row>(table: Table): T[] {
  const fields = table.schema.fields;
  const convs = fields.map((f) => converter(f));
  const cols = fields.map((_, i) => table.getChildAt(i)!);
  const out: T[] = new Array(table.numRows);
  for (let r = 0; r < table.numRows; r++) {
    const row: Row = {};
    for (let c = 0; c < fields.length; c++) row[fields[c].name] = convs[c](cols[c].get(r));
    out[r] = row as T;
  }
  return out;
}

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

function isoDate(v: number | Date): string {
  const ms = v instanceof Date ? v.getTime() : v;
  return new Date(ms).toISOString().slice(0, 10);
}
