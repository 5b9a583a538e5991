import type { RouteModule } from './index.js';
import { FsStorage } from '../../core/storage/fs.js';
import { fileState } from '../../core/sync/state.js';
import { CHANGES_DESCRIPTION, CHANGES_PATH, changesReply } from '../../core/changes/answer.js';

/** Almanac's own endpoints (no hosted counterpart): GET /almanac/v1/changes. Logic lives in core. */
const almanacRoutes: RouteModule = (app, deps) => {
  if (!deps.dataDir) return;
  const storage = new FsStorage(deps.dataDir);
  app.get(CHANGES_PATH, { schema: { tags: ['almanac'], summary: CHANGES_DESCRIPTION } }, async (req, reply) => {
    const r = await changesReply(storage, fileState(storage), req.query as Record<string, unknown>);
    return reply.code(r.status).send(r.body);
  });
};
export default almanacRoutes;
