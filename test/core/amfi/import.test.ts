import { describe, it, expect, afterAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { NodeEngine } from '../../../src/core/engine/node.js';
import { importAmfiText } from '../../../src/core/amfi/import.js';

const real = (name: string) => readFileSync(`../shared/data/real-amfi/${name}`, 'utf8');

describe('AMFI import into user.amfi_nav', async () => {
  const engine = await NodeEngine.open();
  await engine.exec("ATTACH ':memory:' AS user");
  afterAll(() => engine.close());

  it('imports both real files with provenance and quality records', async () => {
    const a = await importAmfiText(engine, real('2006-04-03.csv'), '2006-04-03.csv');
    const b = await importAmfiText(engine, real('2025-06-28.csv'), '2025-06-28.csv');
    expect([a.rows, b.rows]).toEqual([1790, 618]);
    const [counts] = await engine.all<{ n: number; nulls: number; zeros: number }>(
      'SELECT count(*) AS n, count(*) FILTER (nav IS NULL) AS nulls, count(*) FILTER (nav = 0) AS zeros FROM user.amfi_nav',
    );
    expect(counts).toEqual({ n: 2408, nulls: 30, zeros: 21 });
    const reasons = await engine.all('SELECT reason, count(*) AS n FROM user.amfi_quality GROUP BY ALL ORDER BY reason');
    expect(reasons).toEqual([
      { reason: 'nav_not_a_number', n: 30 },
      { reason: 'nav_with_note', n: 1 },
      { reason: 'nav_zero', n: 21 },
    ]);
    const [row] = await engine.all('SELECT nav, source_file, category, amc FROM user.amfi_nav WHERE scheme_code = 145488');
    expect(row).toEqual({
      nav: 1000.1694,
      source_file: '2025-06-28.csv',
      category: 'Open Ended Schemes ( Debt Scheme - Overnight Fund )',
      amc: 'Aditya Birla Sun Life Mutual Fund',
    });
  });

  it('is idempotent: importing the same file again changes nothing', async () => {
    const before = await engine.all('SELECT * FROM user.amfi_nav ORDER BY scheme_code, date');
    const q = await engine.all('SELECT count(*) AS n FROM user.amfi_quality');
    await importAmfiText(engine, real('2006-04-03.csv'), '2006-04-03.csv');
    expect(await engine.all('SELECT * FROM user.amfi_nav ORDER BY scheme_code, date')).toEqual(before);
    expect(await engine.all('SELECT count(*) AS n FROM user.amfi_quality')).toEqual(q);
  });

  it('imports nothing from a truncated file', async () => {
    const text = real('2025-06-28.csv');
    const [before] = await engine.all('SELECT count(*) AS n FROM user.amfi_nav');
    await expect(importAmfiText(engine, text.slice(0, 5000), 'cut.csv')).rejects.toThrow(/truncated/);
    expect(await engine.all('SELECT count(*) AS n FROM user.amfi_nav')).toEqual([before]);
  });
});
