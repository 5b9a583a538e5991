import type { RouteModule } from './index.js';
import { COMPARE_PATH, CompareError, parseCompareParams, type RawCompareParams } from '../../core/contract/compare.js';
import { compare } from '../../core/services/compare/compare.js';
import { openPriceSource } from '../../core/services/compare/prices.js';

/** GET /v1/compare: the securities comparison (spec part B). Validation and errors live in the contract. */
const compareRoutes: RouteModule = (app, deps) => {
  app.get(COMPARE_PATH, { schema: { tags: ['compare'], summary: 'quantstats metrics of up to 6 symbols against a benchmark' } }, async (req, reply) => {
    try {
      const params = parseCompareParams(req.query as RawCompareParams);
      return await compare(deps.engine, params, await openPriceSource(deps.engine));
    } catch (e) {
      if (!(e instanceof CompareError)) throw e;
      return reply.code(e.status).send(e.body());
    }
  });
};
export default compareRoutes;
