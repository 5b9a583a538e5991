import { manifestPath } from '../core/contract/files.js';
import { MAX_MANIFEST_BYTES, readCapped } from '../core/sync/fetch-manifest.js';
import type { Service } from '../core/sync/datasets.js';
import type { ManifestReply } from '../core/sync/manifest.js';

const TIMEOUT_MS = 20_000;

/**
 * The Data view's "is my copy current?" check, asked by the main process: the window's CSP allows it
 * no connection to a publisher. The text goes back unparsed; the window reads it with the sync's own
 * untrusting parser, as it does in the browser.
 */
export async function fetchManifestText(service: Service, base: string, etag: string | null): Promise<ManifestReply> {
  const res = await fetch(`${base}${manifestPath(service)}`, {
    headers: etag ? { 'If-None-Match': etag } : {},
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (res.status !== 200) {
    await res.body?.cancel();
    return { status: res.status, text: null };
  }
  return { status: 200, text: await readCapped(res, MAX_MANIFEST_BYTES) };
}
