import fs from 'node:fs/promises';
import { bool, type Args } from '../args.js';
import { NodeEngine } from '../../core/engine/node.js';
import type { Engine } from '../../core/engine/engine.js';
import { openStore, nodeHost } from '../../core/database/node.js';
import { UserData } from '../../core/database/user.js';
import type { Store } from '../../core/database/store.js';
import { CompareError, parseCompareParams } from '../../core/contract/compare.js';
import { compare } from '../../core/services/compare/compare.js';
import { openPriceSource } from '../../core/services/compare/prices.js';
import { PriceImportError, parsePricesCsv, storePrices } from '../../core/services/compare/import.js';
import type { Command } from './command.js';

/** Prices from a CSV alone (an in-memory `user` database) or from the local store. */
async function openEngine(args: Args): Promise<{ engine: Engine; close: () => Promise<void> }> {
  const prices = args.flags.prices;
  if (typeof prices === 'string') {
    const rows = parsePricesCsv(await fs.readFile(prices, 'utf8'));
    const engine = await NodeEngine.open();
    await engine.exec(`ATTACH ':memory:' AS "user"`);
    await storePrices(engine, rows);
    return { engine, close: () => engine.close() };
  }
  const dir = args.flags.data;
  if (typeof dir !== 'string') throw new CompareError(400, 'bad_request', 'Give --prices FILE.csv or --data DIR.', 'FILE.csv has the columns date,symbol,close.');
  const store = await openStore(dir);
  await userOf(store, dir);
  return { engine: store.engine, close: () => store.close() };
}

/** The store's `user` schema: opened by openStore where it does so, else opened here. */
async function userOf(store: Store, dir: string): Promise<UserData> {
  return (store as { user?: UserData | null }).user ?? UserData.open(store.engine, store.storage, nodeHost(dir));
}

const command: Command = {
  name: 'compare',
  summary: 'quantstats metrics of up to 6 symbols against a benchmark (GET /v1/compare)',
  usage:
    'npm run cli -- compare (--prices FILE.csv | --data DIR) --symbols A,B --start-date YYYY-MM-DD --end-date YYYY-MM-DD [--benchmark SPY] [--risk-free-rate 0.045] [--precision display|full]',
  async run(args: Args) {
    const opt = (name: string) => (typeof args.flags[name] === 'string' ? (args.flags[name] as string) : undefined);
    let handle;
    try {
      const params = parseCompareParams({
        symbols: opt('symbols'),
        start_date: opt('start-date'),
        end_date: opt('end-date'),
        benchmark: opt('benchmark'),
        risk_free_rate: opt('risk-free-rate'),
        precision: bool(args, 'full') ? 'full' : opt('precision'),
      });
      handle = await openEngine(args);
      const result = await compare(handle.engine, params, await openPriceSource(handle.engine));
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    } catch (e) {
      if (e instanceof PriceImportError) {
        process.stderr.write(`--prices: ${e.message}\n`);
        return 1;
      }
      if (!(e instanceof CompareError)) throw e;
      process.stderr.write(`${JSON.stringify(e.body(), null, 2)}\n`);
      return e.status === 404 ? 1 : 2;
    } finally {
      await handle?.close();
    }
  },
};
export default command;
