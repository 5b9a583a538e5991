/**
 * The shape every service's table definitions share: the generator writes these tables and the sync
 * ingest builds local tables from them by column name. Each service narrows the type names and adds
 * what its own tables carry (descriptions, keys, date columns, source files).
 */

export interface ColumnSpec<Type extends string = string> {
  name: string;
  /** DuckDB SQL type. */
  type: Type;
  /** A file missing a required column is schema drift that stops the ingest; others may be absent or NULL. */
  required: boolean;
}

export interface TableSpec<Name extends string = string, Column extends ColumnSpec = ColumnSpec> {
  name: Name;
  columns: readonly Column[];
}
