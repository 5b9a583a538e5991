import { bool, str, UsageError, type Args } from '../args.js';
import { FsStorage } from '../../core/storage/fs.js';
import { fileState } from '../../core/sync/state.js';
import { changesReply } from '../../core/changes/answer.js';
import { describeChanges } from '../../core/changes/describe.js';
import { print } from '../print.js';
import type { Command } from './index.js';

const command: Command = {
  name: 'changes',
  summary: "what the last sync changed for the watchlist (or every kept sync since a date), with totals",
  usage: 'npm run cli -- changes --data DIR [--json] [--since DATE]',
  async run(args: Args) {
    const storage = new FsStorage(str(args, 'data'));
    const r = await changesReply(storage, fileState(storage), args.flags.since === undefined ? {} : { since: str(args, 'since') });
    if (r.status !== 200) throw new UsageError(r.body.message);
    await print(bool(args, 'json') ? `${JSON.stringify(r.body)}\n` : describeChanges(r.body).map((l) => `${l}\n`).join(''));
  },
};
export default command;
