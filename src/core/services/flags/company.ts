import type { Engine } from '../../engine/engine.js';
import { FLAGS_TABLES, type CompanyParams, type CompanyResponse, type FlagsRow, type FlagsTable } from '../../contract/flags.js';
import { resolveCompany } from './identity.js';
import { tableRef } from './sources.js';
import { toTsv } from './tsv.js';

/**
 * Every asked table's rows for one company in one statement ($1 symbol, $2 isin): per table a list
 * of rows as structs of the contract's columns, ordered by every column left to right like ORDER BY
 * ALL. One statement, not one per table: in DuckDB-WASM each statement's fixed cost (plan, Arrow
 * result) outweighed scanning a table for one company.
 */
export const companyRowsSql = (tables: readonly FlagsTable[]): string =>
  `SELECT ${tables
    .map((t) => {
      const cols = FLAGS_TABLES[t].columns.map((c) => `"${c.name}"`);
      const row = `struct_pack(${cols.map((c) => `${c} := ${c}`).join(', ')})`;
      return `(SELECT list(${row} ORDER BY ${cols.join(', ')}) FROM ${tableRef(t)} WHERE symbol = $1 AND isin = $2) AS ${t}`;
    })
    .join(',\n  ')}`;

export async function companyData(engine: Engine, p: CompanyParams): Promise<CompanyResponse> {
  const company = await resolveCompany(engine, p.identifier);
  const [rows] = p.tables.length
    ? await engine.all<Record<string, FlagsRow[] | null>>(companyRowsSql(p.tables), [company.symbol, company.isin])
    : [{}];
  const tables: CompanyResponse['tables'] = {};
  let total = 0;
  for (const t of p.tables) {
    const data = rows[t] ?? [];
    total += data.length;
    tables[t] = { row_count: data.length, columns: FLAGS_TABLES[t].columns.map((c) => ({ name: c.name, type: c.type })), data };
  }
  return { identifier: p.identifier, ...company, total_rows: total, tables };
}

/** One section per table: a `# table_name` line, then that table's TSV; sections apart by a blank line. */
export function companyTsv(r: CompanyResponse): string {
  return Object.entries(r.tables)
    .map(([t, s]) => `# ${t}\n${toTsv(s!.columns, s!.data)}`)
    .join('\n');
}
