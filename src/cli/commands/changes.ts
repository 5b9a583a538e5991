import { bool, str, UsageError, type Args } from '../args.js';
import { FsStorage } from '../../core/storage/fs.js';
import { fileState } from '../../core/sync/metadata.js';
import { changesAnswer } from '../../core/changes/answer.js';
import { AlmanacError } from '../../core/contract/almanac.js';
import { describeChanges } from '../../core/changes/describe.js';
import { print } from '../print.js';
import type { Command } from './command.js';

const command: Command = {
  name: 'changes',
  summary: "what the last sync changed for the watchlist (or every kept sync since a date), with totals",
  usage: 'npm run cli -- changes --data DIR [--json] [--since DATE]',
  async run(args: Args) {
    const storage = new FsStorage(str(args, 'data'));
    const query = args.flags.since === undefined ? {} : { since: str(args, 'since') };
    const changes = await changesAnswer(storage, fileState(storage), query).catch((e: unknown) => {
      throw e instanceof AlmanacError ? new UsageError(e.message) : e;
    });
    await print(bool(args, 'json') ? `${JSON.stringify(changes)}\n` : describeChanges(changes).map((l) => `${l}\n`).join(''));
  },
};
export default command;
