/**
 * Empties one OPFS file through a sync access handle, for a page: sync access handles exist only in
 * dedicated workers, and a file must be emptied this way before it is removed (OpfsStorage.remove).
 * Answers once, with the error's DOMException name when it failed.
 */
import { emptyFile } from './opfs.js';

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = async (ev: MessageEvent<string>) => {
  try {
    // Here a sync access handle exists, so emptyFile truncates through one.
    await emptyFile(await (await navigator.storage.getDirectory()).getFileHandle(ev.data));
    scope.postMessage({ ok: true });
  } catch (e) {
    scope.postMessage({ ok: false, name: (e as DOMException).name, message: (e as Error).message });
  }
};
