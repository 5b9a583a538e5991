import { describe, it, expect } from 'vitest';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';

/** electron/main.js loads the built bundle, not the sources: build it and use it the same way. */
describe('desktop bundle (dist-electron/desktop.mjs)', () => {
  it('builds, loads in plain Node and starts the core with the exports main.js uses', { timeout: 240_000 }, async () => {
    const outDir = await mkdtemp(path.join(tmpdir(), 'almanac-desktop-build-'));
    await build({ configFile: 'vite.desktop.config.ts', logLevel: 'silent', build: { outDir } });
    // Resolve node_modules from the project, as the packaged app does beside its own node_modules.
    const bundle = path.join(process.cwd(), 'dist-electron-test.mjs');
    const { copyFile, rm } = await import('node:fs/promises');
    await copyFile(path.join(outDir, 'desktop.mjs'), bundle);
    try {
      const m = await import(pathToFileURL(bundle).href);
      for (const name of ['startDesktopCore', 'CHANNELS', 'ipcAnswerer', 'APP_SCHEME', 'APP_URL', 'appResponse', 'isInternalUrl', 'isAllowedPermission', 'openIfAllowed']) {
        expect(m[name], name).toBeDefined();
      }
      const core = await m.startDesktopCore({ userDataDir: await mkdtemp(path.join(tmpdir(), 'almanac-userdata-')) });
      expect(await core.handle('engine:all', { sql: 'SELECT 40 + ? AS n', params: [2] })).toEqual([{ n: 42 }]);
      expect(await core.handle('sync:status')).toEqual({ version: 1, datasets: {}, choices: {} });
      // main.js serves the app through the bundle's protocol handler.
      const index = await m.appResponse({ dist: path.join(process.cwd(), 'public'), url: 'app://almanac/icon.svg' });
      expect(index.headers.get('content-security-policy')).toContain("default-src 'self'");
      await core.close();
    } finally {
      await rm(bundle, { force: true });
    }
  });
});
