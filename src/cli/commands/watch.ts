import fs from 'node:fs/promises';
import { bool, str, UsageError, type Args } from '../args.js';
import { FsStorage } from '../../core/storage/fs.js';
import { openStore } from '../../core/database/node.js';
import { addWatch, exportWatches, importWatches, isWatchKind, removeWatch, settleWatches, WATCH_KINDS, WatchError, type Watch } from '../../core/changes/watches.js';
import { print } from '../print.js';
import type { Command } from './command.js';

const USAGE = 'npm run cli -- watch add|remove scheme CODE|company SYMBOL|indicator ID --data DIR | watch list --data DIR [--json] | watch export --data DIR | watch import FILE --data DIR';

const label = (w: Watch) => `${w.kind} ${w.key ?? w.id}${w.name ? ` (${w.name})` : ''}`;

const command: Command = {
  name: 'watch',
  summary: 'the watchlist: schemes, companies and indicators whose changes each sync reports',
  usage: USAGE,
  async run(args: Args) {
    const dir = str(args, 'data');
    const [action, ...rest] = args.positional;
    const storage = new FsStorage(dir);
    if (action === 'export') return void (await print(await exportWatches(storage)));
    if (!['add', 'remove', 'list', 'import'].includes(action ?? '')) throw new UsageError(`watch: unknown action ${action ?? '(none)'}`);
    const kind = rest[0];
    if ((action === 'add' || action === 'remove') && (!kind || !isWatchKind(kind) || !rest[1])) {
      throw new UsageError(`watch ${action} needs a kind (${WATCH_KINDS.join(', ')}) and an id`);
    }
    if (action === 'remove') return void (await print(`no longer watching ${label(await removeWatch(storage, kind as Watch['kind'], rest[1]))}\n`));
    const store = await openStore(dir);
    try {
      if (action === 'add') {
        const { watch, added } = await addWatch(storage, store.engine, kind as Watch['kind'], rest[1]);
        await print(`${added ? 'watching' : 'already watching'} ${label(watch)}\n`);
      } else if (action === 'import') {
        if (!rest[0]) throw new UsageError('watch import needs a FILE (a list written by watch export)');
        const r = await importWatches(storage, store.engine, await fs.readFile(rest[0], 'utf8'));
        await print(`imported ${r.added.length} watches, ${r.kept} already on the list\n`);
        for (const w of r.pending) await print(`pending: ${w.kind} ${w.id} is not in the local data; kept, and watched once a sync brings it\n`);
      } else {
        const list = await settleWatches(storage, store.engine);
        if (bool(args, 'json')) return void (await print(`${JSON.stringify(list)}\n`));
        if (list.length === 0) await print('the watchlist is empty: npm run cli -- watch add scheme CODE --data DIR\n');
        for (const w of list) await print(`${label(w)}${w.note ? ` — ${w.note}` : ''}\n`);
      }
    } catch (e) {
      if (e instanceof WatchError) throw new Error(e.message);
      throw e;
    } finally {
      await store.close();
    }
  },
};
export default command;
