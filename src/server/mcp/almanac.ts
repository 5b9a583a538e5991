import { z } from 'zod';
import type { ToolModule } from './index.js';
import { FsStorage } from '../../core/storage/fs.js';
import { fileState } from '../../core/sync/state.js';
import { CHANGES_DESCRIPTION, WHATS_NEW_TOOL, changesReply } from '../../core/changes/answer.js';

/** whats_new: the same answer as GET /almanac/v1/changes and `changes --json`. */
const almanacTools: ToolModule = (server, deps) => {
  if (!deps.dataDir) return;
  const storage = new FsStorage(deps.dataDir);
  server.registerTool(
    WHATS_NEW_TOOL,
    {
      description: CHANGES_DESCRIPTION,
      inputSchema: { since: z.string().optional().describe('YYYY-MM-DD: merge every kept sync since then (default: the last sync only).') },
      annotations: { readOnlyHint: true },
    },
    async (args) => {
      const r = await changesReply(storage, fileState(storage), args.since === undefined ? {} : { since: args.since });
      return { ...(r.status === 200 ? {} : { isError: true }), content: [{ type: 'text' as const, text: JSON.stringify(r.body) }] };
    },
  );
};
export default almanacTools;
