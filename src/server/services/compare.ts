import { z } from 'zod';
import { COMPARE_PATH, CompareError, DEFAULT_BENCHMARK, MAX_SYMBOLS, MCP_TOOL, parseCompareParams, type RawCompareParams } from '../../core/contract/compare.js';
import { compare as compareSymbols } from '../../core/services/compare/compare.js';
import { openPriceSource } from '../../core/services/compare/prices.js';
import type { ServiceModule } from '../service.js';

const HINT = `GET ${COMPARE_PATH}?symbols=A,B&start_date=YYYY-MM-DD&end_date=YYYY-MM-DD compares up to ${MAX_SYMBOLS} symbols.`;

/** The securities comparison (spec part B): one endpoint, one tool, the same validation and core function. */
const compare: ServiceModule = (deps) => {
  const run = async (raw: RawCompareParams) => compareSymbols(deps.engine, parseCompareParams(raw), await openPriceSource(deps.engine));
  return {
    name: 'compare',
    prefix: COMPARE_PATH,
    tag: 'compare',
    // The whole path is the endpoint: no slash after it.
    endpoints: [{ path: '', summary: `quantstats metrics of up to ${MAX_SYMBOLS} symbols against a benchmark`, handler: async (req) => run(req.query as RawCompareParams) }],
    tools: [
      {
        name: MCP_TOOL,
        description: `Compare up to ${MAX_SYMBOLS} securities (tickers, mutual-fund scheme codes or ISINs, imported symbols) against a benchmark over a date range: 81 quantstats performance and risk metrics per symbol (CAGR, Sharpe, Sortino, max drawdown, volatility, ...), computed locally.`,
        input: {
          symbols: z.string().describe(`Comma-separated symbols, at most ${MAX_SYMBOLS}.`),
          benchmark: z.string().optional().describe(`Benchmark symbol (default ${DEFAULT_BENCHMARK}).`),
          start_date: z.string().describe('First date, YYYY-MM-DD.'),
          end_date: z.string().describe('Last date, YYYY-MM-DD.'),
          risk_free_rate: z.number().optional().describe('Annual risk-free rate as a decimal (0.045 is 4.5 percent); default 0.'),
        },
        run: async (args) => run(args),
      },
    ],
    notFound: (url) => new CompareError(404, 'not_found', `No compare endpoint at ${url.split('?')[0]}.`, HINT),
    notAllowed: (method) => new CompareError(405, 'method_not_allowed', `${method} is not allowed; compare is read-only (GET).`, HINT),
    refused: (err) => new CompareError(err.statusCode ?? 400, 'bad_request', err.message, HINT),
  };
};

export default compare;
