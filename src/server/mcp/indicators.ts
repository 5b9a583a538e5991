import { z } from 'zod';
import type { ToolModule } from './index.js';
import {
  CATEGORIES,
  CATEGORY_IDS,
  LIMITS,
  ServiceError,
  ValidationError,
  errorBody,
  parseFindParams,
  parseSeriesParams,
} from '../../core/contract/indicators.js';
import { categories } from '../../core/services/indicators/categories.js';
import { categoryIndicators } from '../../core/services/indicators/category-indicators.js';
import { find } from '../../core/services/indicators/find.js';
import { series, seriesTsv } from '../../core/services/indicators/series.js';
import { asMissingData } from '../../core/services/indicators/missing-data.js';
import type { ServerDeps } from '../deps.js';

/**
 * Results are body-only (no headers reach the agent): errors come back as tool errors carrying the
 * same envelopes REST sends, and series TSV carries its `# meta:` line.
 */
async function answer(deps: ServerDeps, tool: string, run: () => Promise<unknown>) {
  try {
    const out = await run();
    return { content: [{ type: 'text' as const, text: typeof out === 'string' ? out : JSON.stringify(out) }] };
  } catch (thrown) {
    const err = asMissingData(thrown) ?? thrown;
    const body =
      err instanceof ValidationError
        ? { detail: err.detail }
        : err instanceof ServiceError
          ? errorBody(deps.baseUrl, err.status, tool, err.message, err.extra)
          : null;
    if (!body) throw err;
    return { isError: true, content: [{ type: 'text' as const, text: JSON.stringify(body) }] };
  }
}

const MENU = CATEGORIES.map((c) => `- ${c.category}: ${c.one_liner}`).join('\n');

const indicatorTools: ToolModule = (server, deps) => {
  server.registerTool(
    'list_categories',
    {
      description: `List the 8 indicator categories with one-line summaries and indicator counts. Start here, then list one category, then pull series by id.\n${MENU}`,
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    async () => answer(deps, 'list_categories', () => categories(deps.engine, { baseUrl: deps.baseUrl })),
  );

  server.registerTool(
    'list_indicators_in_category',
    {
      description:
        "List the indicators of one category. Full rows carry notes with caveats (annualisation, sign conventions, cumulative vs per-period, base years, breaks): read them before computing. compact=true returns only indicator_id, name, frequency, last_date.",
      inputSchema: {
        category: z.string().describe(`One of: ${CATEGORY_IDS.join(', ')}`),
        compact: z.boolean().optional().describe('Only indicator_id, name, frequency, last_date (default false)'),
      },
      annotations: { readOnlyHint: true },
    },
    async (args) =>
      answer(deps, 'list_indicators_in_category', () => categoryIndicators(deps.engine, { category: args.category, compact: args.compact ?? false })),
  );

  server.registerTool(
    'find_indicator',
    {
      description: `Search indicators across all categories: case-insensitive substring of indicator_id or name (${LIMITS.find_query_min_length}-${LIMITS.find_query_max_length} characters). Each hit names its category.`,
      inputSchema: {
        query: z.string().describe('Text to find in ids and names'),
        limit: z.number().int().optional().describe(`${LIMITS.find_limit_min} to ${LIMITS.find_limit_max}, default ${LIMITS.find_limit_default}`),
      },
      annotations: { readOnlyHint: true },
    },
    async (args) => answer(deps, 'find_indicator', () => find(deps.engine, parseFindParams({ query: args.query, limit: args.limit }))),
  );

  server.registerTool(
    'v2_get_series',
    {
      description: `Time series for up to ${LIMITS.max_ids_per_series_call} comma-separated ids (macro indicators and market symbols may be mixed), one row per date, one column per id; columns are empty where an indicator has no observation that day. unknown_ids (typos) and empty_ids (no rows in range) are diagnostics, not errors. format=tsv starts with '# meta: count=N unknown=[...] empty=[...]'. At most ${LIMITS.max_rows_per_response} rows; beyond that meta.next_from says where to continue.`,
      inputSchema: {
        ids: z.string().describe('Comma-separated ids, at most 10'),
        from: z.string().optional().describe('Start date YYYY-MM-DD, inclusive'),
        to: z.string().optional().describe('End date YYYY-MM-DD, inclusive'),
        format: z.string().optional().describe("'json' (default) or 'tsv'"),
      },
      annotations: { readOnlyHint: true },
    },
    async (args) =>
      answer(deps, 'v2_get_series', async () => {
        const params = parseSeriesParams(args);
        const result = await series(deps.engine, params, { maxRows: deps.maxSeriesRows });
        return params.format === 'tsv' ? seriesTsv(result) : result;
      }),
  );
};

export default indicatorTools;
