import type { Engine } from '../../engine/engine.js';

/**
 * NAVs from the user's AMFI imports (`user.amfi_nav`, `npm run cli -- import-amfi` or the Data view)
 * that extend the publisher's history: priced (NULL and 0.00 left out) and dated after the scheme's last
 * synced NAV (`mf.latest.last_date`), or every one for a scheme the publisher's data lacks. Where both
 * have a day, the publisher's NAV stands. The scheme page and compare read the same rows.
 */
export function importedNavsSql(withPublisher: boolean): string {
  const newer = withPublisher
    ? 'LEFT JOIN mf.latest l USING (scheme_code) WHERE (l.last_date IS NULL OR CAST(a.date AS DATE) > l.last_date) AND'
    : 'WHERE';
  return `SELECT a.scheme_code, CAST(a.date AS DATE) AS date, a.nav, a.isin, a.source_file
FROM "user".amfi_nav a ${newer} a.nav > 0`;
}

const TABLES_SQL = `
SELECT count(*) FILTER (WHERE database_name = 'user' AND table_name = 'amfi_nav') AS amfi,
       count(*) FILTER (WHERE database_name = 'mf' AND table_name = 'latest') AS latest
FROM duckdb_tables()`;

export interface ImportedNav {
  date: string;
  nav: number;
  /** The AMFI file it came from. */
  source_file: string;
}

/** One scheme's imported NAVs newer than the publisher's data, oldest first; none without an import. */
export async function importedNavs(engine: Engine, schemeCode: number): Promise<ImportedNav[]> {
  const [{ amfi, latest }] = await engine.all<{ amfi: number; latest: number }>(TABLES_SQL);
  if (amfi === 0) return [];
  return engine.all<ImportedNav>(
    // eslint-disable-next-line sql/no-interpolated-sql -- a fixed statement chosen by whether mf.latest exists
    `SELECT date, nav, source_file FROM (${importedNavsSql(latest > 0)}) WHERE scheme_code = ? ORDER BY date`,
    [schemeCode],
  );
}
