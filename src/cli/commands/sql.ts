import { bool, str, UsageError, type Args } from '../args.js';
import { openStore } from '../../core/store/node.js';
import type { Command } from './index.js';

const command: Command = {
  name: 'sql',
  summary: 'run SQL over the local databases (indicators.*, mf.*, flags.*)',
  usage: 'npm run cli -- sql --data DIR [--json|--csv] "SELECT ..."',
  async run(args: Args) {
    const sql = args.positional.join(' ').trim();
    if (!sql) throw new UsageError('missing the SQL statement');
    const store = await openStore(str(args, 'data'));
    try {
      const rows = await store.engine.all(sql);
      if (bool(args, 'json')) process.stdout.write(`${JSON.stringify(rows)}\n`);
      else if (bool(args, 'csv')) process.stdout.write(toCsv(rows));
      else if (rows.length > 0) console.table(rows);
      else process.stdout.write('(no rows)\n');
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
