import { z } from 'zod';
import type { ToolModule } from './index.js';
import {
  FlagsError,
  SCORECARD_MAX_LIMIT,
  TABLE_NAMES,
  errorBody,
  validateCompanyParams,
  validateCompanyScorecardParams,
  validateScorecardParams,
  type RawQuery,
  type Validated,
} from '../../core/contract/flags.js';
import { companyData } from '../../core/services/flags/company.js';
import { asMissingData } from '../../core/services/flags/missing.js';
import { companyScorecard, scorecard } from '../../core/services/flags/scorecard.js';
import type { ServerDeps } from '../deps.js';

/** Tool inputs become the query REST sees, so one validator rules both doors. */
function toQuery(args: Record<string, unknown>): RawQuery {
  return Object.fromEntries(
    Object.entries(args).flatMap(([k, v]) => (v === undefined ? [] : [[k, Array.isArray(v) ? v.join(',') : String(v)]])),
  );
}

function valid<T>(v: Validated<T>): T {
  if (!v.ok) throw new FlagsError(v.error);
  return v.value;
}

async function answer(deps: ServerDeps, tool: string, run: () => Promise<unknown>) {
  try {
    return { content: [{ type: 'text' as const, text: JSON.stringify(await run()) }] };
  } catch (thrown) {
    const err = asMissingData(thrown) ?? thrown;
    if (!(err instanceof FlagsError)) throw err;
    return { isError: true, content: [{ type: 'text' as const, text: JSON.stringify(errorBody(err.spec, tool, deps.baseUrl)) }] };
  }
}

const asOf = z.string().optional().describe('Score as of this date, YYYY-MM-DD; default the latest date in the data.');

const flagsTools: ToolModule = (server, deps) => {
  server.registerTool(
    'flags_company',
    {
      description:
        'Corporate red-flag records of one listed Indian company by NSE symbol or ISIN (case-insensitive): credit ratings, insider trades, promoter pledges, SAST filings, encumbrance events, surveillance flags, related-party transactions.',
      inputSchema: {
        identifier: z.string().describe('NSE symbol or ISIN, e.g. RELIANCE or INE002A01018.'),
        tables: z.array(z.enum(TABLE_NAMES)).optional().describe('Only these tables; default all seven.'),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ identifier, tables }) =>
      answer(deps, 'flags_company', () => companyData(deps.engine, valid(validateCompanyParams(identifier, toQuery({ tables }))))),
  );

  server.registerTool(
    'flags_scorecard',
    {
      description:
        'Red-flag scorecard: with identifier, one company\'s score, rank, points and signals (latest rating and 12-month downgrades, promoter pledge and its trend, encumbrance invocations, promoter selling, surveillance stage, related-party transactions vs revenue); without, companies ranked by score.',
      inputSchema: {
        identifier: z.string().optional().describe('NSE symbol or ISIN; omit for the ranked list.'),
        limit: z.number().int().min(1).max(SCORECARD_MAX_LIMIT).optional().describe('Ranked list: rows per page (default 50).'),
        offset: z.number().int().min(0).optional().describe('Ranked list: row offset.'),
        as_of: asOf,
      },
      annotations: { readOnlyHint: true },
    },
    async ({ identifier, limit, offset, as_of }) =>
      answer(deps, 'flags_scorecard', () =>
        identifier !== undefined
          ? companyScorecard(deps.engine, valid(validateCompanyScorecardParams(identifier, toQuery({ as_of }))))
          : scorecard(deps.engine, valid(validateScorecardParams(toQuery({ limit, offset, as_of })))),
      ),
  );
};

export default flagsTools;
