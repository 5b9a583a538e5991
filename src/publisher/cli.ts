/** `npm run publisher -- --data DIR [--port P] [--faults SPEC] [--limits spec|off]` */
import { parseArgs } from 'node:util';
import { startPublisher } from './server.js';

const USAGE = 'usage: npm run publisher -- --data DIR [--port 8787] [--faults SPEC] [--limits spec|off]';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      data: { type: 'string' },
      port: { type: 'string', default: '8787' },
      faults: { type: 'string' },
      limits: { type: 'string', default: 'spec' },
    },
    strict: true,
  });
  if (!values.data) throw new Error(`--data is required\n${USAGE}`);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number\n${USAGE}`);
  if (values.limits !== 'spec' && values.limits !== 'off') throw new Error(`--limits is spec or off\n${USAGE}`);
  const publisher = await startPublisher({ dataDir: values.data, port, faults: values.faults, limits: values.limits });
  console.log(`publisher serving ${values.data} at ${publisher.url} (limits ${values.limits}${values.faults ? `, faults ${values.faults}` : ''})`);
  const stop = (): void => {
    publisher.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(2);
});
