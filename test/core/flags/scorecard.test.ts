import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyScorecard, scorecard } from '../../../src/core/services/flags/scorecard.js';
import { TINY_SCORECARD_CASES } from '../../../src/gen/flags.js';
import { tinyFlags, type TinyFlags } from './fixture.js';

/**
 * Worked by hand from the rows in src/gen/flags-fixtures.ts and the rules in docs/flags.md, as of
 * 2026-11-13 (generation 1), window (2025-11-13, 2026-11-13].
 */
const EXPECTED = {
  // B+ (notch 13) 20; 4 downgrades → 20 capped 15; outlook Negative 5; pledge 78 % → 20; +38 pp → 5;
  // 3 invocations → 30 capped 20; promoter sells 60 + 45 crore = ₹1,050,000,000 → 10;
  // GSM II 15+2 = 17 beats LT-ASM IV 12; RPT 500 / 800 = 62.5 % → 15.   Total 127.
  REDSTONE: {
    score: 127,
    points: { rating: 20, downgrades: 15, outlook: 5, pledge: 20, pledge_trend: 5, invocations: 20, promoter_selling: 10, surveillance: 17, rpt: 15 },
    signals: {
      latest_rating: 'B+', latest_rating_agency: 'CARE', latest_rating_date: '2026-08-05', latest_rating_outlook: 'Negative', latest_rating_watch: null,
      rating_actions_12m: 4, rating_downgrades_12m: 4, pledge_quarter_end: '2026-09-30', pledged_pct_of_promoter: 78, pledge_change_pp_4q: 38,
      encumbrance_invocations_12m: 3, promoter_sell_value_inr_12m: 1_050_000_000, surveillance_stage: 'GSM Stage II',
      rpt_period_end: '2026-09-30', rpt_amount_cr: 500, half_year_revenue_cr: 800, rpt_pct_of_revenue: 62.5,
    },
  },
  // AAA after an upgrade; nothing else.   Total 0.
  CLEARWATR: {
    score: 0,
    points: { rating: 0, downgrades: 0, outlook: 0, pledge: 0, pledge_trend: 0, invocations: 0, promoter_selling: 0, surveillance: 0, rpt: 0 },
    signals: {
      latest_rating: 'AAA', latest_rating_agency: 'CRISIL', latest_rating_date: '2026-04-01', latest_rating_outlook: 'Stable', latest_rating_watch: null,
      rating_actions_12m: 2, rating_downgrades_12m: 0, pledge_quarter_end: '2026-09-30', pledged_pct_of_promoter: 0, pledge_change_pp_4q: 0,
      encumbrance_invocations_12m: 0, promoter_sell_value_inr_12m: 0, surveillance_stage: null,
      rpt_period_end: '2026-09-30', rpt_amount_cr: 20, half_year_revenue_cr: 1000, rpt_pct_of_revenue: 2,
    },
  },
  // Same-day tie BB (Brickwork) vs BB- (Infomerics) → BB- (notch 12) 10; the 2025-11-13 downgrade is on the
  // window start (excluded), the 2025-11-14 one inside → 5; withdrawn ignored; pledge exactly 25 → 10;
  // +10 pp exactly → 5; invocation on as_of itself → 10; promoter selling exactly ₹10 crore → 5;
  // ST-ASM II → 4; RPT exactly 10 % → 5.   Total 54.
  MERIDTEX: {
    score: 54,
    points: { rating: 10, downgrades: 5, outlook: 0, pledge: 10, pledge_trend: 5, invocations: 10, promoter_selling: 5, surveillance: 4, rpt: 5 },
    signals: {
      latest_rating: 'BB-', latest_rating_agency: 'Infomerics', latest_rating_date: '2025-11-14', latest_rating_outlook: 'Stable', latest_rating_watch: null,
      rating_actions_12m: 3, rating_downgrades_12m: 1, pledge_quarter_end: '2026-09-30', pledged_pct_of_promoter: 25, pledge_change_pp_4q: 10,
      encumbrance_invocations_12m: 1, promoter_sell_value_inr_12m: 100_000_000, surveillance_stage: 'ST-ASM Stage II',
      rpt_period_end: '2026-09-30', rpt_amount_cr: 100, half_year_revenue_cr: 1000, rpt_pct_of_revenue: 10,
    },
  },
  // No rating; latest pledge quarter 2026-06-30 at 5 % → 5, no 2025-06-30 quarter so no trend;
  // LT-ASM I → 3; RPT revenue not filed → no ratio, 0.   Total 8.
  SAPPHAGRO: {
    score: 8,
    points: { rating: 0, downgrades: 0, outlook: 0, pledge: 5, pledge_trend: 0, invocations: 0, promoter_selling: 0, surveillance: 3, rpt: 0 },
    signals: {
      latest_rating: null, latest_rating_agency: null, latest_rating_date: null, latest_rating_outlook: null, latest_rating_watch: null,
      rating_actions_12m: 0, rating_downgrades_12m: 0, pledge_quarter_end: '2026-06-30', pledged_pct_of_promoter: 5, pledge_change_pp_4q: null,
      encumbrance_invocations_12m: 0, promoter_sell_value_inr_12m: 0, surveillance_stage: 'LT-ASM Stage I',
      rpt_period_end: '2026-09-30', rpt_amount_cr: 50, half_year_revenue_cr: null, rpt_pct_of_revenue: null,
    },
  },
} as const;

let t: TinyFlags;
beforeAll(async () => {
  t = await tinyFlags();
});
afterAll(() => t.cleanup());

describe('flags scorecard', () => {
  it('covers exactly the hand-built cases', () => {
    expect(TINY_SCORECARD_CASES.map((c) => c.symbol).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [symbol, want] of Object.entries(EXPECTED)) {
    it(`${symbol}: points and signals equal the hand-computed figures`, async () => {
      const r = await companyScorecard(t.engine, { identifier: symbol.toLowerCase(), as_of: null });
      expect(r.as_of).toBe('2026-11-13');
      expect(r.symbol).toBe(symbol);
      expect(r.points).toEqual(want.points);
      expect(r.signals).toEqual(want.signals);
      expect(r.score).toBe(want.score);
      expect(Object.values(r.points).reduce((a, b) => a + b, 0)).toBe(r.score);
    });
  }

  it('an earlier as_of moves every window: REDSTONE as of 2026-06-30 scores 65', async () => {
    // Window (2025-06-30, 2026-06-30]. Latest LT: ICRA BB- 2026-05-20 (notch 12) 10, on watch Negative 5;
    // actions ICRA 2025-09-01, CARE 2026-01-15, ICRA 2026-05-20 = 3, two downgrades → 10;
    // pledge 2026-06-30 62.5 % → 15, no 2025-06-30 quarter → no trend; invocation 2025-10-01 → 10;
    // promoter sells 200 + 60 crore → 10; the surveillance list is dated after as_of → 0;
    // RPT half-year 2026-03-31: 100 / 900 = 11.11 % → 5.
    const r = await companyScorecard(t.engine, { identifier: 'REDSTONE', as_of: '2026-06-30' });
    expect(r.as_of).toBe('2026-06-30');
    expect(r.points).toEqual({ rating: 10, downgrades: 10, outlook: 5, pledge: 15, pledge_trend: 0, invocations: 10, promoter_selling: 10, surveillance: 0, rpt: 5 });
    expect(r.score).toBe(65);
    expect(r.signals.latest_rating_watch).toBe('Negative');
    expect(r.signals.rpt_pct_of_revenue).toBe(11.11);
    expect(r.signals.promoter_sell_value_inr_12m).toBe(2_600_000_000);
  });

  it('ranks every company by score, ties sharing a rank, and pages without overlap', async () => {
    const all = await scorecard(t.engine, { limit: 1000, offset: 0, as_of: null });
    expect(all.total).toBe(40);
    expect(all.companies).toHaveLength(40);
    for (const [i, c] of all.companies.entries()) {
      expect(c.rank).toBe(1 + all.companies.filter((o) => o.score > c.score).length);
      if (i > 0) expect(c.score).toBeLessThanOrEqual(all.companies[i - 1].score);
    }
    const red = all.companies.find((c) => c.symbol === 'REDSTONE')!;
    expect(red.score).toBe(127);
    const one = await companyScorecard(t.engine, { identifier: 'REDSTONE', as_of: null });
    expect(one.rank).toBe(red.rank);
    expect(one.total_companies).toBe(40);
    const p1 = await scorecard(t.engine, { limit: 15, offset: 0, as_of: null });
    const p2 = await scorecard(t.engine, { limit: 15, offset: 15, as_of: null });
    expect([...p1.companies, ...p2.companies].map((c) => c.symbol)).toEqual(all.companies.slice(0, 30).map((c) => c.symbol));
    const past = await scorecard(t.engine, { limit: 5, offset: 400, as_of: null });
    expect(past.companies).toEqual([]);
    expect(past.total).toBe(40);
  });
});
