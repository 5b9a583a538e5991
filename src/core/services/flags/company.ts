import type { Engine } from '../../engine/engine.js';
import { TABLES, type CompanyParams, type CompanyResponse, type FlagsTable } from '../../contract/flags.js';
import { resolveCompany } from './identity.js';
import { columnList, tableRef } from './sources.js';
import { toTsv } from './tsv.js';

export const companyRowsSql = (t: FlagsTable): string =>
  `SELECT ${columnList(t)} FROM ${tableRef(t)} WHERE symbol = ? AND isin = ? ORDER BY ALL`;

export async function companyData(engine: Engine, p: CompanyParams): Promise<CompanyResponse> {
  const company = await resolveCompany(engine, p.identifier);
  const tables: CompanyResponse['tables'] = {};
  let total = 0;
  for (const t of p.tables) {
    const data = await engine.all(companyRowsSql(t), [company.symbol, company.isin]);
    total += data.length;
    tables[t] = { row_count: data.length, columns: TABLES[t].columns.map((c) => ({ name: c.name, type: c.type })), data };
  }
  return { identifier: p.identifier, ...company, total_rows: total, tables };
}

/** One section per table: a `# table_name` line, then that table's TSV; sections apart by a blank line. */
export function companyTsv(r: CompanyResponse): string {
  return Object.entries(r.tables)
    .map(([t, s]) => `# ${t}\n${toTsv(s!.columns, s!.data)}`)
    .join('\n');
}
