import { z } from 'zod';
import type { ToolModule } from './index.js';
import {
  MF_LIMITS,
  MfError,
  SEARCH_PARAMS,
  mfErrorBody,
  parseNavParams,
  parseSearchParams,
  type QueryPairs,
} from '../../core/contract/mf-params.js';
import { search } from '../../core/services/mf/search.js';
import { nav } from '../../core/services/mf/nav.js';
import { asMissingData } from '../../core/services/mf/freshness.js';
import type { ServerDeps } from '../deps.js';

/** Tool inputs become the same query pairs REST sees, so one validator rules both doors. */
function toPairs(args: Record<string, unknown>): QueryPairs {
  return Object.entries(args).flatMap(([k, v]): [string, string][] =>
    v === undefined ? [] : Array.isArray(v) ? [[k, v.join(',')]] : [[k, String(v)]],
  );
}

async function answer(deps: ServerDeps, tool: string, run: () => Promise<unknown>) {
  try {
    return { content: [{ type: 'text' as const, text: JSON.stringify(await run()) }] };
  } catch (thrown) {
    const err = asMissingData(thrown) ?? thrown;
    if (!(err instanceof MfError)) throw err;
    return { isError: true, content: [{ type: 'text' as const, text: JSON.stringify(mfErrorBody(err.spec, tool, deps.baseUrl)) }] };
  }
}

const described = Object.fromEntries(SEARCH_PARAMS.map((p) => [p.name, p.description]));
const text = (name: string) => z.string().optional().describe(described[name]);

const mfTools: ToolModule = (server, deps) => {
  server.registerTool(
    'mf_search',
    {
      description:
        'Find Indian mutual fund schemes by name (q) or browse them with filters. Text filters are case-insensitive contains-matches; a comma means OR. Returns scheme codes and ISINs for mf_nav.',
      inputSchema: {
        q: text('q'),
        category: text('category'),
        sub_category: text('sub_category'),
        group: text('group'),
        amc: text('amc'),
        plan: text('plan'),
        option: text('option'),
        scheme_type: text('scheme_type'),
        isin: text('isin'),
        txic_code: text('txic_code'),
        exclude: text('exclude'),
        active: z.enum(['true', 'false', 'all']).optional().describe(described.active),
        first_date_from: text('first_date_from'),
        first_date_to: text('first_date_to'),
        last_date_from: text('last_date_from'),
        last_date_to: text('last_date_to'),
        limit: z.number().int().optional().describe(described.limit),
        offset: z.number().int().optional().describe(described.offset),
      },
      annotations: { readOnlyHint: true },
    },
    async (args) => answer(deps, 'mf_search', () => search(deps.engine, parseSearchParams(toPairs(args)))),
  );

  server.registerTool(
    'mf_nav',
    {
      description: `Daily NAV history of Indian mutual fund schemes by scheme code or ISIN (mixed). One id in scheme gives one series; schemes (up to ${MF_LIMITS.bulkSchemesMax}) gives {schemes, not_found}. latest=true gives the latest NAV (as of 'to' when given). Flags end of life (final NAV 0.00) and merger splits.`,
      inputSchema: {
        scheme: z.string().optional().describe('One scheme code or ISIN.'),
        schemes: z.array(z.string()).max(MF_LIMITS.bulkSchemesMax).optional().describe('Several scheme codes or ISINs.'),
        since: z.string().optional().describe('First date, YYYY-MM-DD.'),
        to: z.string().optional().describe('Last date, YYYY-MM-DD.'),
        latest: z.boolean().optional().describe('Only the latest NAV in the window.'),
      },
      annotations: { readOnlyHint: true },
    },
    async (args) => answer(deps, 'mf_nav', () => nav(deps.engine, parseNavParams(toPairs(args)))),
  );
};

export default mfTools;
