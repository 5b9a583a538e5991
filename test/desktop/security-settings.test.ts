import { describe, it, expect } from 'vitest';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isAllowedExternalUrl, isInternalUrl, WEB_PREFERENCES, CONTENT_SECURITY_POLICY } from '../../src/desktop/security.js';
import { DEFAULT_SETTINGS, loadSettings, saveSettings, validateSettings } from '../../src/desktop/settings.js';

describe('desktop security policy', () => {
  it('isolates and sandboxes the renderer', () => {
    expect(WEB_PREFERENCES).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webviewTag: false });
    expect(CONTENT_SECURITY_POLICY).toContain("connect-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toContain("'unsafe-eval'");
  });

  it('keeps navigation inside the app', () => {
    const app = 'file:///opt/almanac/resources/app/dist/index.html';
    expect(isInternalUrl('file:///opt/almanac/resources/app/dist/index.html#/funds', app)).toBe(true);
    expect(isInternalUrl('file:///etc/passwd', app)).toBe(false);
    expect(isInternalUrl('https://evil.example/', app)).toBe(false);
    expect(isInternalUrl('not a url', app)).toBe(false);
  });

  it('opens only allowlisted https links externally', () => {
    expect(isAllowedExternalUrl('https://github.com/x')).toBe(true);
    expect(isAllowedExternalUrl('http://github.com/x')).toBe(false);
    expect(isAllowedExternalUrl('https://github.com.evil.example/')).toBe(false);
    expect(isAllowedExternalUrl('https://user:pw@github.com/')).toBe(false);
    expect(isAllowedExternalUrl('file:///etc/passwd')).toBe(false);
    expect(isAllowedExternalUrl('javascript:alert(1)')).toBe(false);
  });
});

describe('desktop settings', () => {
  it('defaults to the server off, and round-trips through an atomic write', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'almanac-settings-'));
    expect(await loadSettings(dir)).toEqual(DEFAULT_SETTINGS);
    await saveSettings(dir, { server: { enabled: true, port: 9000 }, source: 'https://data.example.org' });
    expect(await loadSettings(dir)).toEqual({ server: { enabled: true, port: 9000 }, source: 'https://data.example.org' });
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
  });
});
