/**
 * Row builders for the seven red-flag tables. Each company's history is simulated forward from a
 * fixed start with its own keyed RNG stream and cut at the publish date, so generation N+1 holds
 * generation N's events plus the new ones, and a table whose cut did not move is byte-identical.
 */
import {
  LONG_TERM_GRADES,
  SHORT_TERM_GRADES,
  RATING_AGENCIES,
  type FlagsTable,
} from '../core/contract/flags.js';
import type { Company } from './flags-companies.js';
import { personName, SURNAMES } from './flags-companies.js';
import { Rng } from './random.js';

export type GenRow = Record<string, string | number | null>;

const HISTORY_START = '2023-01-02';
/** Surveillance lists are simulated weekly (Fridays) from here. */
const SURVEILLANCE_START = '2025-01-03';
/** Shareholding patterns are filed within 21 days of the quarter end. */
const PLEDGE_LAG_DAYS = 21;
/** Quarters of pledge levels kept: two years, enough for a year-on-year trend. */
const PLEDGE_QUARTERS = 8;
/** Half-yearly RPT disclosures arrive with the results, about a month after the period end. */
const RPT_LAG_DAYS = 30;

// ---------------------------------------------------------------------------------------------
// Dates (ISO strings; UTC arithmetic)

const DAY = 86_400_000;
const ms = (iso: string): number => Date.parse(`${iso}T00:00:00Z`);
const iso = (t: number): string => new Date(t).toISOString().slice(0, 10);
export const addDays = (d: string, n: number): string => iso(ms(d) + n * DAY);

function monthEnd(year: number, month0: number): string {
  return iso(Date.UTC(year, month0 + 1, 0));
}

/** Quarter ends (Mar, Jun, Sep, Dec) from `from` through `to`, oldest first. */
function quarterEnds(from: string, to: string): string[] {
  const out: string[] = [];
  for (let y = Number(from.slice(0, 4)); y <= Number(to.slice(0, 4)); y++) {
    for (const m of [2, 5, 8, 11]) {
      const q = monthEnd(y, m);
      if (q >= from && q <= to) out.push(q);
    }
  }
  return out;
}

function halfYearEnds(from: string, to: string): string[] {
  return quarterEnds(from, to).filter((q) => q.slice(5, 7) === '03' || q.slice(5, 7) === '09');
}

/** Gap to the next event of a Poisson process with `perMonth` events a month. */
function gapDays(rng: Rng, perMonth: number): number {
  return Math.max(1, Math.round((-Math.log(1 - rng.next()) * 30.4) / perMonth));
}

const round2 = (x: number): number => Math.round(x * 100) / 100;
const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));

function identity(c: Company): GenRow {
  return { symbol: c.symbol, isin: c.isin, company_name: c.company_name };
}

// ---------------------------------------------------------------------------------------------
// credit_ratings

const AGENCY_STYLE: Readonly<Record<(typeof RATING_AGENCIES)[number], (g: string) => string>> = {
  CRISIL: (g) => `CRISIL ${g}`,
  ICRA: (g) => `[ICRA]${g}`,
  CARE: (g) => `CARE ${g}`,
  'India Ratings': (g) => `IND ${g}`,
  Brickwork: (g) => `BWR ${g}`,
  'Acuité': (g) => `ACUITE ${g}`,
  Infomerics: (g) => `IVR ${g}`,
};

const INSTRUMENTS: ReadonlyArray<readonly [string, 'long_term' | 'short_term']> = [
  ['Long-term bank facilities', 'long_term'],
  ['Non-convertible debentures', 'long_term'],
  ['Short-term bank facilities', 'short_term'],
  ['Commercial paper', 'short_term'],
];

/** The short-term grade agencies pair with a long-term one (the usual mapping table). */
function shortTermFor(longIdx: number): string {
  const map = [0, 0, 0, 0, 1, 1, 2, 3, 3, 4, 6, 6, 7, 7, 7, 7, 7, 8];
  return SHORT_TERM_GRADES[map[longIdx]];
}

export function creditRatings(c: Company, seed: number, asOf: string): GenRow[] {
  const rng = new Rng(seed, `flags:ratings:${c.symbol}`);
  if (!rng.chance(0.5 + 0.4 * (1 - c.risk))) return [];
  const chosen: (typeof RATING_AGENCIES)[number][] = [];
  const n = rng.int(1, 3);
  while (chosen.length < n) {
    const a = rng.pick(RATING_AGENCIES);
    if (!chosen.includes(a)) chosen.push(a);
  }
  const base = clamp(Math.round(c.risk * 13 + rng.normal() * 1.5), 0, 15);
  const rows: GenRow[] = [];
  for (const agency of chosen) {
    const a = rng.fork(agency);
    const instruments = INSTRUMENTS.filter((_, i) => i === 0 || a.chance(0.35));
    const amounts = instruments.map(() => round2(c.revenue_cr * (0.05 + a.next() * 0.6)));
    let grade = clamp(base + a.int(-1, 1), 0, 16);
    let prev: number | null = null;
    let outlook = 'Stable';
    let date = addDays(HISTORY_START, a.int(0, 360));
    let first = true;
    while (date <= asOf) {
      let action: string;
      let watch: string | null = null;
      if (first) action = 'Assigned';
      else if (a.chance(0.012)) action = 'Withdrawn';
      else if (grade < 17 && a.chance(0.04 + 0.3 * c.risk)) {
        prev = grade;
        grade = Math.min(17, grade + (c.risk > 0.8 && a.chance(0.15) ? 17 : a.chance(0.75) ? 1 : 2));
        action = 'Downgraded';
        outlook = a.chance(0.5) ? 'Negative' : 'Stable';
      } else if (grade > 0 && grade < 17 && a.chance(0.14 * (1 - c.risk))) {
        prev = grade;
        grade -= 1;
        action = 'Upgraded';
        outlook = a.chance(0.3) ? 'Positive' : 'Stable';
      } else if (a.chance(0.08 * c.risk)) {
        action = 'Placed on Watch';
        watch = 'Negative';
      } else if (a.chance(0.08)) {
        action = 'Outlook Revised';
        outlook = a.pick(['Stable', 'Positive', 'Negative', 'Stable'] as const);
      } else {
        action = 'Reaffirmed';
      }
      instruments.forEach(([instrument, scale], i) => {
        const g = scale === 'long_term' ? LONG_TERM_GRADES[Math.min(grade, 17)] : shortTermFor(grade);
        const pg = prev === null || action === 'Assigned' ? null : scale === 'long_term' ? LONG_TERM_GRADES[prev] : shortTermFor(prev);
        rows.push({
          ...identity(c),
          rating_date: date,
          agency,
          instrument,
          instrument_amount_cr: amounts[i],
          rating_scale: scale,
          rating: AGENCY_STYLE[agency](g),
          rating_grade: g,
          previous_grade: action === 'Downgraded' || action === 'Upgraded' ? pg : first ? null : g,
          rating_action: action,
          outlook: scale === 'long_term' && watch === null && grade < 17 ? outlook : null,
          watch,
        });
      });
      if (action === 'Withdrawn') break;
      first = false;
      prev = grade;
      // Annual surveillance, sooner when the credit is under stress.
      date = addDays(date, c.risk > 0.5 && a.chance(0.5) ? a.int(60, 200) : a.int(300, 400));
    }
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// insider_trading

export function insiderTrading(c: Company, seed: number, asOf: string): GenRow[] {
  const rng = new Rng(seed, `flags:insider:${c.symbol}`);
  const perMonth = 0.1 + 1.2 * c.risk + rng.next() * 0.4;
  let price = c.price;
  const holding = new Map<string, number>();
  const rows: GenRow[] = [];
  for (let date = addDays(HISTORY_START, gapDays(rng, perMonth)); date <= asOf; date = addDays(date, gapDays(rng, perMonth))) {
    price = Math.max(1, price * Math.exp(rng.normal() * 0.06));
    const u = rng.next();
    const category = u < 0.3 ? 'Promoter' : u < 0.45 ? 'Promoter Group' : u < 0.75 ? 'Director' : 'KMP';
    const promoterSide = category === 'Promoter' || category === 'Promoter Group';
    const person = rng.pick(
      category === 'Promoter' ? c.promoters : category === 'Promoter Group' ? c.promoter_group : category === 'Director' ? c.directors : c.kmp,
    );
    const t = rng.next();
    const type = promoterSide
      ? t < 0.2 + 0.45 * c.risk ? 'Sell' : t < 0.7 ? 'Buy' : c.pledges && t < 0.88 ? 'Pledge' : c.pledges ? 'Revoke' : 'Buy'
      : t < 0.45 ? 'Sell' : 'Buy';
    const securities = promoterSide
      ? Math.max(100, Math.round(c.total_shares * (0.0002 + rng.next() * 0.01)))
      : rng.int(5, 2000) * 50;
    const before = holding.get(person) ?? (promoterSide ? 5 + rng.next() * 30 : rng.next() * 0.5);
    const delta = (securities / c.total_shares) * 100 * (type === 'Buy' ? 1 : type === 'Sell' ? -1 : 0);
    const after = clamp(before + delta, 0, 100);
    holding.set(person, after);
    const mode =
      type === 'Pledge' ? 'Pledge Creation'
      : type === 'Revoke' ? 'Pledge Revocation'
      : category === 'KMP' && type === 'Buy' && rng.chance(0.5) ? 'ESOP'
      : promoterSide && rng.chance(0.2) ? (rng.chance(0.5) ? 'Off Market' : 'Inter-se Transfer')
      : type === 'Buy' ? 'Market Purchase' : 'Market Sale';
    const disclosure = addDays(date, rng.int(0, 3));
    if (disclosure > asOf) continue;
    rows.push({
      ...identity(c),
      transaction_date: date,
      disclosure_date: disclosure,
      person_name: person,
      person_category: category,
      transaction_type: type,
      mode,
      securities,
      value_inr: round2(securities * price),
      holding_before_pct: round2(before),
      holding_after_pct: round2(after),
    });
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// pledge_data

export function pledgeData(c: Company, seed: number, asOf: string): GenRow[] {
  const rng = new Rng(seed, `flags:pledge:${c.symbol}`);
  const published = quarterEnds(HISTORY_START, asOf).filter((q) => addDays(q, PLEDGE_LAG_DAYS) <= asOf);
  let holding = 30 + rng.next() * 45;
  let pledged = c.pledges ? rng.next() * (10 + 50 * c.risk) : 0;
  const rows: GenRow[] = [];
  for (const q of published) {
    holding = clamp(holding + (rng.chance(0.3) ? rng.normal() * 0.8 : 0), 20, 75);
    if (c.pledges) pledged = clamp(pledged + (c.risk - 0.35) * 6 + rng.normal() * 4, 0, 98);
    const promoterShares = Math.round((c.total_shares * holding) / 100);
    const pledgedShares = Math.round((promoterShares * pledged) / 100);
    rows.push({
      ...identity(c),
      quarter_end: q,
      total_shares: c.total_shares,
      promoter_shares: promoterShares,
      pledged_shares: pledgedShares,
      promoter_holding_pct: round2((promoterShares / c.total_shares) * 100),
      pledged_pct_of_promoter: round2(promoterShares ? (pledgedShares / promoterShares) * 100 : 0),
      pledged_pct_of_total: round2((pledgedShares / c.total_shares) * 100),
    });
  }
  return rows.slice(-PLEDGE_QUARTERS);
}

// ---------------------------------------------------------------------------------------------
// sast_disclosures

const INVESTORS = [
  'Elara India Opportunities Fund', 'Nalanda India Equity Fund', 'Vanguard Emerging Markets Fund', 'Goldman Sachs India Ltd',
  'Plutus Wealth Management LLP', 'Abakkus Growth Fund', 'Societe Generale ODI', 'Morgan Stanley Asia (Singapore) Pte',
  'HDFC Mutual Fund', 'SBI Mutual Fund', 'Nippon India Mutual Fund', 'Life Insurance Corporation of India',
];

export function sastDisclosures(c: Company, seed: number, asOf: string): GenRow[] {
  const rng = new Rng(seed, `flags:sast:${c.symbol}`);
  const perMonth = 0.03 + 0.25 * c.risk;
  const rows: GenRow[] = [];
  let promoterPct = 35 + rng.next() * 35;
  for (let date = addDays(HISTORY_START, gapDays(rng, perMonth)); date <= asOf; date = addDays(date, gapDays(rng, perMonth))) {
    const u = rng.next();
    let acquirer: string;
    let category: string;
    let regulation: string;
    let type: string;
    let before: number | null;
    let after: number | null;
    const pct = round2(0.5 + rng.next() * (3 + 4 * c.risk));
    if (u < 0.3) {
      acquirer = rng.pick(INVESTORS);
      category = 'Non-promoter';
      const buy = rng.chance(0.6);
      regulation = buy ? 'Reg. 29(1)' : 'Reg. 29(2)';
      type = buy ? 'Acquisition' : 'Sale';
      before = round2(buy ? 4 + rng.next() * 0.99 - pct / 10 : 5 + pct + rng.next() * 3);
      after = round2(buy ? before + pct : before - pct);
    } else if (u < 0.65 || !c.pledges) {
      acquirer = rng.pick([...c.promoters, ...c.promoter_group]);
      category = c.promoters.includes(acquirer) ? 'Promoter' : 'Promoter Group';
      const sell = rng.chance(0.3 + 0.5 * c.risk);
      regulation = rng.chance(0.15) ? 'Reg. 10(6)' : 'Reg. 29(2)';
      type = sell ? 'Sale' : 'Acquisition';
      before = round2(promoterPct);
      promoterPct = clamp(promoterPct + (sell ? -pct : pct), 5, 75);
      after = round2(promoterPct);
    } else {
      acquirer = rng.pick(c.promoters);
      category = 'Promoter';
      const create = rng.chance(0.6);
      regulation = create ? 'Reg. 31(1)' : 'Reg. 31(2)';
      type = create ? 'Encumbrance' : 'Release';
      before = null;
      after = null;
    }
    const disclosure = addDays(date, rng.int(0, 2));
    if (disclosure > asOf) continue;
    rows.push({
      ...identity(c),
      disclosure_date: disclosure,
      transaction_date: rng.chance(0.05) ? null : date,
      acquirer_name: acquirer,
      acquirer_category: category,
      regulation,
      transaction_type: type,
      shares: Math.max(1, Math.round((c.total_shares * pct) / 100)),
      holding_before_pct: before === null ? null : clamp(before, 0, 100),
      holding_after_pct: after === null ? null : clamp(after, 0, 100),
    });
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// encumbrance_events

const LENDERS = [
  'State Bank of India', 'HDFC Bank Limited', 'ICICI Bank Limited', 'Axis Bank Limited', 'Kotak Mahindra Prime Limited',
  'Bajaj Finance Limited', 'Tata Capital Financial Services', 'IDBI Trusteeship Services Limited',
  'Catalyst Trusteeship Limited', 'Aditya Birla Finance Limited', 'JM Financial Products Limited', 'Piramal Capital & Housing Finance',
];
const REASONS = [
  'Collateral for loans availed by the company', 'Personal borrowing of the promoter', 'Collateral for loans to group entities',
  'Margin for loan against shares', 'Non-disposal undertaking',
];

export function encumbranceEvents(c: Company, seed: number, asOf: string): GenRow[] {
  if (!c.pledges) return [];
  const rng = new Rng(seed, `flags:encumbrance:${c.symbol}`);
  const perMonth = 0.15 + 0.7 * c.risk;
  const rows: GenRow[] = [];
  const held = new Map<string, number>(c.promoters.map((p) => [p, 0]));
  for (let date = addDays(HISTORY_START, gapDays(rng, perMonth)); date <= asOf; date = addDays(date, gapDays(rng, perMonth))) {
    const promoter = rng.pick(c.promoters);
    const current = held.get(promoter) ?? 0;
    const u = rng.next();
    const type = current <= 0 || u < 0.5 ? 'Creation' : u < 1 - 0.3 * c.risk ? 'Release' : 'Invocation';
    const pct = type === 'Creation' ? round2(0.2 + rng.next() * 4) : round2(Math.min(current, 0.1 + rng.next() * current));
    if (pct <= 0) continue;
    const after = round2(clamp(current + (type === 'Creation' ? pct : -pct), 0, 100));
    held.set(promoter, after);
    const disclosure = addDays(date, rng.int(1, 7));
    if (disclosure > asOf) continue;
    rows.push({
      ...identity(c),
      event_date: date,
      disclosure_date: disclosure,
      promoter_name: promoter,
      event_type: type,
      shares: Math.max(1, Math.round((c.total_shares * pct) / 100)),
      pct_of_total_shares: pct,
      encumbered_after_pct: after,
      lender: rng.chance(0.05) ? null : rng.pick(LENDERS),
      reason: type === 'Creation' ? rng.pick(REASONS) : null,
    });
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// surveillance_flags (snapshot)

const ROMAN = ['0', 'I', 'II', 'III', 'IV', 'V', 'VI'];
export const stageLabel = (framework: string, stage: number): string => `${framework} Stage ${ROMAN[stage]}`;

/** The surveillance state as of `asOf`, simulated week by week so each publish moves a little. */
export function surveillanceFlags(c: Company, seed: number, asOf: string): GenRow[] {
  const rng = new Rng(seed, `flags:surveillance:${c.symbol}`);
  const onBse = rng.chance(0.6);
  let framework: string | null = null;
  let stage = 0;
  let since = '';
  for (let week = SURVEILLANCE_START; week <= asOf; week = addDays(week, 7)) {
    const u = rng.next();
    const v = rng.next();
    if (framework === null) {
      if (u < 0.002 + 0.03 * c.risk ** 2) {
        framework = c.risk > 0.8 && v < 0.3 ? 'GSM' : v < 0.7 ? 'LT-ASM' : 'ST-ASM';
        stage = framework === 'GSM' ? 0 : 1;
        since = week;
      }
    } else if (framework === 'ST-ASM') {
      if (u < 0.25) framework = null;
      else if (u < 0.35 && stage < 2) [stage, since] = [2, week];
    } else if (framework === 'LT-ASM') {
      if (u < 0.04) framework = null;
      else if (u < 0.09 && stage < 4) [stage, since] = [stage + 1, week];
      else if (u < 0.13 && stage > 1) [stage, since] = [stage - 1, week];
    } else {
      if (u < 0.01) framework = null;
      else if (u < 0.05 && stage < 6) [stage, since] = [stage + 1, week];
    }
  }
  if (framework === null) return [];
  const exchanges = onBse ? ['NSE', 'BSE'] : ['NSE'];
  return exchanges.map((exchange) => ({
    ...identity(c),
    snapshot_date: asOf,
    exchange,
    framework,
    stage,
    stage_label: stageLabel(framework!, stage),
    effective_date: since,
  }));
}

// ---------------------------------------------------------------------------------------------
// rpt_transactions

const NATURES_BY_RELATIONSHIP: Readonly<Record<string, readonly string[]>> = {
  Subsidiary: ['Sale of goods', 'Purchase of goods', 'Loans given', 'Investment', 'Guarantee given', 'Interest received'],
  Associate: ['Sale of goods', 'Investment', 'Services rendered'],
  'Joint Venture': ['Sale of goods', 'Loans given', 'Investment'],
  Promoter: ['Loans taken', 'Rent paid', 'Interest paid'],
  'Promoter Group Entity': ['Purchase of goods', 'Services received', 'Loans given', 'Sale of goods'],
  KMP: ['Remuneration'],
  'Relative of KMP': ['Remuneration', 'Rent paid'],
  'Entity controlled by KMP': ['Services received', 'Purchase of goods'],
};

export function rptTransactions(c: Company, seed: number, asOf: string): GenRow[] {
  const rng = new Rng(seed, `flags:rpt:${c.symbol}`);
  const firstWord = c.company_name.split(' ')[0];
  const parties: Array<[string, string]> = [
    [`${firstWord} ${rng.pick(['Exports', 'Retail', 'Energy', 'Overseas', 'Trading'])} Private Limited`, 'Subsidiary'],
    [c.promoters[0], 'Promoter'],
    [c.kmp[0], 'KMP'],
  ];
  if (rng.chance(0.6)) parties.push([c.promoter_group[1], 'Promoter Group Entity']);
  if (rng.chance(0.4)) parties.push([`${firstWord} ${rng.pick(['Infra', 'Logistics', 'Agri'])} LLP`, 'Entity controlled by KMP']);
  if (rng.chance(0.4)) parties.push([`${rng.pick(SURNAMES)} ${rng.pick(['Mitsui', 'Global', 'Tech'])} JV Limited`, 'Joint Venture']);
  if (rng.chance(0.3)) parties.push([personName(rng, c.kmp[0].split(' ')[1]), 'Relative of KMP']);
  if (rng.chance(0.3)) parties.push([`${rng.pick(SURNAMES)} Associates Limited`, 'Associate']);
  const intensity = 0.01 + rng.next() * 0.1 + 0.5 * c.risk ** 2;
  const rows: GenRow[] = [];
  for (const period of halfYearEnds(HISTORY_START, asOf)) {
    if (addDays(period, RPT_LAG_DAYS) > asOf) continue;
    const revenue = round2(c.revenue_cr * (0.9 + rng.next() * 0.2));
    const revenueShown = rng.chance(0.03) ? null : revenue;
    for (const [counterparty, relationship] of parties) {
      if (!rng.chance(0.8)) continue;
      const natures = NATURES_BY_RELATIONSHIP[relationship];
      const k = rng.int(1, Math.min(2, natures.length));
      for (let i = 0; i < k; i++) {
        const nature = natures[(rng.int(0, natures.length - 1) + i) % natures.length];
        const share = nature === 'Remuneration' ? 0.0005 + rng.next() * 0.002 : (intensity * (0.2 + rng.next())) / parties.length;
        rows.push({
          ...identity(c),
          period_end: period,
          counterparty,
          relationship,
          nature,
          amount_cr: Math.max(0.01, round2(revenue * share)),
          half_year_revenue_cr: revenueShown,
        });
      }
    }
  }
  return rows;
}

export const BUILDERS: Readonly<Record<FlagsTable, (c: Company, seed: number, asOf: string) => GenRow[]>> = {
  credit_ratings: creditRatings,
  insider_trading: insiderTrading,
  pledge_data: pledgeData,
  sast_disclosures: sastDisclosures,
  encumbrance_events: encumbranceEvents,
  surveillance_flags: surveillanceFlags,
  rpt_transactions: rptTransactions,
};
