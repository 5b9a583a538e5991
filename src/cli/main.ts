import { parseArgs, UsageError } from './args.js';
import { commands } from './commands/index.js';

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const cmd = name !== undefined && Object.hasOwn(commands, name) ? await commands[name]() : null;
  if (!cmd) {
    const all = await Promise.all(Object.values(commands).map((load) => load()));
    const list = all.map((c) => `  ${c.name.padEnd(14)} ${c.summary}`).join('\n');
    process.stderr.write(`usage: npm run cli -- <command> [options]\n\ncommands:\n${list}\n`);
    return name ? 2 : 0;
  }
  try {
    return (await cmd.run(parseArgs(rest))) ?? 0;
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`${e.message}\nusage: ${cmd.usage}\n`);
      return 2;
    }
    process.stderr.write(`error: ${(e as Error).message}\n`);
    return 1;
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code));
