import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { bool, str, UsageError, type Args } from '../args.js';
import { openStore } from '../../core/database/node.js';
import { importAmfiText } from '../../core/amfi/import.js';
import type { Command } from './command.js';

const command: Command = {
  name: 'import-amfi',
  summary: "import AMFI's own NAV text files into user.amfi_nav (any of the four layouts)",
  usage: 'npm run cli -- import-amfi FILE... --data DIR [--json]',
  async run(args: Args) {
    if (args.positional.length === 0) throw new UsageError('name at least one AMFI NAV file');
    const store = await openStore(str(args, 'data'));
    try {
      const user = store.user!;
      const results = [];
      for (const file of args.positional) {
        const text = await readFile(file, 'utf8');
        results.push(await user.mutate((engine) => importAmfiText(engine, text, path.basename(file))));
      }
      if (bool(args, 'json')) {
        process.stdout.write(`${JSON.stringify(results.length === 1 ? results[0] : results, null, 2)}\n`);
      } else {
        for (const r of results) {
          const q = Object.entries(r.quality).map(([k, v]) => `${k} ${v}`).join(', ') || 'none';
          console.log(`${r.file}: ${r.rows} rows, ${r.schemes} schemes, ${r.dates.join(', ')} (${r.layout}); quality: ${q}`);
        }
      }
    } finally {
      await store.close();
    }
  },
};
export default command;
