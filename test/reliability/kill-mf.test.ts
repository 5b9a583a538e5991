/**
 * Kill campaign, the MF history's refresh (docs/sync.md, issue 20): a store at one publish is synced to
 * the next by the refresh's own path, SIGKILLed in a child process at each of its steps. Same checks as
 * kill.test.ts: the previous generation answers until the switch, the next sync completes, and nothing
 * is left behind (the base and deltas it keeps aside).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, tempDir } from '../core/sync/fixture.js';
import { startPublisher, type Publisher } from '../../src/publisher/server.js';
import type { PublishOptions } from '../../src/gen/options.js';
import { LONG, writeFigures } from './figures.js';
import { child, expectRecovered, killRun, resync, type Point, type Resync } from './kill-run.js';

const MONDAY: PublishOptions[] = [{ step: 'day' }];
const REFRESHES: { label: string; next: PublishOptions[] }[] = [
  { label: 'append', next: [...MONDAY, { step: 'day' }] },
  { label: 'rebuild', next: [...MONDAY, { step: 'none', rebuild: true }] },
];
/**
 * `skip`: refreshes that never pass the step. A rebuild with the same rows only reads the footer
 * (history.ts): it fetches no rows and writes no delta, so a kill there is never reached; the default
 * run leaves those two out, ALMANAC_LONG=1 runs them (counted as "not reached").
 */
const REFRESH_POINTS: (Point & { skip?: string[] })[] = [
  { label: 'footer read, plan made', step: 'refresh:plan', nth: 1 },
  { label: 'new rows fetched', step: 'refresh:fetched', nth: 1, skip: ['rebuild'] },
  { label: "this publish's delta written", step: 'refresh:delta', nth: 1, skip: ['rebuild'] },
  { label: 'before the first table load', step: 'ingest:table', nth: 1 },
  { label: 'after the checkpoint', step: 'ingest:checkpoint', nth: 1 },
  { label: 'before the switch', step: 'switch:before', nth: 1 },
  { label: 'after the switch', step: 'switch:after', nth: 1 },
  { label: 'during cleanup', step: 'cleanup', nth: 1 },
];

describe('kill campaign: SIGKILL at each step of the MF history refresh', { timeout: 1_800_000 }, () => {
  const root = tempDir('kill-mf');
  const paths = new Map<string, { pub: Publisher; dir: string; before: Resync['mid']; after: Resync['after'] }>();
  const tally = { runs: 0, killed: 0, not_reached: 0, failures: 0 };
  const rows = new Map<string, Record<string, string>>(REFRESH_POINTS.map((p) => [p.label, {}]));

  beforeAll(async () => {
    await Promise.all(
      REFRESHES.map(async ({ label, next }) => {
        const pubDir = path.join(root, `pub-${label}`);
        await generate(pubDir, ['mf'], { publishes: MONDAY });
        const pub = await startPublisher({ dataDir: pubDir, limits: 'off' });
        const dir = path.join(root, `template-${label}`);
        expect((await child(['kill', dir, pub.url, 'mf', 'none', '0']).done).code).toBe(0);
        fs.rmSync(pubDir, { recursive: true, force: true });
        await generate(pubDir, ['mf'], { publishes: next });
        const ref = path.join(root, `reference-${label}`);
        fs.cpSync(dir, ref, { recursive: true });
        const r = await resync(ref, pub.url, 'mf');
        expect(r.errors).toEqual([]);
        expect(r.leftovers).toEqual([]);
        paths.set(label, { pub, dir, before: r.mid, after: r.after });
      }),
    );
  }, 1_800_000);

  afterAll(async () => {
    for (const p of paths.values()) await p.pub.close();
    fs.rmSync(root, { recursive: true, force: true });
    writeFigures({
      campaign: 'kill-mf',
      title: 'Kill campaign, MF history refresh (sync SIGKILLed in a child process)',
      checks: [
        `${REFRESH_POINTS.length} steps of the refresh × ${REFRESHES.length} refreshes (${REFRESHES.map((r) => r.label).join(', ')}) of tiny MF data, a Monday publish to the next; ${LONG ? 'every step on every refresh' : 'default run: the rebuild leaves out the two steps it never passes (rows fetched, delta written); ALMANAC_LONG=1 runs them'}.`,
        'After each kill: the store answers every table with the same row count and row hash as before the sync, or, when the kill came after the switch, exactly what a clean sync of the next publish answers.',
        'Then the next sync finishes without errors, answers exactly the next publish, and leaves no file behind but the state, the database, its sources and the history it keeps (base, deltas, footer, snapshot).',
        '"not reached": the sync finished without passing the step (counted, not a failure).',
      ],
      counts: tally,
      rows: [...rows].filter(([, r]) => Object.keys(r).length).map(([label, counts]) => ({ label, counts })),
    });
  });

  const cases = REFRESHES.flatMap((r) => REFRESH_POINTS.filter((pt) => LONG || !pt.skip?.includes(r.label)).map((pt) => [r.label, pt.label, pt] as const));

  it.concurrent.each(cases)('%s: killed %s', { timeout: 900_000 }, async (label, pointLabel, point) => {
    const t = paths.get(label)!;
    const row = rows.get(pointLabel)!;
    const dir = path.join(root, `${label}-${++tally.runs}`);
    try {
      fs.cpSync(t.dir, dir, { recursive: true });
      const outcome = await killRun(dir, t.pub.url, point, '', 'mf');
      tally[outcome === 'killed' ? 'killed' : 'not_reached']++;
      row[label] = outcome;
      expectRecovered(await resync(dir, t.pub.url, 'mf'), t, outcome, point);
      fs.rmSync(dir, { recursive: true, force: true });
    } catch (e) {
      tally.failures++;
      row[label] = 'failed';
      throw e;
    }
  });
});
