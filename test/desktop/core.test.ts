import { describe, it, expect, afterAll } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startPublisher, type Publisher } from '../../src/publisher/server.js';
import { publishTiny } from '../helpers/tiny-data.js';
import { amfiDailyFile } from '../helpers/amfi-file.js';
import { NO_LIMITS } from '../core/sync/fixture.js';
import { startDesktopCore, type DesktopCore } from '../../src/desktop/core.js';
import { ipcAnswerer } from '../../src/desktop/main-ipc.js';
import type { DesktopInfo } from '../../src/desktop/channels.js';
import type { SyncEvent } from '../../src/core/sync/progress.js';
import type { SyncOutcome } from '../../src/core/sync/outcome.js';
import type { StoreState } from '../../src/core/sync/metadata.js';
import type { ManifestReply } from '../../src/core/sync/manifest.js';

const count = async (core: DesktopCore, sql: string, params: unknown[] = []) =>
  ((await core.handle('engine:all', { sql, params })) as { n: number }[])[0].n;

const done = (o: unknown) => {
  expect(o).toMatchObject({ outcome: 'done' });
  return (o as Extract<SyncOutcome, { outcome: 'done' }>).summary;
};

/** Starts the desktop core exactly as electron/main.js does and drives it through the IPC handlers. */
describe('desktop core through its IPC handlers', () => {
  let root = '';
  let publisher: Publisher;
  let core: DesktopCore;
  const port = 18000 + Math.floor(Math.random() * 2000);

  afterAll(async () => {
    await core?.close();
    await publisher?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('syncs, answers the window and the local server from one copy of the data', { timeout: 300_000 }, async () => {
    root = await mkdtemp(path.join(tmpdir(), 'almanac-desktop-'));
    await publishTiny(path.join(root, 'pub'), ['flags'], { seed: 5 });
    publisher = await startPublisher({ dataDir: path.join(root, 'pub'), limits: 'off' });
    core = await startDesktopCore({ userDataDir: path.join(root, 'userData'), rules: NO_LIMITS });

    expect(await core.handle('server:status', undefined)).toEqual({ running: false, url: null, mcp_url: null, error: null });
    await expect(core.handle('sync:run', {})).rejects.toThrow(/no source set/);

    const set = (await core.handle('settings:set', { source: publisher.url, server: { enabled: true, port } })) as DesktopInfo;
    expect(set.server.running).toBe(true);
    expect(set.server.mcp_url).toBe(`http://127.0.0.1:${port}/mcp`);
    expect(set.data_dir).toBe(path.join(root, 'userData', 'data'));

    const events: SyncEvent[] = [];
    const summary = done(await core.handle('sync:run', { only: ['flags'] }, (e) => events.push(e)));
    expect(summary.errors).toEqual([]);
    expect(events.some((e) => e.type === 'switched')).toBe(true);

    const n = await count(core, 'SELECT count(*) AS n FROM flags.credit_ratings WHERE symbol = ?', ['REDSTONE']);
    expect(n).toBeGreaterThan(0);
    const ipc = (await core.handle('engine:arrow', { sql: 'SELECT DISTINCT symbol FROM flags.credit_ratings ORDER BY 1' })) as Uint8Array;
    const symbols = tableFromIPC(ipc).getChild('symbol')!.toArray();
    expect(symbols).toContain('REDSTONE');

    // The REST server reads the same store the window does.
    const res = await fetch(`${set.server.url}/flags/v1/company/REDSTONE?tables=credit_ratings`);
    expect(res.status).toBe(200);
    expect(JSON.stringify(await res.json())).toContain('REDSTONE');

    // A second sync with the store open: nothing changed, and both doors still answer afterwards.
    const again = done(await core.handle('sync:run', { only: ['flags'] }));
    expect(again.files.every((f) => f.status === 'not_modified')).toBe(true);
    expect(await count(core, 'SELECT count(*) AS n FROM flags.credit_ratings WHERE symbol = ?', ['REDSTONE'])).toBe(n);
    const status = (await core.handle('server:status', undefined)) as { url: string };
    expect((await fetch(`${status.url}/flags/v1/company/REDSTONE?tables=credit_ratings`)).status).toBe(200);

    const state = (await core.handle('sync:status', undefined)) as StoreState;
    expect(state.datasets.flags?.source_url).toBe(publisher.url);

    await expect(core.handle('engine:all', { sql: 42 })).rejects.toThrow(/sql must be/);
    await expect(core.handle('sync:run', { only: ['../etc'] })).rejects.toThrow(/only must be/);
    await expect(core.handle('sync:run', { only: ['flags'], sources: { flags: 'http://example.org' } })).rejects.toThrow(/sources.flags must be https/);
    await expect(core.handle('settings:set', { server: { enabled: true, port: 22 } })).rejects.toThrow(/server.port/);
    await expect(core.handle('nope' as never, {})).rejects.toThrow(/unknown channel/);
  });

  it('keeps the window to its own connection and off the filesystem', { timeout: 120_000 }, async () => {
    // SQL from the window cannot write or read files outside what the store attached.
    const outside = path.join(root, 'written-by-the-window.csv');
    await expect(core.handle('engine:exec', { sql: `COPY (SELECT 1 AS x) TO '${outside}'` })).rejects.toThrow(/disabled by configuration/);
    await expect(core.handle('engine:exec', { sql: `COPY (SELECT 1 AS x) TO '${path.join(root, 'userData', 'data')}/./../x.csv'` })).rejects.toThrow(/disabled/);
    await expect(core.handle('engine:all', { sql: "SELECT * FROM read_text('/etc/hostname')" })).rejects.toThrow(/disabled by configuration/);
    await expect(core.handle('engine:exec', { sql: `ATTACH '${path.join(root, 'new.duckdb')}' AS x` })).rejects.toThrow(/disabled by configuration/);
    await expect(core.handle('engine:exec', { sql: 'SET enable_external_access = true' })).rejects.toThrow(/locked/);
    expect(existsSync(outside)).toBe(false);
  });

  it('checks a source through the main process', { timeout: 60_000 }, async () => {
    const fetched = (await core.handle('source:manifest', { service: 'flags', base: publisher.url, etag: null })) as ManifestReply;
    expect(fetched.status).toBe(200);
    expect(JSON.parse(fetched.text!).files).toBeTypeOf('object');
    const state = (await core.handle('sync:status', undefined)) as StoreState;
    const unchanged = (await core.handle('source:manifest', { service: 'flags', base: publisher.url, etag: state.datasets.flags!.manifest_etag })) as ManifestReply;
    expect(unchanged).toEqual({ status: 304, text: null });
    // The stand-in publisher serves no mf here: the status goes back for the Data view to show.
    const none = (await core.handle('source:manifest', { service: 'mf', base: publisher.url, etag: null })) as ManifestReply;
    expect(none.status).toBeGreaterThanOrEqual(400);
    expect(none.text).toBeNull();
    await expect(core.handle('source:manifest', { service: 'flags', base: 'file:///etc', etag: null })).rejects.toThrow(/base must be https/);
    await expect(core.handle('source:manifest', { service: 'flags', base: `${publisher.url}?x=1`, etag: null })).rejects.toThrow(/query/);
    await expect(core.handle('source:manifest', { service: 'flags', base: publisher.url, etag: 'a\r\nX-Evil: 1' })).rejects.toThrow(/etag/);
  });

  it('imports prices, deletes a dataset, cancels a sync; the data and the server come back each time', { timeout: 300_000 }, async () => {
    const days = ['2026-01-02', '2026-01-05', '2026-01-06', '2026-01-07', '2026-01-08'];
    const csv = ['date,symbol,close', ...days.flatMap((d, i) => [`${d},ACME,${10 + i}`, `${d},BENCH,${100 - i}`])].join('\n');
    const imported = (await core.handle('store:import-prices', { csv })) as { rows: number };
    expect(imported.rows).toBe(10);
    expect(await count(core, 'SELECT count(*) AS n FROM user.prices')).toBe(10);

    // The window's temp objects are its own: a clashing temp table there leaves the server's compare alone.
    await core.handle('engine:exec', { sql: 'CREATE TEMP TABLE compare_request (x INTEGER)' });
    const { server: srv } = (await core.handle('settings:get', undefined)) as DesktopInfo;
    const cmp = await fetch(`${srv.url}/v1/compare?symbols=ACME&benchmark=BENCH&start_date=2026-01-01&end_date=2026-01-09`);
    expect(cmp.status).toBe(200);
    expect(JSON.stringify(await cmp.json())).toContain('ACME');
    // A bad line is named and nothing changes.
    await expect(core.handle('store:import-prices', { csv: 'date,symbol,close\n2026-01-09,ACME,n/a\n' })).rejects.toThrow(/line 2: close 'n\/a' is not a number/);
    expect(await count(core, 'SELECT count(*) AS n FROM user.prices')).toBe(10);
    await expect(core.handle('store:import-prices', { csv: 7 })).rejects.toThrow(/csv must be text/);

    // An AMFI NAV file through the same door (the Data view's import card); a bad one changes nothing.
    const amfi = amfiDailyFile('2026-11-16', [{ code: 100000, name: 'Sample Fund - Growth', isin: null, nav: '10.5000' }]);
    const read = (await core.handle('store:import-amfi', { text: amfi, fileName: 'NAVAll-2026-11-16.txt' })) as { rows: number; layout: string };
    expect(read).toMatchObject({ rows: 1, layout: 'daily', dates: ['2026-11-16'] });
    expect(await count(core, "SELECT count(*) AS n FROM user.amfi_nav WHERE source_file = 'NAVAll-2026-11-16.txt'")).toBe(1);
    await expect(core.handle('store:import-amfi', { text: 'not an AMFI file\n', fileName: 'x.txt' })).rejects.toThrow(/unrecognised AMFI header/);
    await expect(core.handle('store:import-amfi', { text: amfi, fileName: '../x.txt' })).rejects.toThrow(/fileName must be a plain file name/);
    expect(await count(core, 'SELECT count(*) AS n FROM user.amfi_nav')).toBe(1);
    expect(await count(core, 'SELECT count(*) AS n FROM user.prices')).toBe(10);

    await expect(core.handle('store:delete', { service: '../state' })).rejects.toThrow(/service must be one of/);
    await core.handle('store:delete', { service: 'flags' });
    expect(((await core.handle('sync:status', undefined)) as StoreState).datasets.flags).toBeUndefined();
    await expect(core.handle('engine:all', { sql: 'SELECT count(*) FROM flags.credit_ratings' })).rejects.toThrow(/flags/);
    expect(await count(core, 'SELECT count(*) AS n FROM user.prices')).toBe(10);

    // Cancel once the first file starts: the sync stops, nothing half-built is current, the next one finishes.
    let cancelled: Promise<unknown> | null = null;
    const outcome = await core.handle('sync:run', { only: ['flags'] }, (e) => {
      if (e.type === 'file-start' && !cancelled) cancelled = core.handle('sync:cancel', undefined);
    });
    expect(outcome).toEqual({ outcome: 'cancelled' });
    expect(await cancelled).toEqual({ cancelling: true });
    expect(((await core.handle('sync:status', undefined)) as StoreState).datasets.flags).toBeUndefined();
    expect(await core.handle('sync:cancel', undefined)).toEqual({ cancelling: false });
    done(await core.handle('sync:run', { only: ['flags'] }));
    expect(await count(core, 'SELECT count(*) AS n FROM flags.credit_ratings WHERE symbol = ?', ['REDSTONE'])).toBeGreaterThan(0);

    // The server came back on the new store each time; MCP answers too.
    const { server } = (await core.handle('settings:get', undefined)) as DesktopInfo;
    expect(server.running).toBe(true);
    const client = new Client({ name: 'desktop-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.mcp_url!)));
    try {
      const r = await client.callTool({ name: 'flags_company', arguments: { identifier: 'REDSTONE', tables: ['credit_ratings'] } });
      expect(r.isError).toBeFalsy();
      expect((r.content as { text: string }[])[0].text).toContain('REDSTONE');
    } finally {
      await client.close();
    }
  });

  it('keeps running when the chosen port is taken, and says why', { timeout: 60_000 }, async () => {
    const blocker = await import('node:net').then(({ createServer }) => {
      const s = createServer();
      return new Promise<import('node:net').Server>((resolve) => s.listen(0, '127.0.0.1', () => resolve(s)));
    });
    const taken = (blocker.address() as { port: number }).port;
    try {
      const info = (await core.handle('settings:set', { source: publisher.url, server: { enabled: true, port: taken } })) as DesktopInfo;
      expect(info.server).toMatchObject({ running: false, url: null });
      expect(info.server.error).toMatch(new RegExp(`127.0.0.1:${taken}.*EADDRINUSE`));
      expect(await count(core, 'SELECT count(*) AS n FROM flags.credit_ratings')).toBeGreaterThan(0);
    } finally {
      blocker.close();
    }
    const off = (await core.handle('settings:set', { source: publisher.url, server: { enabled: false, port: 8765 } })) as DesktopInfo;
    expect(off.server).toEqual({ running: false, url: null, mcp_url: null, error: null });
    await expect(fetch(`http://127.0.0.1:${port}/flags/v1/`)).rejects.toThrow();
  });

  it('answers only the app’s own page (the check main applies to every channel)', async () => {
    const answer = ipcAnswerer(core, 'app://almanac/index.html');
    const sent: unknown[] = [];
    await expect(answer('https://evil.example/', 'sync:status', undefined, (...a) => sent.push(a))).rejects.toThrow(/outside the app/);
    await expect(answer('app://other/index.html', 'sync:status', undefined, (...a) => sent.push(a))).rejects.toThrow(/outside the app/);
    expect(await answer('app://almanac/index.html#/data', 'sync:status', undefined, (...a) => sent.push(a))).toMatchObject({ version: 1 });
  });

  it('refuses a hand-edited settings file it cannot read, naming the field', async () => {
    const dir = path.join(root, 'bad-userData');
    await rm(dir, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(dir, { recursive: true }));
    await writeFile(path.join(dir, 'settings.json'), '{"server":{"enabled":"yes"}}');
    await expect(startDesktopCore({ userDataDir: dir })).rejects.toThrow(/server.enabled/);
  });
});
