import { parseManifest, type ManifestBody } from './manifest.js';
import { Refused, send, type Exchange } from './request.js';

export const MAX_MANIFEST_BYTES = 4 << 20;

export type ManifestResult =
  | { status: 'not_modified' }
  | { status: 'fetched'; etag: string | null; body: ManifestBody };

/** GET the manifest with If-None-Match; the body is read with a size cap and checked as untrusted. */
export async function fetchManifest(x: Exchange, url: string, etag: string | null): Promise<ManifestResult> {
  const res = await send(x, url, etag ? { 'If-None-Match': etag } : {}, 'whole');
  if (res.status === 304) {
    await res.body?.cancel();
    x.onEvent?.({ type: 'manifest', service: x.service, status: 'not_modified' });
    return { status: 'not_modified' };
  }
  if (res.status !== 200) {
    await res.body?.cancel();
    throw new Refused(`manifest: HTTP ${res.status}`);
  }
  const body = parseManifest(await readCapped(res, MAX_MANIFEST_BYTES));
  x.onEvent?.({ type: 'manifest', service: x.service, status: 'fetched' });
  return { status: 'fetched', etag: res.headers.get('etag'), body };
}

/** The body as text, refused once it grows past `max` bytes (read chunk by chunk, never whole first). */
export async function readCapped(res: Response, max: number, what = 'manifest'): Promise<string> {
  const reader = res.body!.getReader();
  const parts: Uint8Array[] = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.length;
    if (n > max) {
      await reader.cancel();
      throw new Refused(`${what} refused: longer than ${max} bytes`);
    }
    parts.push(value);
  }
  const all = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    all.set(p, o);
    o += p.length;
  }
  return new TextDecoder().decode(all);
}
