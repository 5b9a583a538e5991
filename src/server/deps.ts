import type { Engine } from '../core/engine/engine.js';

/** What every service descriptor (services/*.ts) is built from. Endpoints and tools call services; they add no logic. */
export interface ServerDeps {
  engine: Engine;
  /** Local data directory (the store), when the server runs over one. */
  dataDir?: string;
  /** Base URL the server is reachable at, for `help` links in error bodies. */
  baseUrl: string;
  /** Maximum rows for /v1/series (the hosted cap is 10,000; configurable locally). */
  maxSeriesRows?: number;
}
