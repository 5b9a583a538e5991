import { ServiceError } from '../../contract/indicators.js';

/**
 * A query over indicator tables that are not there (nothing synced yet) is the machine's state, not
 * a bug: it becomes a 503 that says what to do. Anything else stays an error.
 */
export function asMissingData(err: unknown): ServiceError | null {
  const msg = err instanceof Error ? err.message : '';
  if (!/Catalog Error: .*\b(indicators|indicator_config|macro_indicators|stock_prices)\b.*does not exist/.test(msg)) return null;
  return new ServiceError(503, 'No indicator data on this machine yet.', {
    error: 'service_unavailable',
    hint: "Sync the indicators dataset first (the app's Data page, or `npm run cli -- sync`), then retry.",
  });
}
