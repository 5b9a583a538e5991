import fs from 'node:fs/promises';
import { str, UsageError, type Args } from '../args.js';
import { openStore, nodeHost } from '../../core/database/node.js';
import { UserData } from '../../core/database/user.js';
import type { Store } from '../../core/database/store.js';
import { PriceImportError, parsePricesCsv, storePrices } from '../../core/services/compare/import.js';
import type { Command } from './command.js';

/** The store's `user` schema: opened by openStore where it does so, else opened here. */
async function userOf(store: Store, dir: string): Promise<UserData> {
  return (store as { user?: UserData | null }).user ?? UserData.open(store.engine, store.storage, nodeHost(dir));
}

const command: Command = {
  name: 'import-prices',
  summary: 'import your own prices (date,symbol,close CSV) into user.prices, for compare',
  usage: 'npm run cli -- import-prices FILE.csv --data DIR',
  async run(args: Args) {
    const file = args.positional[0];
    if (!file) throw new UsageError('missing FILE.csv');
    const dir = str(args, 'data');
    let rows;
    try {
      rows = parsePricesCsv(await fs.readFile(file, 'utf8'));
    } catch (e) {
      if (!(e instanceof PriceImportError)) throw e;
      process.stderr.write(`${file}: ${e.message}\nnothing was imported\n`);
      return 1;
    }
    const store = await openStore(dir);
    try {
      const user = await userOf(store, dir);
      const n = await user.mutate((engine) => storePrices(engine, rows));
      const symbols = new Set(rows.map((r) => r.symbol));
      process.stdout.write(`${JSON.stringify({ file, rows: n, symbols: [...symbols].sort() })}\n`);
    } finally {
      await store.close();
    }
  },
};
export default command;
