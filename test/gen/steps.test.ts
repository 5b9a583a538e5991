/**
 * Publishes that step a day, correct past NAVs or rebuild the history (issue 20, src/gen/timeline.ts),
 * on tiny MF data from the test cache: a Monday after a Friday, a Tuesday, a correction with no new
 * day, then a rebuild with identical content.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { Manifest } from '../../src/core/contract/mf.js';
import { isBusinessDay, dayNumber, weekday } from '../../src/gen/mf-calendar.js';
import { generate } from '../../src/gen/mf.js';
import type { PublishOptions } from '../../src/gen/options.js';
import { asOfDate, stepFrom, type GenState } from '../../src/gen/timeline.js';
import { startPublisher, type Publisher } from '../../src/publisher/server.js';
import { tinyData } from '../helpers/tiny-data.js';

const DAY: PublishOptions = { step: 'day' };
const REVISE: PublishOptions = { step: 'none', revise: 3 };
const REBUILD: PublishOptions = { step: 'none', rebuild: true };

let friday: string;
let monday: string;
let tuesday: string;
let revised: string;
let rebuilt: string;
let instance: DuckDBInstance;
let conn: DuckDBConnection;
const temps: string[] = [];

beforeAll(async () => {
  friday = await tinyData('mf');
  monday = await tinyData('mf', { publishes: [DAY] });
  tuesday = await tinyData('mf', { publishes: [DAY, DAY] });
  revised = await tinyData('mf', { publishes: [DAY, REVISE] });
  rebuilt = await tinyData('mf', { publishes: [DAY, REVISE, REBUILD] });
  instance = await DuckDBInstance.create(':memory:');
  conn = await instance.connect();
}, 900_000);

afterAll(() => {
  conn?.closeSync();
  instance?.closeSync();
  for (const d of temps) fs.rmSync(d, { recursive: true, force: true });
});

const q = (s: string): string => `'${s.replace(/'/g, "''")}'`;
const nav = (dir: string): string => `read_parquet(${q(path.join(dir, 'mf_nav_master.parquet'))})`;
const latest = (dir: string): string => `read_parquet(${q(path.join(dir, 'mf_nav_master_latest.parquet'))})`;
const state = (dir: string): GenState => JSON.parse(fs.readFileSync(path.join(dir, 'state.json'), 'utf8'));
const manifest = (dir: string): Manifest => JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));

async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return (await conn.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
}

async function scalar(sql: string): Promise<number> {
  return Number((await conn.runAndReadAll(sql)).getRows()[0][0]);
}

function hashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fs.readdirSync(dir).sort()) out[f] = createHash('sha256').update(fs.readFileSync(path.join(dir, f))).digest('hex');
  return out;
}

/** Rows of `b` not in `a`, and the count the other way. */
async function added(a: string, b: string): Promise<{ rows: Record<string, unknown>[]; removed: number }> {
  return {
    rows: await rows(`SELECT scheme_code, date FROM (SELECT * FROM ${nav(b)} EXCEPT ALL SELECT * FROM ${nav(a)}) ORDER BY scheme_code, date`),
    removed: await scalar(`SELECT count(*) FROM (SELECT * FROM ${nav(a)} EXCEPT ALL SELECT * FROM ${nav(b)})`),
  };
}

describe('--step day', () => {
  it('steps to the next business day and records the dates reached', () => {
    expect(state(friday).as_of).toEqual([asOfDate(1)]);
    expect(weekday(dayNumber(asOfDate(1)))).toBe(5);
    const mon = state(monday).as_of[1];
    expect(mon).toBe(stepFrom(asOfDate(1), 'day'));
    expect(isBusinessDay(dayNumber(mon))).toBe(true);
    // Every day between the two is a weekend or a holiday.
    for (let d = dayNumber(asOfDate(1)) + 1; d < dayNumber(mon); d++) expect(isBusinessDay(d)).toBe(false);
    expect(state(tuesday).as_of).toEqual([asOfDate(1), mon, stepFrom(mon, 'day')]);
    const morningAfter = new Date(Date.parse(`${mon}T06:00:00Z`) + 86_400_000).toISOString().replace('.000Z', 'Z');
    expect(manifest(monday).generated_at).toBe(morningAfter);
  });

  it('after a Friday publishes Monday with the weekend NAVs of liquid and overnight funds, the snapshot only their last', async () => {
    const fri = asOfDate(1);
    const mon = state(monday).as_of[1];
    const diff = await added(friday, monday);
    expect(diff.removed).toBe(0);
    expect(diff.rows.length).toBe(manifest(monday).total_rows - manifest(friday).total_rows);
    for (const r of diff.rows) expect(String(r.date) > fri && String(r.date) <= mon, String(r.date)).toBe(true);
    // Rows dated between the two publish days belong only to schemes that publish every calendar day.
    const between = await rows(`SELECT DISTINCT l.category_sub AS c FROM ${nav(monday)} n JOIN ${latest(monday)} l USING (scheme_code)
      WHERE n.date > ${q(fri)} AND n.date < ${q(mon)}`);
    expect(between.length).toBeGreaterThan(0);
    for (const r of between) expect(String(r.c)).toMatch(/Liquid|Overnight/);
    const multi = await rows(`SELECT scheme_code, count(*) AS n, max(date) AS last FROM ${nav(monday)} WHERE date > ${q(fri)}
      GROUP BY scheme_code HAVING count(*) > 1`);
    expect(multi.length).toBeGreaterThan(0);
    for (const m of multi) {
      const [snap] = await rows(`SELECT nav_date::VARCHAR AS d, nav::DOUBLE AS nav FROM ${latest(monday)} WHERE scheme_code = ${m.scheme_code}`);
      const [last] = await rows(`SELECT nav::DOUBLE AS nav FROM ${nav(monday)} WHERE scheme_code = ${m.scheme_code} AND date = ${q(String(m.last))}`);
      expect(snap).toEqual({ d: m.last, nav: last.nav });
    }
  });

  it('on a weekday adds exactly the rows of that day', async () => {
    const tue = state(tuesday).as_of[2];
    const diff = await added(monday, tuesday);
    expect(diff.removed).toBe(0);
    expect(diff.rows.length).toBeGreaterThan(0);
    expect(new Set(diff.rows.map((r) => r.date))).toEqual(new Set([tue]));
    expect(diff.rows.length).toBe(await scalar(`SELECT count(*) FROM ${nav(tuesday)} WHERE date = ${q(tue)}`));
    expect(manifest(tuesday).total_rows - manifest(monday).total_rows).toBe(diff.rows.length);
  });
});

describe('--step none --revise N', () => {
  it('changes exactly N past values, no row count and not the snapshot', async () => {
    const mon = state(monday).as_of[1];
    expect(state(revised).as_of).toEqual([asOfDate(1), mon, mon]);
    expect(state(revised).revisions).toEqual([{ generation: 3, count: 3 }]);
    const changed = await rows(`SELECT a.scheme_code, a.date, a.nav::DOUBLE AS was, b.nav::DOUBLE AS now
      FROM ${nav(monday)} a JOIN ${nav(revised)} b USING (scheme_code, date) WHERE a.nav <> b.nav`);
    expect(changed).toHaveLength(3);
    for (const c of changed) {
      expect(c.now).not.toBe(c.was);
      expect(String(c.date) < mon).toBe(true);
    }
    expect(await scalar(`SELECT count(*) FROM ${nav(revised)}`)).toBe(await scalar(`SELECT count(*) FROM ${nav(monday)}`));
    expect((await added(monday, revised)).rows).toHaveLength(3);
    expect(manifest(revised).total_rows).toBe(manifest(monday).total_rows);
    const before = hashes(monday);
    const after = hashes(revised);
    for (const f of ['mf_nav_master_latest.parquet', 'mf_nav_master_latest.csv', 'scheme_details_latest.parquet', 'data_quality.csv']) {
      expect(after[f], f).toBe(before[f]);
    }
    for (const f of ['mf_nav_master.parquet', 'mf_nav_master.csv.gz', 'mf_nav_master.db.gz']) expect(after[f], f).not.toBe(before[f]);
    // A republish of the same day is stamped later than the first publish of it.
    expect(manifest(revised).generated_at > manifest(monday).generated_at).toBe(true);
  });

  it('keeps a correction in every later generation', async () => {
    expect((await added(revised, rebuilt)).removed).toBe(0);
    expect(state(rebuilt).revisions).toEqual([{ generation: 3, count: 3 }]);
  });

  it('gives the same bytes for the same state and options', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-steps-'));
    temps.push(dir);
    fs.cpSync(monday, dir, { recursive: true });
    await generate({ scale: 'tiny', dir, generation: 3, seed: 42, ...REVISE });
    expect(hashes(dir)).toEqual(hashes(revised));
  }, 600_000);
});

describe('--step none --rebuild', () => {
  let publisher: Publisher;
  let pubDir: string;
  beforeAll(async () => {
    pubDir = fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-steps-pub-'));
    temps.push(pubDir);
    fs.cpSync(revised, path.join(pubDir, 'mf'), { recursive: true });
    publisher = await startPublisher({ dataDir: pubDir, limits: 'off' });
  });
  afterAll(async () => publisher?.close());

  const etag = async (): Promise<string> => {
    const r = await fetch(`${publisher.url}/mf/v1/download?format=parquet`, { method: 'HEAD' });
    expect(r.status).toBe(200);
    return r.headers.get('etag')!;
  };

  it('rewrites the history parquet with a new ETag and identical rows, row groups and statistics', async () => {
    const before = await etag();
    fs.rmSync(path.join(pubDir, 'mf'), { recursive: true });
    fs.cpSync(rebuilt, path.join(pubDir, 'mf'), { recursive: true });
    expect(await etag()).not.toBe(before);

    expect(await scalar(`SELECT count(*) FROM (SELECT * FROM ${nav(revised)} EXCEPT ALL SELECT * FROM ${nav(rebuilt)})`)).toBe(0);
    expect(await scalar(`SELECT count(*) FROM ${nav(rebuilt)}`)).toBe(await scalar(`SELECT count(*) FROM ${nav(revised)}`));
    const groups = (dir: string) =>
      rows(`SELECT row_group_id, row_group_num_rows, row_group_bytes, column_id, data_page_offset, total_compressed_size,
        stats_min, stats_max, stats_null_count FROM parquet_metadata(${q(path.join(dir, 'mf_nav_master.parquet'))}) ORDER BY ALL`);
    expect(await groups(rebuilt)).toEqual(await groups(revised));
    const kv = (dir: string) => rows(`SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata(${q(path.join(dir, 'mf_nav_master.parquet'))})`);
    expect(await kv(revised)).toEqual([]);
    expect(await kv(rebuilt)).toEqual([{ k: 'almanac_rebuild', v: '1' }]);

    const a = hashes(revised);
    const b = hashes(rebuilt);
    const differ = Object.keys(b).filter((f) => a[f] !== b[f]).sort();
    expect(differ).toEqual(['manifest.json', 'mf_nav_master.parquet', 'state.json']);
    expect(manifest(rebuilt).total_rows).toBe(manifest(revised).total_rows);
    expect(state(rebuilt).rebuilds).toEqual([4]);
  });
});
