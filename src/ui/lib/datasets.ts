import { parseManifest, type ManifestBody } from '../../core/sync/manifest.js';
import { SERVICE_DEFS, planFiles, withoutTables, type FormatChoice, type PlannedFile, type Service } from '../../core/sync/datasets.js';
import { splitFileName } from '../../core/contract/files.js';
import type { DatasetState } from '../../core/sync/metadata.js';
import { backend } from './backend.js';

export type LocalState = 'absent' | 'current' | 'update' | 'unknown';

export interface SourceCheck {
  service: Service;
  base: string;
  manifest: ManifestBody | null;
  /** What a sync would fetch, with the user's format choice (less what the light choice leaves out). */
  plan: PlannedFile[];
  /** Files the light choice leaves out of `plan` (the MF history), so their size can still be told. */
  left: PlannedFile[];
  /** Everything the manifest offers: name, format, size, rows. */
  offered: { name: string; format: string; size: number; rows: number | null }[];
  local: LocalState;
  error: string | null;
}

/**
 * Asks a source for its manifest, conditionally on what is stored: a 304 means the local copy is
 * current. Reads the manifest with the sync engine's own untrusting parser.
 */
export async function checkSource(
  service: Service,
  base: string,
  stored: DatasetState | undefined,
  choice: FormatChoice,
  skip: readonly string[] = [],
): Promise<SourceCheck> {
  const out: SourceCheck = { service, base, manifest: null, plan: [], left: [], offered: [], local: stored ? 'unknown' : 'absent', error: null };
  const sameSource = stored && stored.source_url === base.replace(/\/+$/, '');
  try {
    const res = await backend().fetchManifest(service, base, sameSource ? stored.manifest_etag : null);
    if (res.status === 304) {
      out.local = 'current';
      // The plan is shown from what is stored, since the manifest body was not sent again. Rows are the
      // tables' as held: a history refreshed by day holds more than its file's last whole download.
      const rowsHeld = (tables: string[] | null | undefined, rows: number | null) =>
        tables?.length && tables.every((t) => stored!.tables[t]) ? tables.reduce((n, t) => n + stored!.tables[t].rows, 0) : rows;
      out.plan = Object.values(stored!.sources).map((s) => ({ name: s.file, suffix: s.suffix, tables: s.tables, size: s.bytes, rows: rowsHeld(s.tables, s.rows) }));
      out.offered = out.plan.map((p) => ({ name: p.name, format: p.suffix, size: p.size, rows: p.rows }));
      return out;
    }
    if (res.status !== 200 || res.text === null) throw new Error(`manifest: HTTP ${res.status}`);
    out.manifest = parseManifest(res.text);
    const all = planFiles(SERVICE_DEFS[service], out.manifest.files, choice);
    out.plan = withoutTables(all, skip);
    out.left = all.filter((f) => !out.plan.includes(f));
    out.offered = Object.entries(out.manifest.files)
      .map(([name, f]) => ({ name, format: splitFileName(name).suffix, size: f.size, rows: f.rows }))
      .sort((a, b) => a.name.localeCompare(b.name));
    // A sync that left tables out keeps no validator (the manifest is read again): the copy is still
    // current when it is of this publication and holds every file the plan wants besides those tables.
    const held = (f: PlannedFile) => stored?.sources[f.name]?.bytes === f.size;
    const whole = stored?.generated_at != null && stored.generated_at === out.manifest.generated_at && out.plan.every(held);
    if (stored) out.local = skip.length && whole ? 'current' : 'update';
  } catch (e) {
    out.error = e instanceof Error ? e.message : String(e);
  }
  return out;
}
