import type { Engine } from '../../engine/engine.js';
import { TABLE_NAMES, type CompaniesResponse, type FlagsTable } from '../../contract/flags.js';
import { ALL_IDENTITIES } from './sources.js';

/** One row per (symbol, ISIN) with the tables it appears in. */
export const COMPANIES_SQL = `
SELECT symbol, isin, min(company_name) AS company_name, list(DISTINCT tbl) AS tables
FROM (${ALL_IDENTITIES})
GROUP BY symbol, isin
ORDER BY symbol, isin`;

export async function listCompanies(engine: Engine): Promise<CompaniesResponse> {
  const rows = await engine.all<{ symbol: string; isin: string; company_name: string; tables: FlagsTable[] }>(COMPANIES_SQL);
  const companies = rows.map((r) => ({ ...r, tables: TABLE_NAMES.filter((t) => r.tables.includes(t)) }));
  return { count: companies.length, companies };
}
