import type { ManifestEntries } from './datasets.js';
import { checkFileName } from './names.js';

/** A manifest larger than this is refused unread (the real ones are a few kilobytes). */
const MAX_MANIFEST_BYTES = 4 << 20;
const MAX_FILES = 2000;
/** No published file is near this; a bigger claim is a lie or a mistake. */
const MAX_FILE_BYTES = 64 * 2 ** 30;

export interface ManifestBody {
  files: ManifestEntries;
  generated_at: string | null;
  schema_version: number | null;
  schema_changed: string | null;
  /** The publisher's notes on its schema versions, kept to show the user (bounded; text only). */
  schema_notes: string[];
}

const MAX_NOTES = 50;
const MAX_NOTE_CHARS = 2000;

/** A conditional GET of a manifest, before parsing: the text on 200, null otherwise (304: unchanged). */
export interface ManifestReply {
  status: number;
  text: string | null;
}

/**
 * Reads a manifest as untrusted JSON: every name checked (an unsafe one refuses the whole manifest,
 * since a publisher that lists one is not to be trusted with the rest), sizes and row counts checked.
 */
export function parseManifest(text: string): ManifestBody {
  if (text.length > MAX_MANIFEST_BYTES) throw new Error(`manifest refused: ${text.length} bytes`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error('manifest refused: not JSON');
  }
  const files = (raw as { files?: unknown })?.files;
  if (!files || typeof files !== 'object' || Array.isArray(files)) throw new Error('manifest refused: no `files` object');
  const entries = Object.entries(files as Record<string, unknown>);
  if (entries.length > MAX_FILES) throw new Error(`manifest refused: ${entries.length} files`);
  const out: ManifestEntries = Object.create(null);
  for (const [name, v] of entries) {
    checkFileName(name);
    const e = v as { size_bytes?: unknown; row_count?: unknown };
    const size = e?.size_bytes;
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0 || size > MAX_FILE_BYTES) {
      throw new Error(`manifest refused: ${name} has no valid size_bytes`);
    }
    const rows = typeof e.row_count === 'number' && Number.isSafeInteger(e.row_count) && e.row_count >= 0 ? e.row_count : null;
    out[name] = { size, rows };
  }
  const r = raw as { generated_at?: unknown; schema_version?: unknown; schema_changed?: unknown; schema_notes?: unknown };
  return {
    files: out,
    generated_at: typeof r.generated_at === 'string' ? r.generated_at.slice(0, 40) : null,
    schema_version: typeof r.schema_version === 'number' && Number.isSafeInteger(r.schema_version) ? r.schema_version : null,
    schema_changed: typeof r.schema_changed === 'string' ? r.schema_changed.slice(0, 40) : null,
    schema_notes: Array.isArray(r.schema_notes)
      ? r.schema_notes.filter((n): n is string => typeof n === 'string').slice(0, MAX_NOTES).map((n) => n.slice(0, MAX_NOTE_CHARS))
      : [],
  };
}
