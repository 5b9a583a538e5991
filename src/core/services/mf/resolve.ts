import type { Engine } from '../../engine/engine.js';
import { classifySchemeId, type SchemeId } from '../../contract/mf-params.js';

/** What the snapshot says about a scheme an identifier resolved to. */
export interface ResolvedScheme {
  scheme_code: number;
  scheme_name: string;
  isin: string | null;
  isin2: string | null;
  first_date: string;
  last_date: string;
  is_active: boolean;
  nav: number;
  nav_date: string;
}

/**
 * Identifiers (codes as digits, ISINs upper-cased) arrive as one comma list. An ISIN matches either
 * isin or isin2 (same scheme, same NAV row); should an ISIN sit on several codes, the live one with
 * the latest NAV wins, so a re-used ISIN lands where the fund is now. Three equality joins, not one
 * join on `code OR isin OR isin2`: that compared every identifier with every snapshot row.
 */
const HIT = (on: string) =>
  `SELECT w.id, l.scheme_code, l.scheme_name, l.isin, l.isin2, l.first_date, l.last_date, l.is_active, l.nav, l.nav_date
  FROM wanted w JOIN mf.latest l ON ${on}`;

export const RESOLVE_SQL = `
WITH wanted AS (SELECT unnest(string_split(?, ',')) AS id)
SELECT * FROM (
  ${HIT('l.scheme_code = TRY_CAST(w.id AS INTEGER)')}
  UNION ALL ${HIT('l.isin = w.id')}
  UNION ALL ${HIT('l.isin2 = w.id')}
)
QUALIFY row_number() OVER (
  PARTITION BY id
  ORDER BY (scheme_code = TRY_CAST(id AS INTEGER)) DESC, is_active DESC, last_date DESC, scheme_code
) = 1`;

export type Resolution =
  | { id: string; ok: true; scheme: ResolvedScheme }
  | { id: string; ok: false; kind: SchemeId['kind'] };

/** Each identifier as given, in order, with its scheme or the reason it has none. */
export async function resolveSchemes(engine: Engine, ids: string[]): Promise<Resolution[]> {
  const keyed = ids.map((id) => {
    const c = classifySchemeId(id);
    return { id, c, key: c.kind === 'code' ? String(c.code) : c.kind === 'isin' ? c.isin : null };
  });
  const keys = keyed.flatMap((k) => (k.key ? [k.key] : []));
  const found = new Map<string, ResolvedScheme>();
  if (keys.length) {
    for (const { id, ...row } of await engine.all<ResolvedScheme & { id: string }>(RESOLVE_SQL, [keys.join(',')])) {
      found.set(id, row);
    }
  }
  return keyed.map(({ id, c, key }) => {
    const scheme = key ? found.get(key) : undefined;
    return scheme ? { id, ok: true, scheme } : { id, ok: false, kind: c.kind };
  });
}
