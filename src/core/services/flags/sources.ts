/**
 * SQL fragments over the seven tables, built only from the contract's constants (table and column
 * names), never from input.
 */
import { FLAGS_SCHEMA, TABLE_NAMES, FLAGS_TABLES, type FlagsTable } from '../../contract/flags.js';

export function tableRef(t: FlagsTable): string {
  return `${FLAGS_SCHEMA}.${t}`;
}

/** The contract's columns in order; columns a drifted file added never reach a response. */
export function columnList(t: FlagsTable): string {
  return FLAGS_TABLES[t].columns.map((c) => `"${c.name}"`).join(', ');
}

/** Identity rows of every table, tagged with the table name. */
export const ALL_IDENTITIES = TABLE_NAMES.map(
  (t) => `SELECT DISTINCT symbol, isin, company_name, '${t}' AS tbl FROM ${tableRef(t)}`,
).join('\nUNION ALL\n');

/** The latest dated row across all seven tables: the data's own "today". */
export const DATA_AS_OF = `(SELECT max(d) FROM (${TABLE_NAMES.map((t) => `SELECT max("${FLAGS_TABLES[t].dateColumn}") AS d FROM ${tableRef(t)}`).join(' UNION ALL ')}))`;
