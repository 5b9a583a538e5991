import { bool, str, type Args } from '../args.js';
import { FsStorage } from '../../core/storage/fs.js';
import { readState } from '../../core/sync/state.js';
import { changesSince } from '../../core/changes/log.js';
import { describeChanges } from '../../core/changes/describe.js';
import { print } from '../print.js';
import type { Command } from './index.js';

const command: Command = {
  name: 'changes',
  summary: "what the last sync changed for the watchlist (or every kept sync since a date), with totals",
  usage: 'npm run cli -- changes --data DIR [--json] [--since DATE]',
  async run(args: Args) {
    const storage = new FsStorage(str(args, 'data'));
    const since = args.flags.since === undefined ? null : str(args, 'since');
    const changes = await changesSince(storage, await readState(storage), since);
    await print(bool(args, 'json') ? `${JSON.stringify(changes)}\n` : describeChanges(changes).map((l) => `${l}\n`).join(''));
  },
};
export default command;
