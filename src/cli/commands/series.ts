import { str, type Args } from '../args.js';
import { openStore } from '../../core/database/node.js';
import { ValidationError, parseSeriesParams } from '../../core/contract/indicators.js';
import { series, seriesTsv } from '../../core/services/indicators/series.js';
import type { Command } from './command.js';

const command: Command = {
  name: 'series',
  summary: 'indicator time series from the local store (wide rows, json or tsv)',
  usage: 'npm run cli -- series --data DIR --ids a,b [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--format json|tsv] [--max-rows N]',
  async run(args: Args) {
    const opt = (name: string) => (typeof args.flags[name] === 'string' ? (args.flags[name] as string) : undefined);
    let params;
    try {
      params = parseSeriesParams({ ids: opt('ids'), from: opt('from'), to: opt('to'), format: opt('format') });
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      process.stderr.write(`${e.detail.map((d) => `--${d.loc[d.loc.length - 1]}: ${d.msg}`).join('\n')}\nusage: ${command.usage}\n`);
      return 2;
    }
    const maxRows = opt('max-rows') === undefined ? undefined : Number(opt('max-rows'));
    if (maxRows !== undefined && !(Number.isInteger(maxRows) && maxRows > 0)) {
      process.stderr.write(`--max-rows: a positive integer, got ${opt('max-rows')}\n`);
      return 2;
    }
    const store = await openStore(str(args, 'data'));
    try {
      const result = await series(store.engine, params, { maxRows });
      process.stdout.write(params.format === 'tsv' ? seriesTsv(result) : `${JSON.stringify(result, null, 2)}\n`);
      if (result.meta.unknown_ids.length) process.stderr.write(`unknown ids: ${result.meta.unknown_ids.join(', ')}\n`);
    } finally {
      await store.close();
    }
  },
};
export default command;
