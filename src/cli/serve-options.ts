import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { parseArgs } from 'node:util';

/** Where `npm start` serves the app: an address, and a certificate when it serves HTTPS. */
export interface ServeOptions {
  host: string;
  /** Whether that address is this machine's own (nothing else can reach the app). */
  loopback: boolean;
  tls?: { cert: Buffer; key: Buffer };
}

const LOOPBACK_NAMES = new Set(['localhost', '::1']);

export function isLoopback(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || (isIP(host) === 4 && host.startsWith('127.'));
}

/**
 * `npm start -- [--host ADDRESS] [--cert FILE --key FILE]`. Loopback by
 * default; any other address needs a certificate: a phone's browser runs the service worker and OPFS
 * only in a secure context, and a plain-HTTP page from the network would be one a neighbour can alter.
 */
export function parseServeOptions(argv: string[], read: (file: string) => Buffer = (f) => readFileSync(f)): ServeOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      cert: { type: 'string' },
      key: { type: 'string' },
    },
    strict: true,
  });
  const host = values.host!;
  if (!host || /[\s/]/.test(host)) throw new Error(`--host: "${host}" is not an address`);
  const loopback = isLoopback(host);
  if (Boolean(values.cert) !== Boolean(values.key)) throw new Error('--cert and --key go together: the certificate and its private key (PEM files)');
  if (!loopback && !values.cert) {
    throw new Error(`--host ${host} makes the app reachable from the network: give it --cert FILE --key FILE to serve HTTPS (a phone needs HTTPS for the service worker and OPFS)`);
  }
  const tls = values.cert ? { cert: read(values.cert), key: read(values.key!) } : undefined;
  return { host, loopback, tls };
}
