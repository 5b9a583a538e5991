import type { Engine } from '../../engine/engine.js';
import { FLAGS_TABLES, type DataParams, type DataResponse, type FlagsTable } from '../../contract/flags.js';
import { columnList, tableRef } from './sources.js';
import { toTsv } from './tsv.js';

/** Rows in a total order (every column, left to right: one company's rows together, oldest first), so pages never overlap. */
export const pageSql = (t: FlagsTable): string => `SELECT ${columnList(t)} FROM ${tableRef(t)} ORDER BY ALL LIMIT ? OFFSET ?`;
export const countSql = (t: FlagsTable): string => `SELECT count(*) AS n FROM ${tableRef(t)}`;

export async function tableData(engine: Engine, p: DataParams): Promise<DataResponse> {
  const [{ n }] = await engine.all<{ n: number }>(countSql(p.table));
  const data = await engine.all(pageSql(p.table), [p.limit, p.offset]);
  const next = p.offset + data.length;
  return {
    table: p.table,
    total_rows: n,
    limit: p.limit,
    offset: p.offset,
    returned: data.length,
    next_offset: next < n ? next : null,
    columns: FLAGS_TABLES[p.table].columns.map((c) => ({ name: c.name, type: c.type })),
    data,
  };
}

export function dataTsv(r: DataResponse): string {
  return toTsv(r.columns, r.data);
}
