import { describe, it, expect, afterAll } from 'vitest';
import fc from 'fast-check';
import type { Table } from 'apache-arrow';
import { NodeEngine } from '../../src/core/engine/node.js';
import { converter, isoDate, tableToRows } from '../../src/core/engine/rows.js';
import type { Row } from '../../src/core/engine/engine.js';

/** The cell-by-cell conversion tableToRows replaced: get(r) per cell, toISOString per date. */
function referenceRows(table: Table): Row[] {
  const fields = table.schema.fields;
  const convs = fields.map((f) => converter(f));
  const cols = fields.map((_, i) => table.getChildAt(i)!);
  const out: Row[] = [];
  for (let r = 0; r < table.numRows; r++) {
    const row: Row = {};
    for (let c = 0; c < fields.length; c++) row[fields[c].name] = convs[c](cols[c].get(r));
    out.push(row);
  }
  return out;
}

const toISO = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const DAY = 86_400_000;

describe('isoDate', () => {
  it('equals toISOString for every day of 1800..2200, around the year 1 and 9999 bounds, and every 29th day between', () => {
    const days = (from: number, to: number, step = 1) => Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, k) => from + k * step);
    const bounds = [-719_162, 2_932_896].flatMap((b) => days(b - 800, b + 800));
    for (const d of [...days(-62_091, 84_006), ...bounds, ...days(-719_528, 2_933_000, 29)]) {
      if (isoDate(d * DAY) !== toISO(d * DAY)) expect(isoDate(d * DAY), String(d)).toBe(toISO(d * DAY));
    }
    for (const ms of [1, -1, DAY / 2, 1_700_000_000_123, -62_135_596_800_001]) expect(isoDate(ms)).toBe(toISO(ms));
    expect(isoDate(new Date(Date.UTC(2024, 1, 29)))).toBe('2024-02-29');
  });
});

describe('tableToRows over DuckDB-WASM results', async () => {
  const engine = await NodeEngine.open();
  afterAll(() => engine.close());

  const same = async (sql: string) => {
    const table = await engine.arrow(sql);
    const rows = tableToRows(table);
    expect(rows).toEqual(referenceRows(table));
    expect(JSON.stringify(rows)).toBe(JSON.stringify(referenceRows(table)));
    return { table, rows };
  };

  it('is identical to the cell-by-cell conversion for every type, with nulls, across batches', async () => {
    const { table, rows } = await same(`
      SELECT i::INTEGER AS i, i::BIGINT * 3037000499 AS big, (i * 1.37)::DECIMAL(18,4) AS dec,
             (i * 7.1)::DECIMAL(38,10) AS wide, i / 7 AS dbl, 'id' || (i % 13) AS s,
             DATE '1901-03-01' + (i * 37)::INTEGER AS d, TIMESTAMP '2020-01-01' + to_seconds(i) AS ts,
             i % 2 = 0 AS b, [i, NULL, i + 1] AS l, {'a': i::DECIMAL(9,2), 'b': DATE '2000-01-01' + i::INTEGER} AS st,
             CASE WHEN i % 5 = 0 THEN NULL ELSE DATE '2024-02-28' + (i % 3)::INTEGER END AS dn,
             CASE WHEN i % 3 = 0 THEN NULL ELSE i * 0.1 END AS fn
      FROM range(-4000, 6000) t(i)`);
    expect(table.batches.length).toBeGreaterThan(1);
    expect(rows[0]).toMatchObject({ i: -4000, s: 'id-9', b: true, dn: null });
  });

  it('is identical at the edges the buffer reads take apart: 2^53 for BIGINT and DECIMAL, non-ASCII and byte-order marks, small and unsigned ints, sliced tables', async () => {
    const edges = [0, 1, -1, 2 ** 32 - 1, 2 ** 32, -(2 ** 32), 2 ** 53 - 1, 2 ** 53, 2 ** 53 + 1, -(2 ** 53 - 1), -(2 ** 53), -(2 ** 53) - 1];
    const big = [...edges.map(String), '9223372036854775807', '-9223372036854775808', '4611686018427387904'];
    const { rows } = await same(`
      SELECT b::BIGINT AS big, b::HUGEINT::DECIMAL(38,0) AS d0, b::HUGEINT::DECIMAL(38,4) AS d4,
             (b::HUGEINT * 1000)::DECIMAL(38,2) AS d2, b::HUGEINT::UBIGINT AS ubig
      FROM (VALUES ${big.map((b) => `('${b}')`).join(', ')}) t(b) WHERE b::HUGEINT >= 0
      UNION ALL
      SELECT b::BIGINT, b::HUGEINT::DECIMAL(38,0), b::HUGEINT::DECIMAL(38,4), (b::HUGEINT * 1000)::DECIMAL(38,2), NULL
      FROM (VALUES ${big.map((b) => `('${b}')`).join(', ')}) t(b) WHERE b::HUGEINT < 0`);
    expect(rows.map((r) => r.big)).toContain('9223372036854775807');
    expect(rows.map((r) => r.big)).toContain(2 ** 53 - 1);
    const text = await same(`
      SELECT s, i::TINYINT AS t8, (i * 100)::SMALLINT AS t16, i::UTINYINT AS u8, (i * 70000)::UINTEGER AS u32, i::FLOAT / 3 AS f32
      FROM (VALUES ('plain', 1), (NULL, 2), ('Café – Fund', 3), (chr(65279) || 'bom first', 4), ('', 5), ('x' || chr(65279), 6)) t(s, i)`);
    expect(text.rows.map((r) => r.s)).toEqual(['plain', null, 'Café – Fund', 'bom first', '', 'x\ufeff']);
    const ascii = await same(`SELECT 'id' || i AS s, DATE '2001-01-01' + i::INTEGER AS d FROM range(0, 3000) t(i)`);
    const sliced = ascii.table.slice(1500, 2600);
    expect(tableToRows(sliced)).toEqual(referenceRows(sliced));
  });

  it('is identical for arbitrary values (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.option(fc.integer({ min: -700_000, max: 2_900_000 })), fc.option(fc.double({ noNaN: true, noDefaultInfinity: true })), fc.option(fc.string())), {
          maxLength: 40,
        }),
        async (cells) => {
          if (cells.length === 0) return;
          const lit = (v: unknown, f: (x: never) => string) => (v === null ? 'NULL' : f(v as never));
          const values = cells
            .map(([d, x, s]) =>
              `(${lit(d, (n: number) => `DATE '1970-01-01' + ${n}`)}, ${lit(x, (n: number) => `${n}::DOUBLE`)}, ${lit(s, (t: string) => `'${t.replaceAll("'", "''").replaceAll('\0', '')}'`)})`,
            )
            .join(', ');
          await same(`SELECT * FROM (VALUES ${values}) t(d, x, s)`);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('engine.columns holds the same values as engine.all, column by column', async () => {
    const sql = `SELECT i, 'n' || i AS s, (i * 1.5)::DECIMAL(9,2) AS d, CASE WHEN i % 3 = 0 THEN NULL ELSE DATE '2020-01-01' + i::INTEGER END AS day
      FROM range(0, 5000) t(i) WHERE i % 2 = ?::INTEGER`;
    const rows = await engine.all<Row>(sql, ['1']);
    const cols = await engine.columns(sql, ['1']);
    expect(cols).toEqual(['i', 's', 'd', 'day'].map((k) => rows.map((r) => r[k])));
    expect(cols[0]).toHaveLength(2500);
  });

  it('an empty result is an empty list', async () => {
    expect((await same('SELECT 1 AS x WHERE false')).rows).toEqual([]);
  });
});
