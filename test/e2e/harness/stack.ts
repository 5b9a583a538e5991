/**
 * What the browser-store test files stand on (worker.test.ts, worker-refresh.test.ts, the Chromium kill
 * campaign): tiny data published on 127.0.0.1 with no limits, the harness page (built once by
 * `node scripts/setup.mjs --test` into dist-harness/) served in front of it with every source behind
 * its /publisher proxy, and the Node front door synced from the same publisher as the reference.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { PROXY, serveApp, type AppServer } from '../../../src/cli/app-server.js';
import { startPublisher, type Publisher } from '../../../src/publisher/server.js';
import { sync } from '../../../src/core/sync/sync.js';
import { nodeHost } from '../../../src/core/database/node.js';
import type { StoreState } from '../../../src/core/sync/metadata.js';
import type { FormatChoice, Service } from '../../../src/core/sync/datasets.js';
import type { SyncStep } from '../../../src/core/sync/hooks.js';
import type { SyncOutcome } from '../../../src/ui/lib/backend-api.js';
import type { OriginUsage } from '../../../src/core/storage/opfs.js';
import { NO_LIMITS } from '../../core/sync/fixture.js';
import { publishTiny } from '../../helpers/tiny-data.js';
import type { checksums } from '../../reliability/store-check.js';
import type { Session } from '../browser.js';

export const SOURCES = { indicators: PROXY, mf: PROXY, flags: PROXY };
export type Sums = Awaited<ReturnType<typeof checksums>>;

/** `window.harness` of the page (main.ts), as page.evaluate sees it. */
export interface Harness {
  sync(req: { only: Service[]; sources: typeof SOURCES }, pauseAt?: { step: SyncStep; nth: number }): Promise<SyncOutcome>;
  paused(): Promise<string>;
  choose(service: Service, choice: FormatChoice): Promise<void>;
  status(): Promise<StoreState>;
  calls(): Promise<Record<string, unknown>>;
  time(index: number, calls: number): Promise<{ name: string; ms: number[] }>;
  checksums(service: Service): Promise<Sums>;
  closeStore(): void;
  opfs(): Promise<string[]>;
  importPrices(csv: string): Promise<number>;
  usage(): Promise<{ estimate: StorageEstimate & { usageDetails?: Record<string, number> }; counted: OriginUsage | null }>;
  rebuiltAttach(name: string): Promise<{ small: number; big: number }[] | { error: string }>;
}
declare global {
  const harness: Harness;
}

const DIST = path.resolve('dist-harness');
const OPEN_TIMEOUT = 120_000;

export interface HarnessStack {
  root: string;
  /** The publisher's data dir: publishTiny(dataDir, ...) changes what it serves. */
  dataDir: string;
  publisher: Publisher;
  app: AppServer;
  /** A page of the harness in `s`: its own sync worker (and so its own download-rate budget). */
  open(s: Session): Promise<Page>;
  /** The Node reference: the same publisher synced by the Node front door into `dir`. */
  nodeSync(dir: string, only: Service[]): ReturnType<typeof sync>;
  close(): Promise<void>;
}

export async function startHarness(name: string, services: readonly Service[]): Promise<HarnessStack> {
  if (!existsSync(path.join(DIST, 'index.html'))) throw new Error(`${DIST} is missing: run node scripts/setup.mjs --test`);
  const root = mkdtempSync(path.join(tmpdir(), `almanac-e2e-${name}-`));
  const dataDir = path.join(root, 'pub');
  await publishTiny(dataDir, services);
  const publisher = await startPublisher({ dataDir, limits: 'off' });
  const app = await serveApp({ dist: DIST, publisher: publisher.url, config: { sources: SOURCES } });
  return {
    root,
    dataDir,
    publisher,
    app,
    async open(s) {
      const p = await s.context.newPage();
      p.on('pageerror', (e) => s.errors.push(e.message));
      // Generous: a page opened while the previous one's workers are torn down waits for a core on a
      // loaded machine (30 s, Playwright's default, ran out at load average 30).
      await p.goto(`${app.url}index.html`, { timeout: OPEN_TIMEOUT });
      await p.waitForFunction(() => document.body.dataset.ready === 'yes', undefined, { timeout: OPEN_TIMEOUT });
      return p;
    },
    async nodeSync(dir, only) {
      const host = nodeHost(dir);
      const r = await sync({ storage: host.storage, host, source: publisher.url, only, rules: NO_LIMITS });
      expect(r.errors).toEqual([]);
      return r;
    },
    async close() {
      await app.close();
      await publisher.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
