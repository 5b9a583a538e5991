import type { SQLNamespace } from '@codemirror/lang-sql';
import type { Engine } from '../../core/engine/engine.js';

interface ColumnRow {
  database_name: string;
  schema_name: string;
  table_name: string;
  column_name: string;
}

/**
 * The attached databases (indicators, mf, flags, user) and their tables and views with their columns,
 * for editor completion: `mf.` offers mf's tables, `mf.nav.` its columns. A refreshed MF history's base
 * (`mf_base`) and the sync's own tables (`_nav_delta`) are the view mf.nav's insides, not offered.
 */
export async function loadSchema(engine: Engine): Promise<SQLNamespace> {
  const rows = await engine.all<ColumnRow>(
    `SELECT database_name, schema_name, table_name, column_name FROM duckdb_columns()
     WHERE NOT internal AND database_name NOT IN ('system', 'temp') AND NOT ends_with(database_name, '_base')
       AND NOT starts_with(table_name, '_')
     ORDER BY database_name, table_name, column_index`,
  );
  const ns: Record<string, Record<string, string[]>> = {};
  for (const r of rows) {
    const db = r.database_name === 'memory' ? r.schema_name : r.database_name;
    ((ns[db] ??= {})[r.table_name] ??= []).push(r.column_name);
  }
  return ns;
}
