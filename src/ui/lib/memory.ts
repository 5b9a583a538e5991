/**
 * What the app knows of the device's memory, for the choice of syncing the MF NAV history on it:
 * the full history peaks at about 1 GB in the tab while it is loaded (docs/performance.md), which a
 * phone's browser may answer by closing the tab.
 */
export interface DeviceInfo {
  /** `navigator.deviceMemory`, GB (Chromium: 0.25 to 8, rounded down); undefined where not reported (Safari, Firefox). */
  deviceMemory?: number;
  /** A small touch screen: a phone or a small tablet. */
  small: boolean;
}

/** At or below this (GB), a device is warned before the history's first sync and starts light. */
export const LOW_MEMORY_GB = 4;
/** Where the memory is not reported, a history file at least this large is warned about. */
export const LARGE_HISTORY_BYTES = 64 * 1024 * 1024;
/** The tab's peak while the full history (38M rows) is loaded, rounded (docs/performance.md). */
export const HISTORY_PEAK = 'about 1 GB';

export function deviceInfo(): DeviceInfo {
  const memory = (navigator as Navigator & { deviceMemory?: number }).deviceMemory;
  return { deviceMemory: typeof memory === 'number' ? memory : undefined, small: matchMedia('(max-width: 1100px) and (pointer: coarse)').matches };
}

/** The light choice (MF snapshot, indicators and flags; no NAV history) is the default on small or low-memory devices. */
export function lightByDefault(d: DeviceInfo): boolean {
  return d.small || (d.deviceMemory !== undefined && d.deviceMemory <= LOW_MEMORY_GB);
}

/**
 * What to say before the NAV history's first sync on this device, or null: by the reported memory
 * where the browser reports it, else by the history file's size.
 */
export function historyWarning(d: DeviceInfo, historyBytes: number, size: (n: number) => string): string | null {
  const what = `The NAV history (${size(historyBytes)} to download) takes ${HISTORY_PEAK} of memory in this tab while it is loaded at full size`;
  if (d.deviceMemory !== undefined) {
    if (d.deviceMemory > LOW_MEMORY_GB) return null;
    return `${what}, and this device reports ${d.deviceMemory} GB of memory: the browser may close the tab before the sync ends. Sync the history anyway?`;
  }
  if (historyBytes < LARGE_HISTORY_BYTES) return null;
  return `${what}. This browser does not say how much memory the device has; on a phone the browser may close the tab before the sync ends. Sync the history anyway?`;
}
