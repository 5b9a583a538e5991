/**
 * Issue 20's query target in Chromium: the MF bench cases (bench/mf.ts) over a store refreshed day by
 * day against one synced fresh from the same publish, both in OPFS behind the app's own browser backend.
 * Two pages of the test harness (test/e2e/harness, built by `node scripts/setup.mjs --test`) on two
 * origins, so two OPFS stores in one browser; each answers in its services worker, its DuckDB in a
 * nested worker, as the app's views do. Wall times (a worker has no CPU clock), runs of 10 calls, the
 * pages in turn in ABBA order, the first runs untimed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { serveApp, type AppServer } from '../src/cli/app-server.js';
import { launch } from '../test/e2e/browser.js';
import type { Harness } from '../test/e2e/harness/stack.js';
import { SOURCES } from './chromium.js';
import { stats } from './lib.js';

declare const harness: Harness;

const DIST = path.resolve('dist-harness');
const CASES = 5;

export interface HarnessPair {
  /** Syncs MF into the refreshed (0) or the fresh (1) store. */
  sync(side: 0 | 1): Promise<void>;
  /** Per case name: [refreshed, fresh] wall medians of `calls` calls each. */
  pair(calls: number): Promise<Record<string, [number, number]>>;
  close(): Promise<void>;
}

export async function harnessPair(publisherUrl: string): Promise<HarnessPair> {
  // Built as the e2e tests build it (again only when older than its sources).
  const built = spawnSync(process.execPath, ['scripts/setup.mjs', '--test'], { stdio: 'inherit' });
  if (built.status !== 0 || !existsSync(path.join(DIST, 'index.html'))) throw new Error(`${DIST}: node scripts/setup.mjs --test failed`);
  const apps: AppServer[] = [];
  for (let i = 0; i < 2; i++) apps.push(await serveApp({ dist: DIST, publisher: publisherUrl, config: SOURCES }));
  const s = await launch();
  const pages: Page[] = [];
  const close = async () => {
    await s.close();
    for (const a of apps) await a.close();
  };
  try {
    for (const a of apps) {
      const p = await s.context.newPage();
      await p.goto(`${a.url}index.html`, { timeout: 120_000 });
      await p.waitForFunction(() => document.body.dataset.ready === 'yes', undefined, { timeout: 120_000 });
      pages.push(p);
    }
  } catch (e) {
    await close();
    throw e;
  }
  const time = (side: number, index: number, calls: number) => pages[side].evaluate(([i, n]) => harness.time(i, n), [index, calls] as const);
  return {
    async sync(side) {
      const o = await pages[side].evaluate((sources) => harness.sync({ only: ['mf'], sources }), SOURCES.sources);
      if (o.outcome !== 'done' || o.summary.errors.length) throw new Error(`harness sync ${side}: ${JSON.stringify(o).slice(0, 500)}`);
      // The services worker opened the store before this sync: a new one reads the new generation.
      await pages[side].evaluate(() => harness.closeStore());
    },
    async pair(calls) {
      const out: Record<string, [number, number]> = {};
      for (let i = 0; i < CASES; i++) {
        const samples: [number[], number[]] = [[], []];
        let name = '';
        for (const side of [0, 1]) await time(side, i, 30);
        for (let run = 0; samples[0].length < calls; run++) {
          for (const side of run % 2 ? [1, 0] : [0, 1]) {
            const r = await time(side, i, 10);
            name = r.name;
            samples[side].push(...r.ms);
          }
        }
        out[name] = [stats(samples[0]).median, stats(samples[1]).median];
      }
      return out;
    },
    close,
  };
}
