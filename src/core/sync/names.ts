/**
 * A manifest is untrusted input: its file names end up in URLs and in store file names. Only plain
 * names pass: one segment, a short safe alphabet, no traversal, no encoding tricks, bounded length.
 */
const PLAIN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,119}$/;

export function checkFileName(name: unknown): string {
  if (typeof name !== 'string') throw new Error('refused manifest file name: not a string');
  const shown = JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
  if (name.length === 0 || name.length > 120) throw new Error(`refused manifest file name ${shown}: length ${name.length}`);
  if (!PLAIN.test(name) || name.includes('..')) throw new Error(`refused manifest file name ${shown}: only letters, digits, '_', '-' and '.' (no '..', slashes, '%' or NUL)`);
  return name;
}

/** A table name the store may create: lower-case SQL identifier. */
export function isTableIdent(s: string): boolean {
  return /^[a-z_][a-z0-9_]{0,62}$/.test(s);
}

/** Quotes a column name read from a file (untrusted) as a DuckDB identifier. */
export function quoteIdent(s: string): string {
  if (s.includes('\0')) throw new Error('refused column name with NUL');
  return `"${s.replaceAll('"', '""')}"`;
}
