import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sourceUrlProblem } from './ipc.js';

/** What the desktop app remembers between runs (userData/settings.json). */
export interface DesktopSettings {
  /** The local REST/MCP server is off until the user turns it on. */
  server: { enabled: boolean; port: number };
  /** The publishers' base URL the Data view starts from (each dataset's can differ); null: none yet. */
  source: string | null;
}

export const DEFAULT_SETTINGS: DesktopSettings = { server: { enabled: false, port: 8765 }, source: null };

export class SettingsError extends Error {}

/** Validates untrusted input (IPC or a hand-edited file) into settings, or throws naming the field. */
export function validateSettings(input: unknown): DesktopSettings {
  if (typeof input !== 'object' || input === null) throw new SettingsError('settings must be an object');
  const o = input as Record<string, unknown>;
  const server = (o.server ?? {}) as Record<string, unknown>;
  if (typeof server !== 'object' || server === null) throw new SettingsError('server must be an object');
  const enabled = server.enabled ?? DEFAULT_SETTINGS.server.enabled;
  const port = server.port ?? DEFAULT_SETTINGS.server.port;
  if (typeof enabled !== 'boolean') throw new SettingsError('server.enabled must be true or false');
  if (!Number.isInteger(port) || (port as number) < 1024 || (port as number) > 65535) {
    throw new SettingsError('server.port must be an integer from 1024 to 65535');
  }
  const source = o.source ?? null;
  const problem = source === null ? null : sourceUrlProblem(source);
  if (problem) throw new SettingsError(`source ${problem}`);
  return { server: { enabled, port: port as number }, source: source as string | null };
}

export async function loadSettings(dir: string): Promise<DesktopSettings> {
  try {
    return validateSettings(JSON.parse(await readFile(path.join(dir, 'settings.json'), 'utf8')));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return structuredClone(DEFAULT_SETTINGS);
    throw e;
  }
}

/** Written to a temporary file and renamed, so a crash never leaves half a settings file. */
export async function saveSettings(dir: string, settings: DesktopSettings): Promise<void> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'settings.json');
  await writeFile(`${file}.tmp`, JSON.stringify(validateSettings(settings), null, 2));
  await rename(`${file}.tmp`, file);
}
