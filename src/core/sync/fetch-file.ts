import type { PlannedFile } from './datasets.js';
import { download } from './download.js';
import { downloadPath } from '../contract/files.js';
import { files } from './metadata.js';
import { record, rethrowStop, sourceOf, type DatasetRun } from './run.js';
import type { FileResult } from './progress.js';

/**
 * Brings one planned file into the store (conditional on the ETag of the copy held, resumable) and
 * enters it in `d.sources`. Returns whether the dataset changed; a failure is recorded, not thrown.
 */
export async function fetchFile(d: DatasetRun, file: PlannedFile, note: Pick<FileResult, 'refresh' | 'reason' | 'detail'> = {}): Promise<boolean> {
  const { opts, service, prev } = d;
  const { storage, hook } = opts;
  const old = prev?.sources[file.name];
  const haveOld = old && (await storage.size(old.store)) === old.bytes;
  const part = files.part(service, file.name);
  const path = downloadPath(service, file.name);
  try {
    if (!path) throw new Error(`no download route for ${file.name}`);
    const got = await download({
      x: d.exchange(file.name), file: file.name, url: `${d.base}${path}`, storage, part,
      expectedSize: file.size, etag: haveOld ? old.etag : null, hook,
    });
    if (got.status === 'not_modified') {
      d.sources[file.name] = old!;
      record(opts, d.summary, { service, name: file.name, status: 'not_modified', body_bytes: 0, ...note });
      return false;
    }
    const store = files.source(service, d.generation, file.name);
    await storage.rename(part, store);
    await storage.remove(`${part}.json`);
    d.sources[file.name] = sourceOf(file, store, got.etag, got.size, d.now);
    record(opts, d.summary, { service, name: file.name, status: got.status, body_bytes: got.body_bytes, ...note });
    return true;
  } catch (e) {
    rethrowStop(e, opts);
    d.failed.push(`${file.name}: ${(e as Error).message}`);
    record(opts, d.summary, { service, name: file.name, status: 'failed', body_bytes: 0, error: (e as Error).message, ...note });
    return false;
  }
}
