import type { Engine } from '../../engine/engine.js';
import { FlagsError, unknownCompany, type CompanyIdentity } from '../../contract/flags.js';
import { ISIN_SHAPE, isValidIsin } from '../../contract/isin.js';
import { ALL_IDENTITIES } from './sources.js';

/**
 * A company by symbol or ISIN, case-insensitive, across all seven tables. A symbol match wins over
 * an ISIN match, so a symbol that happens to look like an ISIN still finds its company.
 */
export const RESOLVE_SQL = `
SELECT symbol, isin, min(company_name) AS company_name
FROM (${ALL_IDENTITIES})
WHERE upper(symbol) = upper(?) OR upper(isin) = upper(?)
GROUP BY symbol, isin
ORDER BY (upper(symbol) = upper(?)) DESC, symbol
LIMIT 1`;

export async function resolveCompany(engine: Engine, identifier: string): Promise<CompanyIdentity> {
  const [hit] = await engine.all<CompanyIdentity>(RESOLVE_SQL, [identifier, identifier, identifier]);
  if (hit) return hit;
  const upper = identifier.toUpperCase();
  throw new FlagsError(unknownCompany(identifier, ISIN_SHAPE.test(upper) && !isValidIsin(upper)));
}
