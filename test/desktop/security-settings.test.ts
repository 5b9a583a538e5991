import { describe, it, expect } from 'vitest';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isAllowedExternalUrl, isAllowedPermission, isInternalUrl, openIfAllowed, WEB_PREFERENCES, CONTENT_SECURITY_POLICY } from '../../src/desktop/security.js';
import { CHANNELS } from '../../src/desktop/channels.js';
import { APP_URL, appResponse } from '../../src/desktop/app-protocol.js';
import { DEFAULT_SETTINGS, desktopHistory, loadSettings, saveSettings, validateSettings } from '../../src/desktop/settings.js';

describe('desktop security policy', () => {
  it('isolates and sandboxes the renderer', () => {
    expect(WEB_PREFERENCES).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false, disableBlinkFeatures: 'Auxclick' });
    expect(CONTENT_SECURITY_POLICY).toContain("connect-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toContain("'unsafe-eval'");
  });

  it('keeps navigation and IPC inside the app', () => {
    expect(APP_URL).toBe('app://almanac/index.html');
    expect(isInternalUrl('app://almanac/index.html#/funds', APP_URL)).toBe(true);
    expect(isInternalUrl('app://almanac/assets/x.js', APP_URL)).toBe(true);
    expect(isInternalUrl('app://other/index.html', APP_URL)).toBe(false);
    expect(isInternalUrl('file:///etc/passwd', APP_URL)).toBe(false);
    expect(isInternalUrl('https://evil.example/', APP_URL)).toBe(false);
    expect(isInternalUrl('not a url', APP_URL)).toBe(false);
    // The Chromium test's stand-in origin: same host and port only.
    expect(isInternalUrl('http://127.0.0.1:4000/#/sql', 'http://127.0.0.1:4000/index.html')).toBe(true);
    expect(isInternalUrl('http://127.0.0.1:4001/', 'http://127.0.0.1:4000/index.html')).toBe(false);
  });

  it('grants a window the clipboard write and nothing else', () => {
    expect(isAllowedPermission('clipboard-sanitized-write')).toBe(true);
    for (const p of ['clipboard-read', 'media', 'notifications', 'geolocation', 'openExternal', 'fullscreen']) expect(isAllowedPermission(p)).toBe(false);
    // Notifications (a sync changed watched items): the app's own origin only, never a page it does not serve.
    expect(isAllowedPermission('notifications', 'app://almanac/index.html#/news', APP_URL)).toBe(true);
    expect(isAllowedPermission('notifications', 'app://almanac', APP_URL)).toBe(true);
    for (const other of ['https://almanac', 'https://evil.example/', 'app://evil/', 'file:///etc/passwd', '', 'not a url']) {
      expect(isAllowedPermission('notifications', other, APP_URL)).toBe(false);
    }
    for (const p of ['media', 'geolocation', 'clipboard-read']) expect(isAllowedPermission(p, 'app://almanac/index.html', APP_URL)).toBe(false);
  });

  it('exposes exactly the core’s channels in the preload', async () => {
    const preload = await readFile('electron/preload.js', 'utf8');
    const list = /const CHANNELS = \[([^\]]*)\]/.exec(preload)![1];
    expect([...list.matchAll(/'([^']+)'/g)].map((m) => m[1])).toEqual([...CHANNELS]);
  });

  it('serves the built app on app:// with the CSP, and nothing outside it', async () => {
    const dist = await mkdtemp(path.join(tmpdir(), 'almanac-dist-'));
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Almanac</title>');
    await writeFile(path.join(path.dirname(dist), 'secret.txt'), 'not for the window');
    const index = await appResponse({ dist, url: 'app://almanac/' });
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(await index.text()).toContain('Almanac');
    expect((await appResponse({ dist, url: 'app://almanac/index.html?x=1#/data' })).status).toBe(200);
    for (const url of ['app://almanac/%2e%2e/secret.txt', 'app://almanac/..%2fsecret.txt', 'app://almanac/../secret.txt', 'app://other/index.html', 'file:///etc/passwd', 'app://almanac/missing.js']) {
      expect((await appResponse({ dist, url })).status, url).toBe(404);
    }
    expect((await appResponse({ dist, url: 'app://almanac/%E0%A4%A' })).status).toBe(400);
  });

  it('opens only allowlisted https links externally', () => {
    expect(isAllowedExternalUrl('https://github.com/x')).toBe(true);
    expect(isAllowedExternalUrl('http://github.com/x')).toBe(false);
    expect(isAllowedExternalUrl('https://github.com.evil.example/')).toBe(false);
    expect(isAllowedExternalUrl('https://user:pw@github.com/')).toBe(false);
    expect(isAllowedExternalUrl('file:///etc/passwd')).toBe(false);
    expect(isAllowedExternalUrl('javascript:alert(1)')).toBe(false);
  });

  it('hands only allowlisted links to the system browser', async () => {
    const opened: string[] = [];
    const open = async (url: string) => void opened.push(url);
    expect(await openIfAllowed('https://github.com/x', open)).toBe(true);
    expect(await openIfAllowed('http://github.com/x', open)).toBe(false);
    expect(await openIfAllowed('file:///etc/passwd', open)).toBe(false);
    expect(opened).toEqual(['https://github.com/x']);
  });
});

describe('desktop settings', () => {
  it('defaults to the server off, and round-trips through an atomic write', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'almanac-settings-'));
    expect(await loadSettings(dir)).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS.history.verifyEveryDays).toBe(7);
    const mine = { server: { enabled: true, port: 9000 }, source: 'https://data.example.org', history: { verifyEveryDays: 3 } };
    await saveSettings(dir, mine);
    expect(await loadSettings(dir)).toEqual(mine);
    expect(JSON.parse(await readFile(path.join(dir, 'settings.json'), 'utf8')).server.port).toBe(9000);
  });

  it('refuses bad input naming the field', async () => {
    expect(() => validateSettings({ server: { port: 80 } })).toThrow(/server.port/);
    expect(() => validateSettings({ server: { enabled: 'yes' } })).toThrow(/server.enabled/);
    expect(() => validateSettings({ source: 'http://example.org' })).toThrow(/https/);
    expect(() => validateSettings({ source: 'nonsense' })).toThrow(/not a URL/);
    expect(validateSettings({ source: 'http://127.0.0.1:8080' }).source).toBe('http://127.0.0.1:8080');
    const dir = await mkdtemp(path.join(tmpdir(), 'almanac-settings-'));
    await writeFile(path.join(dir, 'settings.json'), '{"server":{"port":"x"}}');
    await expect(loadSettings(dir)).rejects.toThrow(/server.port/);
    for (const days of [0, 366, 2.5, '7']) {
      expect(() => validateSettings({ history: { verifyEveryDays: days } })).toThrow(/history.verifyEveryDays/);
    }
    expect(() => validateSettings({ history: 7 })).toThrow(/history must be an object/);
  });

  it('reads a settings file from before the verification interval with the default interval', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'almanac-settings-'));
    await writeFile(path.join(dir, 'settings.json'), '{"server":{"enabled":true,"port":9001},"source":null}');
    expect((await loadSettings(dir)).history).toEqual({ verifyEveryDays: 7 });
  });

  it('runs a desktop sync on the settings\' interval unless the window asks for a verification or puts it off', () => {
    const s = validateSettings({ history: { verifyEveryDays: 3 } });
    const days3 = 3 * 86_400_000;
    // The window's own stored interval (the browser's setting) does not override the desktop's.
    expect(desktopHistory({ verifyEveryMs: 30 * 86_400_000 }, s)).toEqual({ verifyEveryMs: days3 });
    expect(desktopHistory({}, s)).toEqual({ verifyEveryMs: days3 });
    expect(desktopHistory({ full: true }, s)).toEqual({ full: true });
    expect(desktopHistory({ verifyEveryMs: null }, s)).toEqual({ verifyEveryMs: null });
    expect(desktopHistory({}, validateSettings({}))).toEqual({ verifyEveryMs: 7 * 86_400_000 });
  });
});
