/**
 * Kill campaign: a sync in a child process is SIGKILLed at each point (the sync's own hooks, or the
 * parent watching the store for a file the sync is writing), for each ingest path. After every kill
 * the store must answer exactly what it answered before (or, once the switch happened, exactly the
 * new generation), and the next sync must finish with nothing left behind. Complements
 * test/core/sync/crash.test.ts, which stops the sync in-process by throwing from the same hooks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, tempDir } from '../core/sync/fixture.js';
import { startPublisher, type Publisher } from '../../src/publisher/server.js';
import { fileState, setChoice } from '../../src/core/sync/metadata.js';
import { nodeHost } from '../../src/core/database/node.js';
import { planFiles, SERVICE_DEFS, type FormatChoice, type Service } from '../../src/core/sync/datasets.js';
import { parseManifest } from '../../src/core/sync/manifest.js';
import type { checksums } from './store-check.js';
import { LONG, writeFigures } from './figures.js';
import { child, expectRecovered, killRun, resync, type Point } from './kill-run.js';

const SERVICE: Service = 'indicators';
/** One ingest path per way a file reaches the database: parquet-wasm, a whole .duckdb, read_csv. */
const PATHS: { label: string; choice: FormatChoice }[] = [
  { label: 'parquet', choice: 'parquet' },
  { label: 'duckdb', choice: 'duckdb' },
  { label: 'csv', choice: 'csv.zip' },
];

const POINTS: Point[] = [
  { label: 'after the manifest', step: 'manifest', nth: 1 },
  { label: 'response headers in, before the size check', step: 'download:response', nth: 1 },
  { label: 'mid-body of the largest file', step: 'download:chunk', nth: 1, file: 'largest' },
  { label: 'body complete, after the size check', step: 'download:complete', nth: 1 },
  { label: 'mid-ingest (new database file appears)', watch: /^indicators-g2\.duckdb$/ },
  { label: 'before the first table load', step: 'ingest:table', nth: 1 },
  { label: 'after the checkpoint', step: 'ingest:checkpoint', nth: 1 },
  { label: 'before the switch', step: 'switch:before', nth: 1 },
  { label: 'after the switch', step: 'switch:after', nth: 1 },
  { label: 'during cleanup', step: 'cleanup', nth: 1 },
  ...(LONG
    ? [
        { label: 'last download complete', step: 'download:complete' as const, nth: 1, file: 'largest' as const },
        { label: 'mid-unpack (scratch file appears)', watch: /^tmp~indicators~/, unpacks: true },
        ...[2, 3, 4, 6, 8].map((n) => ({ label: `body chunk ${n}`, step: 'download:chunk' as const, nth: n })),
        ...[2, 3].map((n) => ({ label: `before table load ${n}`, step: 'ingest:table' as const, nth: n })),
        { label: 'second response', step: 'download:response' as const, nth: 2 },
        { label: 'mid-ingest WAL appears', watch: /^indicators-g2\.duckdb\.wal$/ },
      ]
    : []),
];

describe('kill campaign: SIGKILL at each point × each ingest path', { timeout: 1_800_000 }, () => {
  let root: string;
  let pubDir: string;
  let pub: Publisher;
  const templates = new Map<string, { dir: string; before: Awaited<ReturnType<typeof checksums>>; after: Awaited<ReturnType<typeof checksums>>; largest: string }>();
  const tally = { runs: 0, killed: 0, not_reached: 0, failures: 0 };
  const rows = new Map<string, { runs: number; killed: number; failures: number }>();

  beforeAll(async () => {
    root = tempDir('kill');
    pubDir = path.join(root, 'pub');
    await generate(pubDir, [SERVICE], 1);
    pub = await startPublisher({ dataDir: pubDir, limits: 'off' });
    // Templates (generation 1 per path) and references (a clean sync of generation 2) are built by
    // the same child processes as the runs, side by side.
    await Promise.all(
      PATHS.map(async ({ label, choice }) => {
        const dir = path.join(root, `template-${label}`);
        await setChoice(fileState(nodeHost(dir).storage), SERVICE, choice);
        const first = await child(['kill', dir, pub.url, SERVICE, 'none', '0']).done;
        expect(first.code).toBe(0);
        expect(JSON.parse(first.out).errors).toEqual([]);
        const r = await resync(dir, pub.url, SERVICE);
        expect(r.errors).toEqual([]);
        expect(r.after).toEqual(r.mid);
        expect(Object.keys(r.mid.tables).sort()).toEqual(['indicator_config', 'macro_indicators', 'stock_prices']);
        templates.set(label, { dir, before: r.mid, after: { generation: 0, tables: {} }, largest: '' });
      }),
    );
    await generate(pubDir, [SERVICE], 2);
    const manifest = parseManifest(fs.readFileSync(path.join(pubDir, SERVICE, 'manifest.json'), 'utf8'));
    await Promise.all(
      PATHS.map(async ({ label, choice }) => {
        const t = templates.get(label)!;
        const ref = path.join(root, `reference-${label}`);
        fs.cpSync(t.dir, ref, { recursive: true });
        const r = await resync(ref, pub.url, SERVICE);
        expect(r.errors).toEqual([]);
        t.after = r.after;
        expect(t.after.generation).toBe(t.before.generation + 1);
        expect(t.after.tables).not.toEqual(t.before.tables);
        t.largest = planFiles(SERVICE_DEFS[SERVICE], manifest.files, choice).reduce((a, b) => (b.size > a.size ? b : a)).name;
      }),
    );
  }, 900_000);

  afterAll(async () => {
    await pub?.close();
    writeFigures({
      campaign: 'kill',
      title: 'Kill campaign (sync SIGKILLed in a child process)',
      checks: [
        `${POINTS.length} kill points × ${PATHS.length} ingest paths (${PATHS.map((p) => `${p.label}: ${p.choice}`).join(', ')}), indicators dataset, tiny generation 1 → 2.`,
        'After each kill: the store answers every table with the same row count and row hash as before the sync, or, when the kill came after the switch, exactly what a clean sync of the new generation answers.',
        'Then the next sync finishes without errors, answers exactly the new generation, and leaves no file behind but the state, the database and its sources.',
        '"not reached": the watched file appeared after the child had already finished (counted, not a failure).',
      ],
      counts: tally,
      rows: [...rows].map(([label, counts]) => ({ label, counts })),
    });
  });

  const cases = PATHS.flatMap((p) => POINTS.filter((pt) => !pt.unpacks || p.choice !== 'parquet').map((pt) => [p.label, pt.label, pt] as const));

  it.concurrent.each(cases)('%s: killed %s', { timeout: 900_000 }, async (pathLabel, pointLabel, point) => {
    const t = templates.get(pathLabel)!;
    const row = rows.get(pointLabel) ?? { runs: 0, killed: 0, failures: 0 };
    rows.set(pointLabel, row);
    tally.runs++;
    row.runs++;
    try {
      const dir = path.join(root, `${pathLabel}-${tally.runs}`);
      fs.cpSync(t.dir, dir, { recursive: true });
      const outcome = await killRun(dir, pub.url, point, t.largest, SERVICE);
      if (outcome === 'killed') {
        tally.killed++;
        row.killed++;
      } else tally.not_reached++;

      expectRecovered(await resync(dir, pub.url, SERVICE), t, outcome, point);
      fs.rmSync(dir, { recursive: true, force: true });
    } catch (e) {
      tally.failures++;
      row.failures++;
      throw e;
    }
  });
});

