import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sourceUrlProblem } from './ipc.js';
import { VERIFY_EVERY_MS, type HistoryOptions } from '../core/sync/refresh/history.js';

/** What the desktop app remembers between runs (userData/settings.json). */
export interface DesktopSettings {
  /** The local REST/MCP server is off until the user turns it on. */
  server: { enabled: boolean; port: number };
  /** The publishers' base URL the Data view starts from (each dataset's can differ); null: none yet. */
  source: string | null;
  /** The MF history is downloaded whole to verify it every this many days (docs/sync.md). */
  history: { verifyEveryDays: number };
}

const DAY_MS = 86_400_000;
/** The Data view's own limits for the same interval (SourceCard.svelte). */
const VERIFY_DAYS = { min: 1, max: 365 } as const;

export const DEFAULT_SETTINGS: DesktopSettings = {
  server: { enabled: false, port: 8765 },
  source: null,
  history: { verifyEveryDays: VERIFY_EVERY_MS / DAY_MS },
};

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
  const history = (o.history ?? {}) as Record<string, unknown>;
  if (typeof history !== 'object' || history === null) throw new SettingsError('history must be an object');
  const days = history.verifyEveryDays ?? DEFAULT_SETTINGS.history.verifyEveryDays;
  if (!Number.isInteger(days) || (days as number) < VERIFY_DAYS.min || (days as number) > VERIFY_DAYS.max) {
    throw new SettingsError(`history.verifyEveryDays must be a whole number of days from ${VERIFY_DAYS.min} to ${VERIFY_DAYS.max}`);
  }
  return { server: { enabled, port: port as number }, source: source as string | null, history: { verifyEveryDays: days as number } };
}

/**
 * The history options a desktop sync runs with: the window asks for a full verification ("Verify now")
 * or puts the automatic one off (a metered connection); otherwise the settings' interval holds, so the
 * desktop has one interval, kept with its other settings, whatever the window last stored.
 */
export function desktopHistory(asked: HistoryOptions, settings: DesktopSettings): HistoryOptions {
  if (asked.full) return { full: true };
  if (asked.verifyEveryMs === null) return { verifyEveryMs: null };
  return { verifyEveryMs: settings.history.verifyEveryDays * DAY_MS };
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
