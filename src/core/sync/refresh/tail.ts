import { Refused, send, type Exchange } from '../request.js';
import { FOOTER_PROBE, footerLength } from './footer.js';

export type Tail =
  /** The ETag held still names the file: nothing changed. */
  | { status: 'unchanged'; body_bytes: 0 }
  /** The file's last bytes, holding its whole footer, and the representation they belong to. */
  | { status: 'changed'; etag: string; bytes: Uint8Array; body_bytes: number };

/**
 * Reads the end of a published parquet file by Range (`bytes=-N`), conditional on the ETag held: a
 * 304 says the file is unchanged, a 206 brings the footer's length and the new ETag; then the footer
 * itself, pinned to that ETag with If-Range (a file replaced in between answers 200 and is refused).
 */
export async function fetchTail(x: Exchange, url: string, etag: string | null, size: number): Promise<Tail> {
  let want = Math.min(FOOTER_PROBE, size);
  let pinned: string | null = null;
  let moved = 0;
  for (;;) {
    const headers: Record<string, string> = { Range: `bytes=-${want}` };
    if (pinned) headers['If-Range'] = pinned;
    else if (etag) headers['If-None-Match'] = etag;
    const res = await send(x, url, headers, 'range');
    if (res.status === 304 && !pinned) {
      await res.body?.cancel();
      return { status: 'unchanged', body_bytes: 0 };
    }
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(res.headers.get('content-range') ?? '');
    const got = res.headers.get('etag');
    if (res.status !== 206 || !range || !got || (pinned && got !== pinned)) {
      await res.body?.cancel();
      throw new Refused(`the history's footer could not be read by range (HTTP ${res.status})`);
    }
    if (Number(range[3]) !== size) {
      await res.body?.cancel();
      throw new Refused(`the server announces ${range[3]} bytes, the manifest ${size}`);
    }
    const bytes = new Uint8Array(await res.arrayBuffer());
    moved += bytes.length;
    if (bytes.length !== want) throw new Refused(`footer read: ${bytes.length} bytes for ${want} asked`);
    const need = footerLength(bytes) + 8;
    if (need <= bytes.length) return { status: 'changed', etag: got, bytes, body_bytes: moved };
    if (need > size || pinned) throw new Refused(`parquet footer of ${need} bytes does not fit the file`);
    want = need;
    pinned = got;
  }
}
