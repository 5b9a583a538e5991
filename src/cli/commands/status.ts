import { bool, str, type Args } from '../args.js';
import { FsStorage } from '../../core/storage/fs.js';
import { SERVICES } from '../../core/sync/datasets.js';
import { readState } from '../../core/sync/metadata.js';
import { statusOf } from '../../core/database/store.js';
import { print } from '../print.js';
import type { Command } from './command.js';

const command: Command = {
  name: 'status',
  summary: 'what is stored locally: generation, ETag, rows, bytes, last sync, schema version, drift and the NAV history refreshes per dataset',
  usage: 'npm run cli -- status --data DIR [--json]',
  async run(args: Args) {
    const state = await readState(new FsStorage(str(args, 'data')));
    const list = SERVICES.flatMap((s) => (state.datasets[s] ? [statusOf(state.datasets[s]!)] : []));
    if (bool(args, 'json')) {
      await print(`${JSON.stringify(list)}\n`);
      return;
    }
    if (list.length === 0) {
      await print('no data yet: run `npm run cli -- sync --source URL --data DIR`\n');
      return;
    }
    for (const d of list) {
      await print(
        `${d.dataset.padEnd(11)} generation ${d.generation}  rows ${d.rows}  bytes ${d.bytes}  last sync ${d.last_sync}  etag ${d.etag ?? '-'}\n`,
      );
      for (const [t, info] of Object.entries(d.tables)) await print(`  ${d.dataset}.${t.padEnd(22)} ${String(info.rows).padStart(10)} rows  from ${info.file}\n`);
      if (d.schema_version !== null) {
        const changed = d.schema_changed ? ` (changed ${d.schema_changed})` : '';
        await print(`  schema version ${d.local_schema_version ?? '-'} locally, ${d.schema_version} at the publisher${changed}\n`);
      }
      if (d.history) {
        const since = `${d.history.refreshes} refresh${d.history.refreshes === 1 ? '' : 'es'} since`;
        await print(`  NAV history verified in full ${d.history.verified_at} · ${since} · last change: ${d.history.detail}\n`);
      }
      for (const n of d.drift) await print(`  drift ${n.status.padEnd(8)} ${n.detail} Since ${n.since}.\n`);
      for (const e of d.errors) await print(`  last error: ${e}\n`);
    }
  },
};
export default command;
