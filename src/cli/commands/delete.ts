import { str, UsageError, type Args } from '../args.js';
import { FsStorage } from '../../core/storage/fs.js';
import { isService, SERVICES } from '../../core/sync/datasets.js';
import { deleteDataset, fileState } from '../../core/sync/metadata.js';
import { withLock } from '../../core/sync/lock.js';
import { fileLock } from '../../core/sync/node-lock.js';
import { print } from '../print.js';
import type { Command } from './command.js';

const command: Command = {
  name: 'delete',
  summary: 'delete a synced dataset and its files from the local store',
  usage: 'npm run cli -- delete --data DIR NAME',
  async run(args: Args) {
    const name = args.positional[0];
    if (!name || !isService(name)) throw new UsageError(`name one dataset: ${SERVICES.join(', ')}`);
    const storage = new FsStorage(str(args, 'data'));
    const state = fileState(storage);
    if (!(await state.read()).datasets[name]) {
      await print(`${name}: nothing stored\n`);
      return;
    }
    await withLock(fileLock(storage.dir), () => deleteDataset(storage, state, name));
    await print(`${name}: deleted\n`);
  },
};
export default command;
