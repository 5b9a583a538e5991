import { z } from 'zod';
import type { ToolModule } from './index.js';
import { CompareError, DEFAULT_BENCHMARK, MAX_SYMBOLS, MCP_TOOL, parseCompareParams } from '../../core/contract/compare.js';
import { compare } from '../../core/services/compare/compare.js';
import { openPriceSource } from '../../core/services/compare/prices.js';

/** mcp_compare_securities: the same validation and the same core function as GET /v1/compare. */
const compareTools: ToolModule = (server, deps) => {
  server.registerTool(
    MCP_TOOL,
    {
      description: `Compare up to ${MAX_SYMBOLS} securities (tickers, mutual-fund scheme codes or ISINs, imported symbols) against a benchmark over a date range: 81 quantstats performance and risk metrics per symbol (CAGR, Sharpe, Sortino, max drawdown, volatility, ...), computed locally.`,
      inputSchema: {
        symbols: z.string().describe(`Comma-separated symbols, at most ${MAX_SYMBOLS}.`),
        benchmark: z.string().optional().describe(`Benchmark symbol (default ${DEFAULT_BENCHMARK}).`),
        start_date: z.string().describe('First date, YYYY-MM-DD.'),
        end_date: z.string().describe('Last date, YYYY-MM-DD.'),
        risk_free_rate: z.number().optional().describe('Annual risk-free rate as a decimal (0.045 is 4.5 percent); default 0.'),
      },
      annotations: { readOnlyHint: true },
    },
    async (args) => {
      try {
        const result = await compare(deps.engine, parseCompareParams(args), await openPriceSource(deps.engine));
        return { content: [{ type: 'text' as const, text: JSON.stringify(result) }] };
      } catch (e) {
        if (!(e instanceof CompareError)) throw e;
        return { isError: true, content: [{ type: 'text' as const, text: JSON.stringify(e.body()) }] };
      }
    },
  );
};
export default compareTools;
