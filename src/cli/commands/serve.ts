import { bool, str, type Args } from '../args.js';
import { openStore } from '../../core/database/node.js';
import { listen } from '../../server/listen.js';
import type { Command } from './command.js';

/** How often the server looks for a sync finished by another process (the CLI or the app). */
const REFRESH_MS = 2000;

const command: Command = {
  name: 'serve',
  summary: 'serve the REST contract and MCP (POST /mcp) on 127.0.0.1 from the local data',
  usage: 'npm run cli -- serve --data DIR [--port P] [--host H --allow-non-loopback] [--origin URL]',
  async run(args: Args) {
    const store = await openStore(str(args, 'data'));
    const origin = args.flags.origin;
    const server = await listen(
      { engine: store.engine, dataDir: str(args, 'data') },
      {
        host: str(args, 'host', '127.0.0.1'),
        port: Number(str(args, 'port', '8765')),
        allowNonLoopback: bool(args, 'allow-non-loopback'),
        allowedOrigins: typeof origin === 'string' ? origin.split(',') : [],
      },
    );
    const timer = setInterval(() => void store.refresh().catch((e) => console.error(`refresh failed: ${e.message}`)), REFRESH_MS);
    console.log(`Almanac local server: ${server.url}/  (MCP: ${server.mcpUrl})`);
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    clearInterval(timer);
    await server.close();
    await store.close();
  },
};
export default command;
