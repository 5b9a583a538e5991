import { createStore, getMany, promisifyRequest, type UseStore } from 'idb-keyval';

/**
 * The views' answers kept in IndexedDB for the data generation they were computed from, so that a
 * start draws its first chart before DuckDB-WASM is up (docs/performance.md, "Start to first chart").
 *
 * The local data changes only when the sync metadata changes (a sync's switch, a delete): the store's
 * answers are exact for as long as that record stands. So the cache is named by the record itself,
 * as JSON (what Store.refresh attached the files from): an answer is written only under the record
 * its engine had attached before and after computing it, and read only when the record in IndexedDB
 * is that same one. A sync therefore invalidates every answer at once, and an answer of an older
 * generation is never served; nor is one of another build of the app. It holds answers of synced
 * data only: the user's own tables (schema `user`) change without a sync.
 *
 * One generation is kept: the first write under another record clears the rest. Within it, at most
 * MAX_ENTRIES answers (the least recently written go first), each at most MAX_CHARS of JSON.
 */
const MAX_ENTRIES = 32;
const MAX_CHARS = 8 << 20;
/** The record holding the generation's metadata; answers' keys are never empty. */
const INDEX = '';

interface Index {
  /** The build, then the sync metadata as JSON: the generation every answer here belongs to. */
  state: string;
  /** Answers' keys, least recently written first. */
  keys: string[];
}

export class AnswerCache {
  private db: UseStore | undefined;

  /** `build`: the app's code (another build may shape its answers differently). */
  constructor(
    private readonly build: string,
    private readonly dbName = 'almanac-answers',
  ) {}

  private store(): UseStore {
    this.db ??= createStore(this.dbName, 'answers');
    return this.db;
  }

  /**
   * The answer kept for `key` under the generation `state` names, or undefined. `state` may still be
   * on its way: the answer is read beside it, not after it (a start reads several answers in a row).
   */
  async read<T>(key: string, state: string | Promise<string>): Promise<T | undefined> {
    const [[index, json], current] = await Promise.all([getMany<Index | string>([INDEX, key], this.store()), state]);
    if ((index as Index | undefined)?.state !== this.generation(current) || typeof json !== 'string') return undefined;
    return JSON.parse(json) as T;
  }

  /** Whether answers are kept under the generation `state` names. */
  async holds(state: string): Promise<boolean> {
    const [index] = await getMany<Index>([INDEX], this.store());
    return index?.state === this.generation(state) && index.keys.length > 0;
  }

  /**
   * Keeps `value` (plain JSON data, as the services answer) for `key` under `state`. An answer too large
   * or not JSON is not kept.
   */
  async write(key: string, state: string, value: unknown): Promise<void> {
    let json: string;
    try {
      json = JSON.stringify(value);
    } catch {
      return;
    }
    if (!key || json === undefined || json.length > MAX_CHARS) return;
    const generation = this.generation(state);
    await this.store()('readwrite', (s) => {
      const got = s.get(INDEX) as IDBRequest<Index | undefined>;
      got.onsuccess = () => {
        let index = got.result;
        if (index?.state !== generation) {
          s.clear();
          index = { state: generation, keys: [] };
        }
        index.keys = [...index.keys.filter((k) => k !== key), key];
        while (index.keys.length > MAX_ENTRIES) s.delete(index.keys.shift()!);
        s.put(json, key);
        s.put(index, INDEX);
      };
      return promisifyRequest(s.transaction);
    });
  }

  private generation(state: string): string {
    return `${this.build}\n${state}`;
  }
}
