import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { NodeEngine } from '../../../src/core/engine/node.js';
import { LATEST_COLUMNS } from '../../../src/core/contract/mf.js';
import { MfError, parseNavParams, parseSchemeNavParams, parseSearchParams } from '../../../src/core/contract/mf-params.js';
import { isValidIsin } from '../../../src/core/contract/isin.js';
import { browse as browseSchemes, quickSearch } from '../../../src/core/services/mf/search.js';
import { navBatch, navRows, schemeNav } from '../../../src/core/services/mf/nav.js';
import { latestSnapshotCsv } from '../../../src/core/services/mf/snapshot.js';
import { catalog } from '../../../src/core/services/mf/catalog.js';
import { TINY_CASES } from '../../../src/gen/mf.js';
import { generateTinyMf, loadMf } from '../../helpers/mf-fixture.js';

const qs = (s: string) => [...new URLSearchParams(s)];
const code = (label: string, i = 0) => TINY_CASES[label][i];

interface LatestRow {
  scheme_code: number;
  scheme_name: string;
  isin: string | null;
  isin2: string | null;
  amc: string;
  category: string;
  is_active: boolean;
  scheme_plan: string;
  scheme_option: string;
  first_date: string;
  last_date: string;
  nav: number;
}

describe('MF services over tiny generated data (DuckDB-WASM)', () => {
  let engine: NodeEngine;
  let latest: LatestRow[];
  const row = (c: number) => latest.find((r) => r.scheme_code === c)!;
  const searchOf = (s: string) => quickSearch(engine, parseSearchParams(qs(s)));
  const browse = (s: string) => browseSchemes(engine, parseSearchParams(qs(s)));
  const navOf = (s: string) => schemeNav(engine, parseNavParams(qs(s)));
  const batchOf = (s: string) => navBatch(engine, parseNavParams(qs(s)));
  const failure = async (p: Promise<unknown>) => {
    const e = await p.then(() => null, (x: unknown) => x);
    expect(e).toBeInstanceOf(MfError);
    return (e as MfError).spec;
  };

  beforeAll(async () => {
    engine = await NodeEngine.open();
    const dir = await generateTinyMf();
    await loadMf(engine, dir);
    rmSync(path.dirname(dir), { recursive: true, force: true }); // the tables are in memory now
    latest = await engine.all<LatestRow>('SELECT * FROM mf.latest ORDER BY scheme_code');
  });
  afterAll(() => engine?.close());

  describe('search', () => {
    it('plain q returns the compact shape with relevance, exact id first, live first within a tier', async () => {
      const target = row(code('both_isins'));
      const byCode = await searchOf(`q=${target.scheme_code}`);
      expect(byCode.results[0]).toEqual({
        scheme_code: target.scheme_code,
        scheme_name: target.scheme_name,
        isin: target.isin,
        isin2: target.isin2,
        category_sub: expect.anything(),
        is_active: target.is_active,
        relevance: 100 + (target.is_active ? 10 : 0),
      });
      expect(Object.keys(byCode)).toEqual(['query', 'count', 'results']);
      const byIsin2 = await searchOf(`q=${target.isin2!.toLowerCase()}`);
      expect(byIsin2.results[0].scheme_code).toBe(target.scheme_code);

      const res = await searchOf('q=fund');
      expect(res.count).toBeGreaterThan(5);
      const rel = res.results.map((r) => r.relevance);
      expect(rel).toEqual([...rel].sort((a, b) => b - a));
      for (const r of res.results) expect(r.relevance % 20 === (r.is_active ? 10 : 0) || r.relevance === 110 || r.relevance === 100).toBe(true);
    });

    it('ranks a name prefix above a whole word above a substring', async () => {
      const name = row(code('both_isins')).scheme_name; // e.g. "SBI Bluechip Fund - ..."
      const first = name.split(/\s+/)[0];
      const res = await searchOf(`q=${encodeURIComponent(first)}`);
      const hit = res.results.find((r) => r.scheme_code === code('both_isins'))!;
      expect(hit.relevance - (hit.is_active ? 10 : 0)).toBe(80);
      const second = name.split(/\s+/)[1];
      const res2 = await searchOf(`q=${encodeURIComponent(second)}`);
      const hit2 = res2.results.find((r) => r.scheme_code === code('both_isins'))!;
      expect(hit2.relevance - (hit2.is_active ? 10 : 0)).toBe(60);
      const part = second.slice(1, -1);
      const res3 = await searchOf(`q=${encodeURIComponent(part)}`);
      const hit3 = res3.results.find((r) => r.scheme_code === code('both_isins'))!;
      expect(hit3.relevance - (hit3.is_active ? 10 : 0)).toBe(40);
    });

    it('filters: case-insensitive contains, comma is OR, filters AND, browse shows live schemes only', async () => {
      const hdfc = await browse('amc=hdfc');
      const expected = latest.filter((r) => r.amc.toLowerCase().includes('hdfc') && r.is_active);
      expect(hdfc.total_matches).toBe(expected.length);
      expect(hdfc.results.every((r) => r.amc.includes('HDFC') && r.is_active)).toBe(true);
      expect(hdfc.results[0]).toHaveProperty('category_group_clean');
      expect(hdfc.results[0]).toHaveProperty('txic_code');
      expect(hdfc.results[0]).not.toHaveProperty('relevance');

      const either = await browse('amc=HDFC,kotak&active=all&limit=100');
      expect(either.total_matches).toBe(latest.filter((r) => /hdfc|kotak/i.test(r.amc)).length);
      const both = await browse('amc=hdfc&plan=direct&active=all&limit=100');
      expect(both.total_matches).toBe(latest.filter((r) => /hdfc/i.test(r.amc) && r.scheme_plan === 'Direct').length);
      expect((await browse('amc=hdfc&amc=kotak&active=all&limit=100')).results).toEqual(either.results);
    });

    it('active=all includes matured schemes; active=false only those', async () => {
      const all = await browse('active=all&limit=100');
      expect(all.total_matches).toBe(latest.length);
      const matured = await browse('active=false&limit=100');
      expect(matured.total_matches).toBe(latest.filter((r) => !r.is_active).length);
      expect(matured.results.map((r) => r.scheme_code)).toContain(code('matured_fmp'));
    });

    it('exclude reads the name and the AMC, never the category', async () => {
      const all = await browse('active=all&limit=100');
      const noHdfc = await browse('active=all&exclude=hdfc&limit=100');
      expect(noHdfc.total_matches).toBe(latest.filter((r) => !/hdfc/i.test(r.amc) && !/hdfc/i.test(r.scheme_name)).length);
      // A word found only in categories (e.g. "Scheme" of "Debt Scheme - Liquid Fund") excludes nothing.
      const onlyInCategory = 'scheme';
      expect(latest.some((r) => r.category.toLowerCase().includes(onlyInCategory))).toBe(true);
      expect(latest.some((r) => r.scheme_name.toLowerCase().includes(onlyInCategory) || r.amc.toLowerCase().includes(onlyInCategory))).toBe(false);
      expect((await browse(`active=all&exclude=${onlyInCategory}&limit=100`)).total_matches).toBe(all.total_matches);
    });

    it('launch-date window and paging', async () => {
      const res = await browse('active=all&first_date_from=2015-01-01&first_date_to=2019-12-31&limit=3');
      const expected = latest.filter((r) => r.first_date >= '2015-01-01' && r.first_date <= '2019-12-31');
      expect(res.total_matches).toBe(expected.length);
      expect(res.count).toBe(Math.min(3, expected.length));
      const page2 = await browse('active=all&first_date_from=2015-01-01&first_date_to=2019-12-31&limit=3&offset=3');
      expect(page2.results.map((r) => r.scheme_code)).not.toContain(res.results[0].scheme_code);
      const past = await browse(`active=all&limit=3&offset=${latest.length + 5}`);
      expect(past).toMatchObject({ count: 0, total_matches: latest.length });
      expect(past.valid_values).toBeUndefined();
    });

    it('a zero-match browse lists the valid values of the filters used', async () => {
      const res = await browse('amc=no%20such%20house&plan=direct&group=equity');
      expect(res).toMatchObject({ count: 0, total_matches: 0, results: [] });
      expect(res.valid_values!.amc).toEqual(expect.arrayContaining(['HDFC Mutual Fund']));
      expect(res.valid_values!.plan).toEqual(expect.arrayContaining(['Direct']));
      expect(res.valid_values!.group).toEqual(expect.arrayContaining(['Equity']));
      expect(Object.keys(res.valid_values!).sort()).toEqual(['amc', 'group', 'plan']);
    });
  });

  describe('nav', () => {
    it('one id returns the full series as exact decimals, sorted, with the spec fields', async () => {
      const c = code('nav_decimals_3');
      const s = await navOf(`scheme=${c}`);
      const [{ n, first, last }] = await engine.all<{ n: number; first: string; last: string }>(
        'SELECT count(*) AS n, min(date) AS first, max(date) AS last FROM mf.nav WHERE scheme_code = ?',
        [c],
      );
      expect(s).toMatchObject({ scheme_code: c, count: n, first_available_date: first, latest_available_date: last });
      expect(s.data).toHaveLength(n);
      expect(s.data.map((p) => p.date)).toEqual([...s.data.map((p) => p.date)].sort());
      for (const p of s.data.slice(0, 500)) expect(String(p.nav)).toMatch(/^\d+(\.\d{1,3})?$/);
    });

    it("one scheme's rows come in date order however the table holds them (its statement sorts nothing)", async () => {
      const other = await NodeEngine.open();
      try {
        // Two schemes' rows stored newest first, interleaved: a scan gives them out of date order.
        await other.exec(
          "ATTACH ':memory:' AS mf; CREATE TABLE mf.nav (scheme_code INTEGER, date DATE, nav DECIMAL(18,4)); " +
            "INSERT INTO mf.nav SELECT 100 + i % 2, DATE '2024-01-01' + CAST(i // 2 AS INTEGER), 10 + i / 100 FROM range(400) t(i) ORDER BY i DESC",
        );
        const [, scanned] = (await other.columns("SELECT scheme_code, date::VARCHAR FROM mf.nav WHERE scheme_code = 101")) as [number[], string[]];
        expect(scanned).not.toEqual([...scanned].sort());
        for (const w of [{}, { since: '2024-02-01' }, { to: '2024-03-31' }, { since: '2024-02-01', to: '2024-03-31' }]) {
          const [codes, dates, navs] = await navRows(other, [101], { latest: false, ...w });
          const want = await other.all<{ date: string; nav: number }>(
            "SELECT date::VARCHAR AS date, nav::DOUBLE AS nav FROM mf.nav WHERE scheme_code = 101 AND date >= coalesce(?::DATE, DATE '0001-01-01') AND date <= coalesce(?::DATE, DATE '9999-12-31') ORDER BY date",
            [w.since ?? null, w.to ?? null],
          );
          expect(want.length).toBeGreaterThan(10);
          expect(codes.every((c) => c === 101)).toBe(true);
          expect(dates).toEqual(want.map((r) => r.date));
          expect(navs).toEqual(want.map((r) => r.nav));
        }
        // Several schemes: by code, then date.
        const [codes, dates] = await navRows(other, [101, 100], { latest: false });
        expect(codes.slice(0, 200).every((c) => c === 100) && codes.slice(200).every((c) => c === 101)).toBe(true);
        expect(dates.slice(0, 200)).toEqual([...dates.slice(0, 200)].sort());
      } finally {
        await other.close();
      }
    });

    it('each window (since, to, both, latest within one) holds exactly the rows the table has there', async () => {
      const c = code('nav_decimals_3');
      const inWindow = async (since: string | null, to: string | null) =>
        (
          await engine.all<{ date: string }>(
            'SELECT date::VARCHAR AS date FROM mf.nav WHERE scheme_code = ? AND date >= coalesce(?::DATE, DATE \'0001-01-01\') AND date <= coalesce(?::DATE, DATE \'9999-12-31\') ORDER BY date',
            [String(c), since, to],
          )
        ).map((r) => r.date);
      for (const [since, to] of [['2024-01-01', null], [null, '2024-06-30'], ['2024-01-01', '2024-06-30']] as const) {
        const q = [`scheme=${c}`, since && `since=${since}`, to && `to=${to}`].filter(Boolean).join('&');
        const s = await navOf(q);
        const want = await inWindow(since, to);
        expect(want.length).toBeGreaterThan(10);
        expect(s.data.map((p) => p.date)).toEqual(want);
        const last = await navOf(`${q}&latest=true`);
        expect(last.data.map((p) => p.date)).toEqual([want[want.length - 1]]);
      }
    });

    it('a code, its ISIN and its reinvestment ISIN return the same rows', async () => {
      const r = row(code('both_isins'));
      expect(isValidIsin(r.isin!) && isValidIsin(r.isin2!)).toBe(true);
      const a = await navOf(`scheme=${r.scheme_code}&since=2024-01-01`);
      const b = await navOf(`isin=${r.isin}&since=2024-01-01`);
      const c = await schemeNav(engine, parseSchemeNavParams(r.isin2!.toLowerCase(), qs('since=2024-01-01')));
      expect(a.count).toBeGreaterThan(100);
      expect(b).toEqual(a);
      expect(c).toEqual(a);
    });

    it('a mixed batch answers codes and ISINs and reports bad entries without failing', async () => {
      const r = row(code('both_isins'));
      const corrupted = r.isin!.slice(0, 11) + String((Number(r.isin![11]) + 1) % 10);
      const ids = [String(code('weekend_nav')), r.isin!, corrupted, '999999', 'not-an-id'];
      const b = await batchOf(`schemes=${ids.join(',')}&since=2026-10-01`);
      expect(Object.keys(b.schemes)).toEqual([ids[0], ids[1]]);
      expect(b.schemes[r.isin!].scheme_code).toBe(r.scheme_code);
      expect(b.not_found).toEqual([corrupted, '999999', 'not-an-id']);
      expect(b.not_found_reasons).toEqual({ [corrupted]: 'corrupted_isin', '999999': 'unknown_scheme', 'not-an-id': 'malformed_identifier' });
      const single = await batchOf(`schemes=${code('weekend_nav')}`);
      expect(Object.keys(single)).toEqual(['schemes', 'not_found', 'not_found_reasons']);
    });

    it('a single unknown or corrupted id is a 404 with a hint to /search', async () => {
      expect(await failure(navOf('scheme=999999'))).toMatchObject({ status: 404, code: 'unknown_scheme', hint: expect.stringContaining('/mf/v1/search') });
      const isin = row(code('both_isins')).isin!;
      const bad = isin.slice(0, 11) + String((Number(isin[11]) + 3) % 10);
      const spec = await failure(navOf(`scheme=${bad}`));
      expect(spec).toMatchObject({ status: 404, code: 'corrupted_isin' });
      expect(spec.message).toMatch(/corrupted; retrying will not help/);
    });

    it('windows, empty windows, latest and latest as of a date', async () => {
      const c = code('both_isins');
      const w = await navOf(`scheme=${c}&since=2024-03-01&to=2024-03-31`);
      expect(w.count).toBeGreaterThan(15);
      expect(w.data.every((p) => p.date >= '2024-03-01' && p.date <= '2024-03-31')).toBe(true);
      const empty = await navOf(`scheme=${c}&since=2099-01-01`);
      expect(empty).toMatchObject({ count: 0, data: [], first_available_date: w.first_available_date });
      expect(empty.latest_available_date).toBe(row(c).last_date);
      expect(empty.notes?.[0]).toMatch(/No NAV from 2099-01-01/);
      const lt = await navOf(`scheme=${c}&latest=true`);
      expect(lt.data).toEqual([{ date: row(c).last_date, nav: row(c).nav }]);
      const asOf = await navOf(`scheme=${c}&latest=true&to=2024-03-31`);
      expect(asOf.data).toEqual([w.data[w.data.length - 1]]);
    });

    it('latest for a batch of live, ended and later schemes is the last row of each in the window, as the table has it', async () => {
      const ended = latest.filter((r) => !r.is_active);
      const live = latest.filter((r) => r.is_active);
      const picked = [...ended.slice(0, 20), ...live.slice(0, 30)].map((r) => r.scheme_code);
      const truth = async (to: string | null) =>
        Object.fromEntries(
          (
            await engine.all<{ c: number; d: string; nav: number }>(
              `SELECT scheme_code AS c, max(date)::VARCHAR AS d, arg_max(nav, date)::DOUBLE AS nav FROM mf.nav
               WHERE list_contains(string_split(?, ',')::INTEGER[], scheme_code) AND date <= coalesce(?::DATE, DATE '9999-12-31') GROUP BY 1`,
              [picked.join(','), to],
            )
          ).map((r) => [String(r.c), [{ date: r.d, nav: r.nav }]]),
        );
      let lookedBackFurther = 0;
      let notYet = 0;
      for (const to of [null, '2024-03-31', '2012-06-30']) {
        const b = await batchOf(`schemes=${picked.join(',')}&latest=true${to ? `&to=${to}` : ''}`);
        const want = await truth(to);
        const end = to ?? latest.reduce((d, r) => (r.last_date > d ? r.last_date : d), '');
        for (const c of picked.map(String)) {
          expect(b.schemes[c].data, `${c} as of ${to}`).toEqual(want[c] ?? []);
          const d = want[c]?.[0].date;
          if (d && Date.parse(end) - Date.parse(d) > 31 * 86_400_000) lookedBackFurther++;
          if (!d) notYet++;
        }
      }
      // The batch went past the short look-back window (ended schemes) and found nothing for some (later launches).
      expect(lookedBackFurther).toBeGreaterThan(0);
      expect(notYet).toBeGreaterThan(0);
    });

    it('liquid funds carry weekend NAVs', async () => {
      const s = await navOf(`scheme=${code('weekend_nav')}&since=2025-01-01&to=2025-03-31`);
      const weekend = s.data.filter((p) => [0, 6].includes(new Date(`${p.date}T00:00:00Z`).getUTCDay()));
      expect(weekend.length).toBeGreaterThan(10);
    });

    it('flags a final NAV of 0.00 on a matured scheme as end of life, keeping the row', async () => {
      const c = code('zero_final_nav');
      const s = await navOf(`scheme=${c}`);
      expect(s).toMatchObject({ is_active: false, end_of_life: true });
      expect(s.data[s.data.length - 1].nav).toBe(0);
      expect(s.notes!.join(' ')).toMatch(/0\.00 .* end of the scheme's life, not a price/);
      const live = await navOf(`scheme=${code('both_isins')}&latest=true`);
      expect(live).toMatchObject({ end_of_life: false });
      expect(live.notes).toBeUndefined();
    });

    it('detects merger splits from the data, and only those', async () => {
      const olds = TINY_CASES.merger_old;
      const news = TINY_CASES.merger_new;
      for (const o of olds) {
        const s = await navOf(`scheme=${o}`);
        expect(s.is_active).toBe(false);
        expect(s.continued_as?.length, `successor of ${o}`).toBe(1);
        const succ = s.continued_as![0];
        expect(news).toContain(succ.scheme_code);
        expect(row(succ.scheme_code)).toMatchObject({ scheme_plan: row(o).scheme_plan, scheme_option: row(o).scheme_option });
        expect(succ.first_date > s.latest_available_date).toBe(true);
        expect(s.notes!.join(' ')).toContain(`continue under ${succ.scheme_code}`);
      }
      // Every other ended scheme (matured, wound up, 0.00) gets no successor.
      const others = latest.filter((r) => !r.is_active && !olds.includes(r.scheme_code)).map((r) => r.scheme_code);
      expect(others.length).toBeGreaterThan(3);
      for (let i = 0; i < others.length; i += 50) {
        const b = await batchOf(`schemes=${others.slice(i, i + 50).join(',')}&latest=true`);
        for (const s of Object.values(b.schemes)) expect(s.continued_as, String(s.scheme_code)).toBeUndefined();
      }
    });
  });

  describe('snapshot, catalog', () => {
    it('rebuilds the latest snapshot CSV with a stable content ETag', async () => {
      const a = await latestSnapshotCsv(engine);
      const lines = a.csv.trimEnd().split('\n');
      expect(lines[0]).toBe(LATEST_COLUMNS.join(','));
      expect(lines).toHaveLength(latest.length + 1);
      expect(a.etag).toMatch(/^"[0-9a-f]{32}"$/);
      expect((await latestSnapshotCsv(engine)).etag).toBe(a.etag);
      const zero = row(code('zero_final_nav'));
      expect(lines.find((l) => l.startsWith(`${zero.scheme_code},`))).toContain(`"${zero.scheme_name.replace(/"/g, '""')}"`);
    });

    it('the catalog documents every snapshot column and the local counts', async () => {
      const c = await catalog(engine);
      expect(Object.keys(c.schema.latest_snapshot.column_notes)).toEqual([...LATEST_COLUMNS]);
      expect(c.data).toMatchObject({ schemes: latest.length, matured_schemes: latest.filter((r) => !r.is_active).length });
      expect(c.endpoints.map((e) => e.path)).toEqual(['/mf/v1/', '/mf/v1/terms', '/mf/v1/search', '/mf/v1/nav', '/mf/v1/schemes/{code}/nav', '/mf/v1/download']);
    });
  });
});
