import { describe, it, expect, afterAll } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { startPublisher, type Publisher } from '../../src/publisher/server.js';
import { publishTiny } from '../helpers/tiny-data.js';
import { startDesktopCore, type DesktopCore } from '../../src/desktop/core.js';
import type { SyncEvent } from '../../src/core/sync/progress.js';

/** Starts the desktop core exactly as electron/main.cjs does and drives it through the IPC handlers. */
describe('desktop core through its IPC handlers', () => {
  let root = '';
  let publisher: Publisher;
  let core: DesktopCore;

  afterAll(async () => {
    await core?.close();
    await publisher?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('syncs, answers the window and the local server from one copy of the data', { timeout: 300_000 }, async () => {
    root = await mkdtemp(path.join(tmpdir(), 'almanac-desktop-'));
    await publishTiny(path.join(root, 'pub'), ['flags'], { seed: 5 });
    publisher = await startPublisher({ dataDir: path.join(root, 'pub'), limits: 'off' });
    core = await startDesktopCore({ userDataDir: path.join(root, 'userData') });

    expect(await core.handle('server:status', undefined)).toEqual({ running: false, url: null, mcp_url: null });
    await expect(core.handle('sync:run', {})).rejects.toThrow(/no source set/);

    const set = (await core.handle('settings:set', { source: publisher.url, server: { enabled: true, port: 18000 + Math.floor(Math.random() * 2000) } })) as {
      server: { running: boolean; url: string };
    };
    expect(set.server.running).toBe(true);

    const events: SyncEvent[] = [];
    const summary = (await core.handle('sync:run', { only: ['flags'] }, (e) => events.push(e))) as { errors: string[] };
    expect(summary.errors).toEqual([]);
    expect(events.some((e) => e.type === 'switched')).toBe(true);

    const [{ n }] = (await core.handle('engine:all', { sql: 'SELECT count(*) AS n FROM flags.credit_ratings WHERE symbol = ?', params: ['REDSTONE'] })) as { n: number }[];
    expect(n).toBeGreaterThan(0);
    const ipc = (await core.handle('engine:arrow', { sql: 'SELECT DISTINCT symbol FROM flags.credit_ratings ORDER BY 1' })) as Uint8Array;
    const symbols = tableFromIPC(ipc).getChild('symbol')!.toArray();
    expect(symbols).toContain('REDSTONE');

    // The REST server reads the same store the window does.
    const res = await fetch(`${set.server.url}/flags/v1/company/REDSTONE?tables=credit_ratings`);
    expect(res.status).toBe(200);
    expect(JSON.stringify(await res.json())).toContain('REDSTONE');

    // A second sync with the store open: nothing changed, and both doors still answer afterwards.
    const again = (await core.handle('sync:run', { only: ['flags'] })) as { files: { status: string }[] };
    expect(again.files.every((f) => f.status === 'not_modified')).toBe(true);
    const [{ n: n2 }] = (await core.handle('engine:all', { sql: 'SELECT count(*) AS n FROM flags.credit_ratings WHERE symbol = ?', params: ['REDSTONE'] })) as { n: number }[];
    expect(n2).toBe(n);
    const status = (await core.handle('server:status', undefined)) as { url: string };
    expect((await fetch(`${status.url}/flags/v1/company/REDSTONE?tables=credit_ratings`)).status).toBe(200);

    await expect(core.handle('engine:all', { sql: 42 })).rejects.toThrow(/sql must be/);
    await expect(core.handle('sync:run', { only: ['../etc'] })).rejects.toThrow(/only must be/);
    await expect(core.handle('settings:set', { server: { enabled: true, port: 22 } })).rejects.toThrow(/server.port/);
    await expect(core.handle('nope' as never, {})).rejects.toThrow(/unknown channel/);

    await core.handle('settings:set', { source: publisher.url, server: { enabled: false, port: 8765 } });
    expect(await core.handle('server:status', undefined)).toMatchObject({ running: false });
    await expect(fetch(`${status.url}/flags/v1/`)).rejects.toThrow();
  });
});
