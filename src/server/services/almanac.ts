import { z } from 'zod';
import { ALMANAC_BASE, API_MAP, AlmanacError } from '../../core/contract/almanac.js';
import { CHANGES_DESCRIPTION, CHANGES_ENDPOINT, WHATS_NEW_TOOL, changesAnswer } from '../../core/changes/answer.js';
import { FsStorage } from '../../core/storage/fs.js';
import { fileState } from '../../core/sync/metadata.js';
import type { ServerDeps } from '../deps.js';
import type { Endpoint, ServiceModule, Tool } from '../service.js';

/** What changed at the last syncs (src/core/changes): only where the server reads a data directory. */
function changes(deps: ServerDeps): { endpoints: Endpoint[]; tools: Tool[] } {
  if (!deps.dataDir) return { endpoints: [], tools: [] };
  const storage = new FsStorage(deps.dataDir);
  const answer = (query: Record<string, unknown>) => changesAnswer(storage, fileState(storage), query);
  return {
    endpoints: [{ path: CHANGES_ENDPOINT, summary: CHANGES_DESCRIPTION, handler: async (req) => answer(req.query as Record<string, unknown>) }],
    tools: [
      {
        name: WHATS_NEW_TOOL,
        description: CHANGES_DESCRIPTION,
        input: { since: z.string().optional().describe('YYYY-MM-DD: merge every kept sync since then (default: the last sync only).') },
        run: async ({ since }) => answer(since === undefined ? {} : { since }),
      },
    ],
  };
}

/**
 * Almanac's own endpoints and tools, beside the mirrored services: the map of the APIs this server
 * answers, and what changed for the user's watchlist. Its envelope also answers every path outside
 * the services (app.ts). A new endpoint is one entry in `endpoints`, a new tool one entry in `tools`.
 */
const almanac: ServiceModule = (deps) => {
  const own = changes(deps);
  return {
    name: 'almanac',
    prefix: ALMANAC_BASE,
    tag: 'almanac',
    endpoints: [{ path: '/', summary: 'Where each API of this server lives', handler: async () => ({ apis: API_MAP }) }, ...own.endpoints],
    tools: own.tools,
    notFound: (url) => new AlmanacError(404, `No endpoint at ${url.split('?')[0]}.`, undefined, API_MAP),
    refused: (err) => new AlmanacError(err.statusCode ?? 400, err.message),
  };
};

export default almanac;
