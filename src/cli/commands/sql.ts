import { bool, str, UsageError, type Args } from '../args.js';
import { openStore } from '../../core/database/node.js';
import { print } from '../print.js';
import type { Command } from './command.js';

const command: Command = {
  name: 'sql',
  summary: 'run SQL over the local databases (indicators.*, mf.*, flags.*; almanac.* what the syncs changed)',
  usage: 'npm run cli -- sql --data DIR [--json|--csv] "SELECT ..."',
  async run(args: Args) {
    // The flag parser binds the next word to a flag, so `--json "SELECT …"` arrives as json = the SQL.
    const swallowed = (['json', 'csv'] as const).find((f) => typeof args.flags[f] === 'string');
    const format = swallowed ?? (bool(args, 'json') ? 'json' : bool(args, 'csv') ? 'csv' : 'table');
    const sql = [swallowed ? (args.flags[swallowed] as string) : '', ...args.positional].join(' ').trim();
    if (!sql) throw new UsageError('missing the SQL statement');
    const store = await openStore(str(args, 'data'));
    try {
      const rows = await store.engine.all(sql);
      if (format === 'json') await print(`${JSON.stringify(rows)}\n`);
      else if (format === 'csv') await print(toCsv(rows));
      else if (rows.length > 0) console.table(rows);
      else await print('(no rows)\n');
    } finally {
      await store.close();
    }
  },
};
export default command;

function toCsv(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return '';
  const cols = Object.keys(rows[0]);
  const cell = (v: unknown) => {
    if (v === null || v === undefined) return '';
    const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
    return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  return [cols.map(cell).join(','), ...rows.map((r) => cols.map((c) => cell(r[c])).join(','))].join('\n') + '\n';
}
