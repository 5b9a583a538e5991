import { FlagsError, TABLE_NAMES } from '../../contract/flags.js';

const MISSING = new RegExp(
  `Catalog Error: (.*\\bflags\\b.*does not exist|Table with name (${TABLE_NAMES.join('|')}) does not exist)`,
);

/** A query against a store that holds no flags data yet fails on a missing schema or table: that is a 503, not a bug. */
export function asMissingData(err: unknown): FlagsError | null {
  const msg = err instanceof Error ? err.message : '';
  if (!MISSING.test(msg)) return null;
  return new FlagsError({
    status: 503,
    error: 'service_unavailable',
    message: 'No red-flag data on this machine yet.',
    hint: "Sync the flags dataset first (the app's Data page, or the CLI sync command), then retry.",
  });
}
