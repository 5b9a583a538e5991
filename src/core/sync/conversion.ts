/**
 * How a column a file carries becomes the contract's column, when the two types differ. The rule: a
 * publisher's retype is accepted when it loses nothing, and refused when it does (docs/sync.md,
 * "Schema drift"):
 * - `parse`: text, read as the contract type (CSV/TSV carry everything as text; MF's `date` is a string
 *   by spec). A value that does not parse fails the file.
 * - `widen`: every value of the file's type fits the contract type exactly (INTEGER into BIGINT,
 *   DECIMAL(9,2) into DECIMAL(18,2), anything scalar into VARCHAR).
 * - `checked`: the file's type can carry the contract's values but not every value of it fits (DOUBLE
 *   into DECIMAL(18,4), BIGINT into INTEGER, TIMESTAMP into DATE): each value must convert exactly, or
 *   the file is refused naming the value. DOUBLE for a NAV is the MF retype: a double holds every
 *   4-place decimal of up to 15 significant digits, so NAVs come through exact.
 * - `lossy`: the file's type cannot carry the contract's values (FLOAT's ~7 significant digits for a
 *   NAV of up to 12; DECIMAL(18,2) for DECIMAL(18,4); a date for a number): refused whatever the values,
 *   since the digits were lost before the file was written.
 */
export type Conversion = { kind: 'same' | 'parse' | 'widen' | 'checked' } | { kind: 'lossy'; why: string };

interface IntType {
  /** Decimal digits of the largest value. */
  digits: number;
  signed: boolean;
  bits: number;
}

const INTS: Record<string, IntType> = {
  TINYINT: { digits: 3, signed: true, bits: 8 },
  SMALLINT: { digits: 5, signed: true, bits: 16 },
  INTEGER: { digits: 10, signed: true, bits: 32 },
  BIGINT: { digits: 19, signed: true, bits: 64 },
  HUGEINT: { digits: 39, signed: true, bits: 128 },
  UTINYINT: { digits: 3, signed: false, bits: 8 },
  USMALLINT: { digits: 5, signed: false, bits: 16 },
  UINTEGER: { digits: 10, signed: false, bits: 32 },
  UBIGINT: { digits: 20, signed: false, bits: 64 },
  UHUGEINT: { digits: 39, signed: false, bits: 128 },
};

/** Significant decimal digits a DOUBLE carries exactly through a round trip. */
const DOUBLE_DIGITS = 15;

function decimal(t: string): { p: number; s: number } | null {
  const m = /^DECIMAL\((\d+),\s*(\d+)\)$/.exec(t);
  return m ? { p: Number(m[1]), s: Number(m[2]) } : null;
}

const isFloat = (t: string) => t === 'FLOAT' || t === 'REAL';
const isDouble = (t: string) => t === 'DOUBLE';
const isTimestamp = (t: string) => /^TIMESTAMP/.test(t);
const isNested = (t: string) => /[[\]()]/.test(t) && !decimal(t);

/** How a column of type `from` (as the file carries it) becomes the contract's `to`. */
export function conversion(from: string, to: string): Conversion {
  if (from === to) return { kind: 'same' };
  if (from === 'VARCHAR' || from.startsWith('ENUM(')) return { kind: 'parse' };
  if (isNested(from)) return { kind: 'lossy', why: `a nested ${from} has no ${to} value` };
  if (to === 'VARCHAR') return { kind: 'widen' };
  const fi = INTS[from];
  const ti = INTS[to];
  const fd = decimal(from);
  const td = decimal(to);
  if (isFloat(from) && (ti || td || isDouble(to))) {
    return { kind: 'lossy', why: 'FLOAT keeps about 7 significant digits' };
  }
  if (ti) {
    if (fi) return fi.bits < ti.bits && (ti.signed || !fi.signed) ? { kind: 'widen' } : { kind: 'checked' };
    return fd || isDouble(from) || from === 'BOOLEAN' ? { kind: 'checked' } : lossy(from, to);
  }
  if (td) {
    if (fi) return fi.digits <= td.p - td.s ? { kind: 'widen' } : { kind: 'checked' };
    if (fd) {
      if (fd.s < td.s) return { kind: 'lossy', why: `${from} keeps ${fd.s} decimal places, ${to} has ${td.s}` };
      return fd.s === td.s && fd.p - fd.s <= td.p - td.s ? { kind: 'widen' } : { kind: 'checked' };
    }
    return isDouble(from) ? { kind: 'checked' } : lossy(from, to);
  }
  if (isDouble(to)) {
    if (fi) return fi.bits <= 32 ? { kind: 'widen' } : { kind: 'checked' };
    if (fd) return fd.p <= DOUBLE_DIGITS ? { kind: 'widen' } : { kind: 'checked' };
    return lossy(from, to);
  }
  if (to === 'DATE') return isTimestamp(from) ? { kind: 'checked' } : lossy(from, to);
  if (to === 'BOOLEAN') return fi ? { kind: 'checked' } : lossy(from, to);
  if (isTimestamp(to)) return from === 'DATE' ? { kind: 'widen' } : isTimestamp(from) ? { kind: 'checked' } : lossy(from, to);
  return lossy(from, to);
}

function lossy(from: string, to: string): Conversion {
  return { kind: 'lossy', why: `${from} has no exact ${to} value` };
}
