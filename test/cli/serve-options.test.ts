import { describe, expect, it } from 'vitest';
import { isLoopback, parseServeOptions } from '../../src/cli/serve-options.js';

const files: Record<string, string> = { 'c.pem': 'CERT', 'k.pem': 'KEY' };
const read = (f: string) => {
  if (!(f in files)) throw new Error(`ENOENT: ${f}`);
  return Buffer.from(files[f]);
};

describe('npm start serving options', () => {
  it('binds loopback over HTTP when given nothing', () => {
    expect(parseServeOptions([], read)).toEqual({ host: '127.0.0.1', loopback: true, tls: undefined });
  });

  it('serves HTTPS on another address with a certificate and its key', () => {
    const o = parseServeOptions(['--host', '0.0.0.0', '--cert', 'c.pem', '--key', 'k.pem'], read);
    expect(o.host).toBe('0.0.0.0');
    expect(o.loopback).toBe(false);
    expect(o.tls?.cert.toString()).toBe('CERT');
    expect(o.tls?.key.toString()).toBe('KEY');
  });

  it('refuses a network address without a certificate, and half a certificate', () => {
    expect(() => parseServeOptions(['--host', '192.168.1.20'], read)).toThrow(/reachable from the network.*--cert FILE --key FILE/);
    expect(() => parseServeOptions(['--host', '0.0.0.0', '--cert', 'c.pem'], read)).toThrow(/--cert and --key go together/);
    expect(() => parseServeOptions(['--host', 'a b'], read)).toThrow(/not an address/);
    expect(() => parseServeOptions(['--port', '1'], read)).toThrow(/--port/);
  });

  it('a loopback address with a certificate serves HTTPS on loopback', () => {
    const o = parseServeOptions(['--host', 'localhost', '--cert', 'c.pem', '--key', 'k.pem'], read);
    expect(o.loopback).toBe(true);
    expect(o.tls).toBeDefined();
  });

  it('knows loopback addresses', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1']) expect(isLoopback(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '192.168.1.20', 'almanac.test', '128.0.0.1']) expect(isLoopback(h), h).toBe(false);
  });
});
