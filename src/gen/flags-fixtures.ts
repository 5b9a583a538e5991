/**
 * Hand-built companies that exercise every scorecard rule, including its boundaries. Their rows are
 * written literally (no RNG), so a test can hold the scorecard against figures worked out by hand
 * from the rows below. All dates are on or before generation 1's as-of date (2026-11-13), so every
 * generation publishes them unchanged.
 */
import type { FlagsTable } from '../core/contract/flags.js';
import { isinFor } from './flags-companies.js';
import { stageLabel, type GenRow } from './flags-tables.js';

export interface ScorecardCase {
  symbol: string;
  isin: string;
  company_name: string;
  /** What the case exercises. */
  purpose: string;
  rows: Partial<Record<FlagsTable, GenRow[]>>;
}

type Who = { symbol: string; isin: string; company_name: string };

function rating(w: Who, date: string, agency: string, rating: string, grade: string, previous: string | null, action: string, outlook: string | null, watch: string | null = null, instrument = 'Long-term bank facilities'): GenRow {
  const scale = /^(Short|Commercial)/.test(instrument) ? 'short_term' : 'long_term';
  return { ...w, rating_date: date, agency, instrument, instrument_amount_cr: 250, rating_scale: scale, rating, rating_grade: grade, previous_grade: previous, rating_action: action, outlook, watch };
}

function pledge(w: Who, quarter: string, pledgedPct: number): GenRow {
  // 100,000,000 shares, promoters hold 52,000,000 (52.00 %).
  const pledged = Math.round(52_000_000 * pledgedPct) / 100;
  return {
    ...w, quarter_end: quarter, total_shares: 100_000_000, promoter_shares: 52_000_000, pledged_shares: pledged,
    promoter_holding_pct: 52, pledged_pct_of_promoter: pledgedPct, pledged_pct_of_total: Math.round(pledged / 10_000) / 100,
  };
}

function encumbrance(w: Who, date: string, type: string, pct: number, after: number): GenRow {
  return {
    ...w, event_date: date, disclosure_date: date, promoter_name: 'Vikram Rathore', event_type: type, shares: pct * 1_000_000,
    pct_of_total_shares: pct, encumbered_after_pct: after, lender: 'Catalyst Trusteeship Limited', reason: type === 'Creation' ? 'Personal borrowing of the promoter' : null,
  };
}

function trade(w: Who, date: string, person: string, category: string, type: string, valueInr: number): GenRow {
  return {
    ...w, transaction_date: date, disclosure_date: date, person_name: person, person_category: category, transaction_type: type,
    mode: type === 'Buy' ? 'Market Purchase' : 'Market Sale', securities: valueInr / 100, value_inr: valueInr, holding_before_pct: null, holding_after_pct: null,
  };
}

function flag(w: Who, exchange: string, framework: string, stage: number, since: string): GenRow {
  return { ...w, snapshot_date: '2026-11-13', exchange, framework, stage, stage_label: stageLabel(framework, stage), effective_date: since };
}

function rpt(w: Who, period: string, counterparty: string, relationship: string, nature: string, amount: number, revenue: number | null): GenRow {
  return { ...w, period_end: period, counterparty, relationship, nature, amount_cr: amount, half_year_revenue_cr: revenue };
}

const RED: Who = { symbol: 'REDSTONE', isin: isinFor('F01R'), company_name: 'Redstone Infra Projects Limited' };
const CLEAN: Who = { symbol: 'CLEARWATR', isin: isinFor('F02C'), company_name: 'Clearwater Consumer Products Limited' };
const EDGE: Who = { symbol: 'MERIDTEX', isin: isinFor('F03M'), company_name: 'Meridian Textiles Limited' };
const SPARSE: Who = { symbol: 'SAPPHAGRO', isin: isinFor('F04S'), company_name: 'Sapphire Agro Foods Limited' };

export const TINY_SCORECARD_CASES: readonly ScorecardCase[] = [
  {
    ...RED,
    purpose: 'every signal high: capped downgrades and invocations, GSM beats LT-ASM, promoter selling over ₹100 crore',
    rows: {
      credit_ratings: [
        rating(RED, '2025-06-10', 'CARE', 'CARE BBB+', 'BBB+', null, 'Assigned', 'Stable'),
        rating(RED, '2025-09-01', 'ICRA', '[ICRA]BBB-', 'BBB-', null, 'Assigned', 'Stable', null, 'Non-convertible debentures'),
        rating(RED, '2026-01-15', 'CARE', 'CARE BB+', 'BB+', 'BBB+', 'Downgraded', 'Negative'),
        rating(RED, '2026-05-20', 'ICRA', '[ICRA]BB-', 'BB-', 'BBB-', 'Downgraded', null, 'Negative', 'Non-convertible debentures'),
        rating(RED, '2026-08-05', 'CARE', 'CARE B+', 'B+', 'BB+', 'Downgraded', 'Negative'),
        rating(RED, '2026-10-01', 'CARE', 'CARE A4', 'A4', 'A4+', 'Downgraded', null, null, 'Short-term bank facilities'),
      ],
      pledge_data: [
        pledge(RED, '2025-09-30', 40),
        pledge(RED, '2025-12-31', 45),
        pledge(RED, '2026-03-31', 55),
        pledge(RED, '2026-06-30', 62.5),
        pledge(RED, '2026-09-30', 78),
      ],
      encumbrance_events: [
        encumbrance(RED, '2025-10-01', 'Invocation', 1, 30),
        encumbrance(RED, '2026-02-10', 'Creation', 2, 32),
        encumbrance(RED, '2026-07-15', 'Invocation', 1.5, 30.5),
        encumbrance(RED, '2026-09-20', 'Invocation', 2, 28.5),
        encumbrance(RED, '2026-10-30', 'Invocation', 3, 25.5),
      ],
      insider_trading: [
        trade(RED, '2025-10-10', 'Vikram Rathore', 'Promoter', 'Sell', 2_000_000_000),
        trade(RED, '2026-03-03', 'Vikram Rathore', 'Promoter', 'Sell', 600_000_000),
        trade(RED, '2026-04-01', 'Sunita Rao', 'Director', 'Sell', 50_000_000),
        trade(RED, '2026-05-05', 'Vikram Rathore', 'Promoter', 'Buy', 100_000_000),
        trade(RED, '2026-09-09', 'Rathore Family Trust', 'Promoter Group', 'Sell', 450_000_000),
      ],
      surveillance_flags: [flag(RED, 'NSE', 'GSM', 2, '2026-09-04'), flag(RED, 'BSE', 'LT-ASM', 4, '2026-08-07')],
      rpt_transactions: [
        rpt(RED, '2026-03-31', 'Vikram Rathore', 'Promoter', 'Loans taken', 100, 900),
        rpt(RED, '2026-09-30', 'Rathore Realty Private Limited', 'Promoter Group Entity', 'Loans given', 300, 800),
        rpt(RED, '2026-09-30', 'Redstone Overseas Private Limited', 'Subsidiary', 'Guarantee given', 150.5, 800),
        rpt(RED, '2026-09-30', 'Vikram Rathore', 'Promoter', 'Rent paid', 49.5, 800),
      ],
    },
  },
  {
    ...CLEAN,
    purpose: 'no red flags: an upgrade is not a downgrade, zero pledge, promoter buying only, small RPT',
    rows: {
      credit_ratings: [
        rating(CLEAN, '2025-12-01', 'CRISIL', 'CRISIL AAA', 'AAA', 'AA+', 'Upgraded', 'Stable'),
        rating(CLEAN, '2026-04-01', 'CRISIL', 'CRISIL AAA', 'AAA', 'AAA', 'Reaffirmed', 'Stable'),
      ],
      pledge_data: [pledge(CLEAN, '2025-09-30', 0), pledge(CLEAN, '2026-09-30', 0)],
      insider_trading: [trade(CLEAN, '2026-06-15', 'Anil Mehra', 'Promoter', 'Buy', 30_000_000)],
      rpt_transactions: [rpt(CLEAN, '2026-09-30', 'Clearwater Retail Private Limited', 'Subsidiary', 'Sale of goods', 20, 1000)],
    },
  },
  {
    ...EDGE,
    purpose: 'every threshold met exactly; a downgrade on the window start is outside it; a same-day tie takes the worse grade; withdrawn ignored',
    rows: {
      credit_ratings: [
        rating(EDGE, '2025-11-13', 'India Ratings', 'IND BBB-', 'BBB-', 'A-', 'Downgraded', 'Stable'),
        rating(EDGE, '2025-11-14', 'Brickwork', 'BWR BB', 'BB', 'BBB', 'Downgraded', 'Stable'),
        rating(EDGE, '2025-11-14', 'Infomerics', 'IVR BB-', 'BB-', null, 'Assigned', 'Stable'),
        rating(EDGE, '2026-06-01', 'Brickwork', 'BWR BB', 'BB', 'BB', 'Withdrawn', null),
      ],
      pledge_data: [pledge(EDGE, '2025-09-30', 15), pledge(EDGE, '2026-09-30', 25)],
      encumbrance_events: [encumbrance(EDGE, '2026-11-13', 'Invocation', 1, 12)],
      insider_trading: [trade(EDGE, '2026-02-02', 'Harish Kulkarni', 'Promoter', 'Sell', 100_000_000)],
      surveillance_flags: [flag(EDGE, 'NSE', 'ST-ASM', 2, '2026-11-06')],
      rpt_transactions: [rpt(EDGE, '2026-09-30', 'Meridian Exports Private Limited', 'Subsidiary', 'Sale of goods', 100, 1000)],
    },
  },
  {
    ...SPARSE,
    purpose: 'missing data: no rating, no quarter a year back (no trend), RPT revenue not filed',
    rows: {
      pledge_data: [pledge(SPARSE, '2026-03-31', 2), pledge(SPARSE, '2026-06-30', 5)],
      surveillance_flags: [flag(SPARSE, 'NSE', 'LT-ASM', 1, '2026-10-02')],
      rpt_transactions: [rpt(SPARSE, '2026-09-30', 'Sapphire Agri LLP', 'Entity controlled by KMP', 'Purchase of goods', 50, null)],
    },
  },
];
