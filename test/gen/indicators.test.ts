import { describe, it, expect, beforeAll } from 'vitest';
import { mkdtemp, readdir, readFile, stat, cp } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { DuckDBInstance } from '@duckdb/node-api';
import { generate } from '../../src/gen/indicators.js';
import { INDICATOR_DEFS } from '../../src/gen/indicator-catalog.js';
import { REAL_PRICES_DIR } from '../../src/gen/real-prices.js';
import {
  ALL_FILE_FORMATS,
  CATEGORY_IDS,
  MARKET_SYMBOLS,
  TABLE_FILE_FORMATS,
  TABLE_NAMES,
  allFileName,
  tableFileName,
  type IndicatorsManifest,
} from '../../src/core/contract/indicators.js';

async function query(sql: string): Promise<Record<string, unknown>[]> {
  const inst = await DuckDBInstance.create(':memory:');
  const conn = await inst.connect();
  try {
    return (await conn.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    conn.closeSync();
    inst.closeSync();
  }
}

function realClose(symbol: string, date: string): number {
  const line = readFileSync(path.join(REAL_PRICES_DIR, `${symbol}.csv`), 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${date},`));
  return Number(line!.split(',')[1]);
}

describe('indicator catalog (what every scale draws from)', () => {
  const visible = INDICATOR_DEFS.filter((d) => d.visible);

  it('has about 330 indicators in 8 categories, about 290 visible in macro_indicators, 16 market symbols', () => {
    expect(INDICATOR_DEFS.length + MARKET_SYMBOLS.length).toBe(330);
    expect(visible.length).toBe(290);
    expect(new Set(INDICATOR_DEFS.map((d) => d.id)).size).toBe(INDICATOR_DEFS.length);
    for (const c of CATEGORY_IDS.filter((c) => c !== 'markets')) expect(visible.some((d) => d.category === c), c).toBe(true);
  });

  it('names 17+ publishers and gives every indicator its own specific notes', () => {
    expect(new Set(INDICATOR_DEFS.map((d) => d.source)).size).toBeGreaterThanOrEqual(17);
    for (const d of INDICATOR_DEFS) expect(d.notes.length, d.id).toBeGreaterThan(60);
    // No boilerplate: notes repeat only inside a family whose members really share the caveats.
    expect(new Set(INDICATOR_DEFS.map((d) => d.notes)).size).toBeGreaterThan(INDICATOR_DEFS.length * 0.8);
  });
});

describe('indicator generator (tiny)', () => {
  let a: string;
  let b: string;
  let manifest: IndicatorsManifest;

  beforeAll(async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'almanac-gen-ind-'));
    a = path.join(root, 'a');
    b = path.join(root, 'b');
    manifest = await generate({ scale: 'tiny', dir: a, generation: 1, seed: 7 });
    await generate({ scale: 'tiny', dir: b, generation: 1, seed: 7 });
  });

  it('lists every table in every format plus the indicators_all bundles', () => {
    const expected = [
      ...TABLE_NAMES.flatMap((t) => TABLE_FILE_FORMATS.map((f) => tableFileName(t, f))),
      ...ALL_FILE_FORMATS.map((f) => allFileName(f)),
    ].sort();
    expect(Object.keys(manifest.files).sort()).toEqual(expected);
    expect(manifest.generated_at).toBe('2026-11-14T06:00:00Z');
  });

  it('writes identical bytes for the same seed and generation (DuckDB files: identical content fingerprints)', async () => {
    const names = (await readdir(a)).filter((n) => !n.startsWith('.') || n.endsWith('.fingerprint'));
    expect(names.length).toBeGreaterThan(31);
    for (const name of names) {
      if (/\.duckdb\.(zip|gz)$/.test(name) || name === 'manifest.json') continue;
      expect((await readFile(path.join(b, name))).equals(await readFile(path.join(a, name))), name).toBe(true);
    }
  });

  it('manifest sizes and row counts equal the files', async () => {
    for (const [name, f] of Object.entries(manifest.files)) {
      expect((await stat(path.join(a, name))).size, name).toBe(f.size_bytes);
    }
    const counts: Record<string, number> = {};
    for (const t of TABLE_NAMES) {
      const [r] = await query(`SELECT count(*)::INTEGER AS n FROM '${path.join(a, `${t}.parquet`)}'`);
      counts[t] = r.n as number;
      for (const f of TABLE_FILE_FORMATS) expect(manifest.files[tableFileName(t, f)].row_count, `${t}.${f}`).toBe(counts[t]);
      const csvLines = gunzipSync(await readFile(path.join(a, `${t}.csv.gz`))).toString('utf8').trimEnd().split('\n');
      expect(csvLines.length - 1, `${t}.csv.gz`).toBe(counts[t]);
    }
    const all = counts.macro_indicators + counts.stock_prices + counts.indicator_config;
    for (const f of ALL_FILE_FORMATS) expect(manifest.files[allFileName(f)].row_count).toBe(all);
    expect(manifest.total_rows).toBe(all);
  });

  it('puts a README.md inside every zip', async () => {
    for (const name of Object.keys(manifest.files).filter((n) => n.endsWith('.zip'))) {
      const entries = Object.keys(unzipSync(new Uint8Array(await readFile(path.join(a, name)))));
      expect(entries, name).toContain('README.md');
      expect(entries.length, name).toBe(2);
    }
  });

  it('uses the real closes where they exist, weekdays only for generated days, and hides no visible indicator', async () => {
    const sp = path.join(a, 'stock_prices.parquet');
    const rows = await query(
      `SELECT symbol, strftime(date, '%Y-%m-%d') AS d, close FROM '${sp}' WHERE (symbol = '^GSPC' AND date = '2026-02-11') OR (symbol = 'CL=F' AND date = '2026-08-18')`,
    );
    const get = (s: string) => rows.find((r) => r.symbol === s)!.close;
    expect(get('^GSPC')).toBe(realClose('SPX', '2026-02-11'));
    expect(get('CL=F')).toBe(realClose('WTI', '2026-08-18'));
    const [vix] = await query(`SELECT value FROM '${path.join(a, 'macro_indicators.parquet')}' WHERE indicator_id = 'VIXCLS' AND date = '2026-07-23'`);
    expect(vix.value).toBe(realClose('VIX', '2026-07-23'));
    const [weekend] = await query(`SELECT count(*)::INTEGER AS n FROM '${sp}' WHERE dayofweek(date) IN (0, 6) AND date > '2026-08-18'`);
    expect(weekend.n).toBe(0);
    const [symbols] = await query(`SELECT count(DISTINCT symbol)::INTEGER AS n, bool_and(high >= low AND high >= close AND low <= close) AS ok FROM '${sp}'`);
    expect(symbols).toEqual({ n: 16, ok: true });
    const [cfg] = await query(
      `SELECT count(*) FILTER (WHERE NOT visible)::INTEGER AS hidden, count(*) FILTER (WHERE visible AND record_count = 0)::INTEGER AS empty_visible FROM '${path.join(a, 'indicator_config.parquet')}'`,
    );
    expect(cfg.hidden).toBeGreaterThan(0);
    expect(cfg.empty_visible).toBe(0);
  });

  it('leaves every file untouched when the same generation is written again', async () => {
    const before = new Map<string, number>();
    for (const name of Object.keys(manifest.files)) before.set(name, (await stat(path.join(a, name))).mtimeMs);
    await generate({ scale: 'tiny', dir: a, generation: 1, seed: 7 });
    for (const [name, mtime] of before) expect((await stat(path.join(a, name))).mtimeMs, name).toBe(mtime);
  });

  it('generation 2 appends market days, revises some macro history and updates the dictionary', async () => {
    const c = path.join(path.dirname(a), 'c');
    await cp(a, c, { recursive: true });
    const m2 = await generate({ scale: 'tiny', dir: c, generation: 2, seed: 7 });
    expect(m2.generated_at).toBe('2026-11-21T06:00:00Z');
    const sp1 = path.join(a, 'stock_prices.parquet');
    const sp2 = path.join(c, 'stock_prices.parquet');
    const [kept] = await query(
      `SELECT count(*)::INTEGER AS n FROM (SELECT * FROM '${sp1}' EXCEPT SELECT * FROM '${sp2}')`,
    );
    expect(kept.n).toBe(0);
    const [added] = await query(`SELECT count(*)::INTEGER AS n FROM '${sp2}' WHERE date > '2026-11-13'`);
    expect(added.n).toBeGreaterThan(16 * 3);
    const revised = await query(
      `SELECT o.indicator_id FROM '${path.join(a, 'macro_indicators.parquet')}' o JOIN '${path.join(c, 'macro_indicators.parquet')}' n USING (indicator_id, date) WHERE o.value <> n.value`,
    );
    expect(revised.length).toBeGreaterThan(0);
    expect(m2.files['macro_indicators.parquet'].row_count).toBeGreaterThan(manifest.files['macro_indicators.parquet'].row_count);
  });
});
