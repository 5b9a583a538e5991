/**
 * The MF scheme universe: every scheme code ever published, with its identity, classification, life
 * span and NAV-path parameters. It depends on (scale, seed) only, never on the generation: a generation
 * shows the schemes whose first NAV is on or before its as-of date, clipped there.
 *
 * Tiny is a fixed fixture (CASE_FAMILIES only, structure independent of the seed) so tests can name
 * scheme codes; demo and full add random families around the same fixture.
 */
import { TXIC_CODES, type CategoryGroupClean, type SchemeOption, type SchemePlan, type SchemeType } from '../core/contract/mf.js';
import { withCheckDigit } from '../core/contract/isin.js';
import {
  AMCS, CLOSED_CATEGORIES, INTERVAL_STEMS, SUB_CATEGORIES, type Amc, type NavModel, type SubCategory,
} from './mf-vocab.js';
import { businessOnOrAfter, businessOnOrBefore, dayNumber, FACTOR_COUNT, GOLD_FACTOR, OVERSEAS_FACTOR } from './mf-calendar.js';
import type { Scale } from './options.js';
import { FIRST_AS_OF as FIRST_AS_OF_ISO } from './timeline.js';
import { Rng } from './random.js';

/** Open-ended schemes run past any horizon. */
export const OPEN_END = 1_000_000;

const DIRECT_START = dayNumber('2013-01-01');
const SEBI_RECAT = dayNumber('2018-06-01');
const IDCW_RENAME = dayNumber('2021-04-01');
const FIRST_AS_OF = dayNumber(FIRST_AS_OF_ISO);
/** Launches are drawn up to this day, so later generations gain new schemes. */
const LAUNCH_HORIZON = FIRST_AS_OF + 120;

export type EndKind = 'active' | 'matured' | 'wound_up' | 'merged' | 'stopped';

/** A fund's NAV path (the terms of Scheme's log level below); each variant adjusts lnBase and alpha. */
interface PathParams {
  model: NavModel;
  lnBase: number;
  alpha: number;
  bm: number;
  ba: number;
  br: number;
  bf: number;
  fk: number;
  eps: number;
}

export interface Scheme extends PathParams {
  code: number;
  familyCode: number;
  /** Index of the fund (path family); merger successors share their predecessor's. */
  family: number;
  isin: string | null;
  isin2: string | null;
  name: string;
  fundName: string;
  amc: string;
  schemeType: SchemeType;
  category: string;
  categorySub: string | null;
  categoryGroup: string;
  clean: CategoryGroupClean;
  txic: string | null;
  plan: SchemePlan;
  option: SchemeOption;
  idcwFrequency: string | null;
  /** First and last possible NAV day numbers (last = OPEN_END while running). */
  first: number;
  last: number;
  end: EndKind;
  zeroEnd: boolean;
  weekend: boolean;
  gapFrom: number;
  gapTo: number;
  decimals: number;
  maturity: number | null;
  tenureDays: number | null;
  intervalDays: number | null;
  mergedInto: number | null;
  /** Set on a merger successor: the code whose history it continues. */
  continues: number | null;
  /** NAV path: log level = lnBase + alpha·t + bm·ΔM + ba·ΔA + br·ΔR + bf·ΔF_fk + eps·z, t from dn0. */
  dn0: number;
  /** Daily-IDCW variants hover at their face value instead of compounding. */
  flat: boolean;
  /** Fund size in crores this variant carries when fully live over a quarter. */
  aumCr: number;
  faceValue: number;
}

/** One hidden class for every scheme (spread-built objects of this size fall into slow dictionary mode). */
function shaped(x: Scheme): Scheme {
  return {
    code: x.code,
    familyCode: x.familyCode,
    family: x.family,
    isin: x.isin,
    isin2: x.isin2,
    name: x.name,
    fundName: x.fundName,
    amc: x.amc,
    schemeType: x.schemeType,
    category: x.category,
    categorySub: x.categorySub,
    categoryGroup: x.categoryGroup,
    clean: x.clean,
    txic: x.txic,
    plan: x.plan,
    option: x.option,
    idcwFrequency: x.idcwFrequency,
    model: x.model,
    first: x.first,
    last: x.last,
    end: x.end,
    zeroEnd: x.zeroEnd,
    weekend: x.weekend,
    gapFrom: x.gapFrom,
    gapTo: x.gapTo,
    decimals: x.decimals,
    maturity: x.maturity,
    tenureDays: x.tenureDays,
    intervalDays: x.intervalDays,
    mergedInto: x.mergedInto,
    continues: x.continues,
    dn0: x.dn0,
    lnBase: x.lnBase,
    alpha: x.alpha,
    bm: x.bm,
    ba: x.ba,
    br: x.br,
    bf: x.bf,
    fk: x.fk,
    eps: x.eps,
    flat: x.flat,
    aumCr: x.aumCr,
    faceValue: x.faceValue,
  };
}

interface Variant {
  plan: SchemePlan;
  option: SchemeOption;
  freq: string | null;
  from?: number;
  /** Both ISINs on one row (payout + reinvestment). */
  isins: 'growth' | 'both' | 'payout' | 'reinvest' | 'none';
}

type FamilyKind = 'open' | 'closed' | 'interval';

interface FamilySpec {
  amc: Amc;
  kind: FamilyKind;
  sub?: SubCategory;
  closed?: (typeof CLOSED_CATEGORIES)[number];
  stem: string;
  launch: number;
  /** Last NAV day when the family ends (maturity, wind-up, merger). */
  endAt?: number;
  endKind?: EndKind;
  zeroEnd?: boolean;
  /** Merge successor: the house and stem the fund continues under. */
  mergeTo?: { amc: Amc; stem: string };
  variants?: Variant[];
  gap?: [number, number];
  decimals?: number;
  odd?: 'double' | 'trailing';
  noIsin?: boolean;
  tenure?: number;
  interval?: number;
  /** Case labels this family carries (tiny fixture and data_quality). */
  cases?: string[];
}

export interface Universe {
  schemes: Scheme[];
  /** Case label → scheme codes. */
  cases: Record<string, number[]>;
}

const amcByName = (name: string): Amc => {
  const a = AMCS.find((x) => x.name === name);
  if (!a) throw new Error(`unknown AMC ${name}`);
  return a;
};
const subByName = (name: string): SubCategory => {
  const s = SUB_CATEGORIES.find((x) => x.sub === name);
  if (!s) throw new Error(`unknown sub-category ${name}`);
  return s;
};
const d = dayNumber;

/**
 * The fixture every scale carries. Dates are relative to the first as-of day where they must straddle
 * generation 1 → 2 (asOf moves 2026-11-13 → 2026-11-20).
 */
function caseFamilies(): FamilySpec[] {
  const G = FIRST_AS_OF;
  return [
    { amc: amcByName('HDFC Mutual Fund'), kind: 'open', sub: subByName('Flexi Cap Fund'), stem: 'Equity Fund', launch: 0, decimals: 3, cases: ['equity_pre_existing', 'plan_other', 'crash_2008_2020', 'nav_decimals_3'] },
    { amc: amcByName('SBI Mutual Fund'), kind: 'open', sub: subByName('Large Cap Fund'), stem: 'Bluechip Fund', launch: d('2006-08-14'), decimals: 2, cases: ['nav_decimals_2', 'both_isins'] },
    { amc: amcByName('HDFC Mutual Fund'), kind: 'open', sub: subByName('Liquid Fund'), stem: 'Liquid Fund', launch: 0, cases: ['weekend_nav', 'daily_idcw_flat', 'reinvest_isin_only'] },
    { amc: amcByName('Axis Mutual Fund'), kind: 'open', sub: subByName('Overnight Fund'), stem: 'Overnight Fund', launch: d('2019-03-15'), cases: ['weekend_nav_overnight'] },
    { amc: amcByName('Kotak Mahindra Mutual Fund'), kind: 'closed', closed: CLOSED_CATEGORIES[0], stem: 'Fixed Maturity Plan - Series', launch: d('2016-03-10'), tenure: 1100, cases: ['matured_fmp'] },
    { amc: amcByName('Nippon India Mutual Fund'), kind: 'closed', closed: CLOSED_CATEGORIES[0], stem: 'Fixed Horizon Fund - Series', launch: d('2019-06-03'), tenure: 1180, zeroEnd: true, cases: ['zero_final_nav'] },
    { amc: amcByName('Kotak Mahindra Mutual Fund'), kind: 'interval', stem: 'Quarterly Interval Fund - Series', launch: d('2008-09-26'), endAt: d('2016-02-22'), endKind: 'matured', interval: 91, decimals: 2, cases: ['interval_matured', 'nav_decimals_2_interval'] },
    { amc: amcByName('L&T Mutual Fund'), kind: 'open', sub: subByName('Mid Cap Fund'), stem: 'Midcap Fund', launch: d('2010-07-09'), mergeTo: { amc: amcByName('HSBC Mutual Fund'), stem: 'Midcap Fund' }, cases: ['merger_old', 'merger_new'] },
    { amc: amcByName('DSP Mutual Fund'), kind: 'open', sub: subByName('Small Cap Fund'), stem: 'Small Cap Fund', launch: d('2014-06-16'), endAt: G - 24, endKind: 'stopped', cases: ['stale_active'] },
    { amc: amcByName('Tata Mutual Fund'), kind: 'open', sub: subByName('Short Duration Fund'), stem: 'Short Term Bond Fund', launch: d('2012-08-01'), gap: [d('2021-05-03'), d('2021-06-04')], cases: ['mid_history_gap'] },
    { amc: amcByName('ICICI Prudential Mutual Fund'), kind: 'open', sub: subByName('Aggressive Hybrid Fund'), stem: 'Equity & Debt Fund', launch: d('2015-01-05'), odd: 'double', cases: ['double_space_name'] },
    { amc: amcByName('UTI Mutual Fund'), kind: 'open', sub: subByName('Index Funds'), stem: 'Nifty 50 Index Fund', launch: d('2017-03-06'), odd: 'trailing', cases: ['trailing_space_name'] },
    { amc: amcByName('Franklin Templeton Mutual Fund'), kind: 'open', sub: subByName('Medium to Long Duration Fund'), stem: 'Income Builder Account', launch: 0, endAt: d('2012-03-30'), endKind: 'wound_up', noIsin: true, cases: ['no_isin', 'blank_sub_category', 'legacy_open_ended'] },
    { amc: amcByName('Mirae Asset Mutual Fund'), kind: 'open', sub: subByName('Flexi Cap Fund'), stem: 'Flexi Cap Fund', launch: d('2026-09-14'), cases: ['mid_quarter_launch'] },
    { amc: amcByName('Bajaj Finserv Mutual Fund'), kind: 'open', sub: subByName('Large Cap Fund'), stem: 'Large Cap Fund', launch: G + 4, cases: ['launch_in_gen2'] },
    { amc: amcByName('Aditya Birla Sun Life Mutual Fund'), kind: 'closed', closed: CLOSED_CATEGORIES[0], stem: 'Fixed Term Plan - Series', launch: d('2023-11-16'), endAt: businessOnOrBefore(G + 3), endKind: 'matured', tenure: G + 3 - d('2023-11-16'), cases: ['matures_in_gen2'] },
    { amc: amcByName('Nippon India Mutual Fund'), kind: 'open', sub: subByName('Gold ETF'), stem: 'ETF Gold BeES', launch: d('2007-03-08'), cases: ['gold_etf'] },
    { amc: amcByName('Motilal Oswal Mutual Fund'), kind: 'open', sub: subByName('FoF Overseas'), stem: 'Nasdaq 100 FoF', launch: d('2018-11-29'), cases: ['overseas_fof'] },
    { amc: amcByName('Quantum Mutual Fund'), kind: 'open', sub: subByName('ELSS'), stem: 'ELSS Tax Saver Fund', launch: d('2008-12-23'), cases: ['elss'] },
    { amc: amcByName('Sahara Mutual Fund'), kind: 'open', sub: subByName('Liquid Fund'), stem: 'Liquid Fund', launch: 0, cases: ['amc_wound_up'] },
    { amc: amcByName('Bandhan Mutual Fund'), kind: 'open', sub: subByName('Arbitrage Fund'), stem: 'Arbitrage Fund', launch: d('2006-12-21'), cases: ['arbitrage'] },
    { amc: amcByName('HSBC Mutual Fund'), kind: 'closed', closed: CLOSED_CATEGORIES[1], stem: 'Emerging Leaders Fund - Series', launch: d('2007-11-05'), tenure: 1830, cases: ['closed_equity_through_2008'] },
  ];
}

/** Which codes of a case family carry the case; by default every code except merger successors. */
const CASE_PREDICATES: Record<string, (s: Scheme) => boolean> = {
  merger_old: (s) => s.mergedInto !== null,
  merger_new: (s) => s.continues !== null,
  daily_idcw_flat: (s) => s.flat,
  reinvest_isin_only: (s) => s.isin === null && s.isin2 !== null,
  both_isins: (s) => s.isin !== null && s.isin2 !== null,
  zero_final_nav: (s) => s.zeroEnd,
  plan_other: (s) => s.plan === 'Other',
  double_space_name: (s) => s.name.includes('  '),
  trailing_space_name: (s) => s.name.endsWith(' '),
};

// ---------------------------------------------------------------------------------------------

const SCALE_SCHEMES: Record<Scale, number> = { tiny: 0, demo: 2000, full: 38000 };
const CODE_SPAN = 52_000;

export function buildUniverse(scale: Scale, seed: number): Universe {
  const structure = new Rng(scale === 'tiny' ? 0 : seed, `mf:universe:${scale}`);
  const families = caseFamilies();
  const target = SCALE_SCHEMES[scale];
  const pending: Scheme[] = [];
  const links: { pred: number; succ: number }[] = [];
  const meta: { family: number; variant: number; cases: string[]; isins: Variant['isins']; noIsin: boolean; issuer: string }[] = [];

  const expand = (spec: FamilySpec, family: number): void => {
    const rng = structure.fork(`family:${family}`);
    for (const s of expandFamily(spec, family, rng)) {
      const idx = pending.length;
      pending.push(s.scheme);
      meta.push({ family, variant: s.variant, cases: spec.cases ?? [], isins: s.isins, noIsin: spec.noIsin === true, issuer: s.issuer });
      if (s.predecessorOffset !== undefined) links.push({ pred: idx - s.predecessorOffset, succ: idx });
    }
  };
  families.forEach((f, i) => expand(f, i));
  let family = families.length;
  while (pending.length < target) {
    expand(randomFamily(structure.fork(`random:${family}`)), family);
    family++;
  }

  // Codes in launch order, spread over AMFI's 100000–153000 range.
  const order = pending.map((_, i) => i).sort((a, b) => pending[a].first - pending[b].first || meta[a].family - meta[b].family || meta[a].variant - meta[b].variant);
  const codes = new Array<number>(pending.length);
  const codeRng = structure.fork('codes');
  const meanStep = CODE_SPAN / Math.max(order.length, 1);
  let code = 100_000;
  for (const i of order) {
    codes[i] = code;
    code += 1 + Math.round(-Math.log(1 - codeRng.next()) * Math.max(meanStep - 1, 0));
  }
  // ISINs per issuer, in code order, like AMFI's running serials.
  const serials = new Map<string, number>();
  const nextIsin = (issuer: string): string => {
    const n = serials.get(issuer) ?? 0;
    serials.set(issuer, n + 1);
    return withCheckDigit(`INF${issuer}${isinSerial(n)}`);
  };
  const schemes = pending;
  for (const i of order) {
    const s = schemes[i];
    s.code = codes[i];
    const m = meta[i];
    if (m.noIsin || m.isins === 'none') continue;
    if (m.isins === 'reinvest') s.isin2 = nextIsin(m.issuer);
    else {
      s.isin = nextIsin(m.issuer);
      if (m.isins === 'both') s.isin2 = nextIsin(m.issuer);
    }
  }
  const familyMin = new Map<number, number>();
  schemes.forEach((s) => familyMin.set(s.family, Math.min(familyMin.get(s.family) ?? Infinity, s.code)));
  schemes.forEach((s) => (s.familyCode = familyMin.get(s.family)!));
  for (const { pred, succ } of links) {
    schemes[pred].mergedInto = schemes[succ].code;
    schemes[succ].continues = schemes[pred].code;
  }
  schemes.sort((a, b) => a.code - b.code);

  const cases: Record<string, number[]> = {};
  const byFamily = new Map<number, Scheme[]>();
  for (const s of schemes) if (s.family < families.length) byFamily.set(s.family, [...(byFamily.get(s.family) ?? []), s]);
  families.forEach((spec, f) => {
    const members = byFamily.get(f) ?? [];
    for (const label of spec.cases ?? []) {
      const holds = CASE_PREDICATES[label] ?? ((s: Scheme) => s.continues === null);
      cases[label] = members.filter(holds).map((s) => s.code);
      if (cases[label].length === 0) throw new Error(`case ${label}: no scheme of its family carries it`);
    }
  });
  return { schemes, cases };
}

/** Four serial characters after the issuer code, e.g. "01BF", "B1ZL". */
function isinSerial(n: number): string {
  const b36 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const block = Math.floor(n / 1296);
  const head = block === 0 ? '01' : `${b36[9 + block]}1`;
  return head + b36[Math.floor(n / 36) % 36] + b36[n % 36];
}

// ---------------------------------------------------------------------------------------------

function weighted<T extends { weight: number }>(rng: Rng, items: readonly T[]): T {
  const total = items.reduce((s, x) => s + x.weight, 0);
  let u = rng.next() * total;
  for (const x of items) if ((u -= x.weight) < 0) return x;
  return items[items.length - 1];
}

function randomFamily(rng: Rng): FamilySpec {
  const r = rng.next();
  const kind: FamilyKind = r < 0.28 ? 'open' : r < 0.95 ? 'closed' : 'interval';
  // More launches in later years; closed-ended FMPs mostly 2008–2019.
  let launch: number;
  if (kind === 'open' && rng.chance(0.05)) launch = 0;
  else if (kind === 'closed') launch = d('2007-06-01') + Math.floor(rng.next() ** 0.9 * (d('2020-06-01') - d('2007-06-01'))) + (rng.chance(0.15) ? Math.floor(rng.next() * (LAUNCH_HORIZON - d('2020-06-01'))) : 0);
  else launch = Math.floor(rng.next() ** 0.4 * LAUNCH_HORIZON);
  launch = Math.min(launch, LAUNCH_HORIZON);
  const year = Number(asIso(launch).slice(0, 4));
  const houses = AMCS.filter((a) => a.from <= Math.max(year, 2006) && (!a.until || d(a.until) > launch + 200));
  const amc = weighted(rng, houses);
  if (kind === 'open') {
    const sub = weighted(rng, SUB_CATEGORIES);
    const spec: FamilySpec = { amc, kind, sub, stem: rng.pick(sub.stems), launch };
    const fate = rng.next();
    if (fate < 0.06) {
      spec.endAt = launch + 400 + Math.floor(rng.next() * 3000);
      spec.endKind = 'wound_up';
      spec.zeroEnd = rng.chance(0.15);
    } else if (fate < 0.1) {
      spec.mergeTo = { amc, stem: rng.pick(sub.stems) };
      spec.endAt = launch + 500 + Math.floor(rng.next() * 3000);
    }
    if (rng.chance(0.004)) spec.gap = [launch + 200, launch + 200 + 20 + rng.int(0, 15)];
    if (rng.chance(0.003)) {
      spec.endAt = FIRST_AS_OF - rng.int(10, 40);
      spec.endKind = 'stopped';
    }
    return decorate(spec, rng);
  }
  if (kind === 'closed') {
    const closed = rng.chance(0.85) ? CLOSED_CATEGORIES[0] : rng.chance(0.7) ? CLOSED_CATEGORIES[1] : CLOSED_CATEGORIES[2];
    const tenure = closed.category === 'Income' ? rng.pick([91, 182, 370, 367, 735, 1100, 1132, 1150, 1198, 1245]) : closed.category === 'ELSS' ? 3650 : rng.int(1100, 1900);
    return decorate({ amc, kind, closed, stem: rng.pick(closed.stems), launch, tenure, zeroEnd: rng.chance(0.04) }, rng);
  }
  const life = rng.int(700, 4000);
  return decorate({ amc, kind, stem: rng.pick(INTERVAL_STEMS), launch, interval: rng.pick([30, 91, 182, 367]), endAt: launch + life, endKind: 'matured' }, rng);
}

function decorate(spec: FamilySpec, rng: Rng): FamilySpec {
  const u = rng.next();
  spec.decimals = u < 0.8 ? 4 : u < 0.92 ? 2 : 3;
  const o = rng.next();
  if (o < 0.015) spec.odd = 'double';
  else if (o < 0.03) spec.odd = 'trailing';
  if (spec.launch < d('2009-01-01') && rng.chance(0.3)) spec.noIsin = true;
  return spec;
}

function asIso(dn: number): string {
  return new Date(Date.UTC(2006, 3, 1) + dn * 86_400_000).toISOString().slice(0, 10);
}

// ---------------------------------------------------------------------------------------------

interface Expanded {
  scheme: Scheme;
  variant: number;
  isins: Variant['isins'];
  issuer: string;
  /** For a merger successor: how many entries back its predecessor is. */
  predecessorOffset?: number;
}

const DEBT_FREQS = ['Daily', 'Weekly', 'Monthly', 'Quarterly'];

function variantsOf(spec: FamilySpec, rng: Rng): Variant[] {
  if (spec.variants) return spec.variants;
  const debtish = spec.kind === 'interval' || spec.closed?.model === 'debt' || spec.sub?.model === 'liquid' || spec.sub?.model === 'debt';
  const idcw = (plan: SchemePlan, from?: number): Variant[] => {
    if (spec.sub?.model === 'liquid') {
      return [
        { plan, option: 'IDCW Reinvestment', freq: 'Daily', isins: 'reinvest', from },
        { plan, option: 'IDCW', freq: 'Weekly', isins: 'both', from },
        ...(rng.chance(0.5) ? [{ plan, option: 'IDCW Payout', freq: 'Monthly', isins: 'payout', from } as Variant] : []),
      ];
    }
    if (debtish && rng.chance(0.5)) return [{ plan, option: 'IDCW', freq: rng.pick(DEBT_FREQS.slice(1)), isins: 'both', from }];
    return [{ plan, option: 'IDCW', freq: null, isins: 'both', from }];
  };
  const out: Variant[] = [];
  if (spec.launch < DIRECT_START) {
    out.push({ plan: 'Other', option: 'Growth', freq: null, isins: 'growth' }, ...idcw('Other'));
    if (rng.chance(0.12)) out.push({ plan: 'Other', option: 'Bonus', freq: null, isins: 'growth' });
    if (spec.kind === 'open') out.push({ plan: 'Direct', option: 'Growth', freq: null, isins: 'growth', from: DIRECT_START }, ...idcw('Direct', DIRECT_START));
  } else {
    out.push({ plan: 'Regular', option: 'Growth', freq: null, isins: 'growth' }, ...idcw('Regular'));
    out.push({ plan: 'Direct', option: 'Growth', freq: null, isins: 'growth' }, ...idcw('Direct'));
  }
  return out;
}

function familyPath(spec: FamilySpec, rng: Rng): PathParams {
  const model: NavModel = spec.sub?.model ?? (spec.closed?.model as NavModel | undefined) ?? 'debt';
  const base = spec.launch === 0 ? Math.log(10 + rng.next() * 140) : Math.log(10);
  const sector = 2 + rng.int(0, FACTOR_COUNT - 3);
  switch (model) {
    case 'equity':
      return { model, lnBase: base, alpha: (rng.normal() * 0.03) / 250, bm: 0.75 + rng.next() * 0.45, ba: 0, br: 0, bf: 0.3 + rng.next() * 0.6, fk: sector, eps: 0.002 };
    case 'index':
      return { model, lnBase: rng.chance(0.3) ? Math.log(100 + rng.next() * 150) : base, alpha: -0.001 / 250, bm: 1, ba: 0, br: 0, bf: 0.05, fk: sector, eps: 0.0004 };
    case 'hybrid':
      return { model, lnBase: base, alpha: (rng.normal() * 0.01) / 250, bm: 0.35 + rng.next() * 0.35, ba: 0.3 + rng.next() * 0.3, br: -1.5, bf: 0.2, fk: sector, eps: 0.0012 };
    case 'arbitrage':
      return { model, lnBase: base, alpha: -0.004 / 365, bm: 0.01, ba: 1, br: 0, bf: 0, fk: sector, eps: 0.0003 };
    case 'gold':
      return { model, lnBase: Math.log(1000 + rng.next() * 2000), alpha: -0.005 / 365, bm: 0.03, ba: 0, br: 0, bf: 1, fk: GOLD_FACTOR, eps: 0.0015 };
    case 'overseas':
      return { model, lnBase: base, alpha: -0.008 / 365, bm: 0.1, ba: 0, br: 0, bf: 1, fk: OVERSEAS_FACTOR, eps: 0.002 };
    case 'liquid':
      return { model, lnBase: rng.chance(0.7) ? Math.log(1000) : base, alpha: -0.002 / 365, bm: 0, ba: 1, br: -0.1, bf: 0, fk: sector, eps: 0.00001 };
    case 'debt':
      return { model, lnBase: rng.chance(0.15) ? Math.log(1000) : base, alpha: (rng.next() * 0.015) / 365, bm: 0, ba: 1, br: -(0.3 + rng.next() * 5), bf: 0, fk: sector, eps: 0.00012 };
  }
}

function expandFamily(spec: FamilySpec, family: number, rng: Rng): Expanded[] {
  const path = familyPath(spec, rng);
  const style = nameStyle(spec.amc, rng);
  const variants = variantsOf(spec, rng);
  const weekend = spec.sub?.model === 'liquid';
  const pub = (dn: number): number => (weekend ? dn : businessOnOrAfter(dn));
  const lastPub = (dn: number): number => (weekend ? dn : businessOnOrBefore(dn));
  const launch = pub(spec.launch);
  let endAt = spec.endAt;
  let endKind: EndKind = spec.endKind ?? 'active';
  let mergeTo = spec.mergeTo;
  const until = spec.amc.until ? d(spec.amc.until) : undefined;
  if (until !== undefined && (endAt === undefined || endAt > until)) {
    endAt = until;
    if (spec.amc.mergedInto) mergeTo = { amc: amcByName(spec.amc.mergedInto), stem: spec.stem };
    else endKind = 'wound_up';
  }
  let maturity: number | null = null;
  if (spec.kind === 'closed') {
    maturity = spec.launch + (spec.tenure ?? 1100);
    endAt = Math.min(endAt ?? maturity, maturity);
    endKind = 'matured';
  }
  if (mergeTo && endAt !== undefined) endKind = 'merged';
  const last = endAt === undefined ? OPEN_END : lastPub(endAt);
  const seriesNo = 1 + (family % 97) + rng.int(0, 40);
  const category = categoryOf(spec, last);
  const aumFamily = Math.exp(Math.log(spec.kind === 'open' ? 600 : 120) + 1.4 * rng.normal());
  const out: Expanded[] = [];
  const ter0 = (spec.kind === 'open' && path.model !== 'liquid' ? 0.009 : 0.002) / 365;
  variants.forEach((v, vi) => {
    const first = pub(Math.max(launch, v.from ?? 0));
    if (first > last) return;
    // Short-period IDCW variants pay out what they accrue, so their NAV hovers at face value.
    const flat = v.freq === 'Daily' || (path.model === 'liquid' && v.freq !== null);
    const direct = v.plan === 'Direct';
    const ter = direct ? 0 : ter0;
    const payoutDrag = v.option === 'Growth' || v.option === 'Bonus' ? 0 : ((path.model === 'equity' ? 0.04 : 0.05) * (1 + 0.15 * vi)) / 365;
    const alpha = path.alpha - ter - payoutDrag;
    // Variants share the family's path from its launch; a later variant (Direct from 2013) starts at
    // the level the family had reached, then drifts apart by its expense ratio.
    const dn0 = launch;
    const lnBase = flat ? Math.log(path.lnBase > 5 ? 1000 : 10) + (v.freq === 'Daily' ? 0 : 0.0004 * vi) : path.lnBase - (alpha - (path.alpha - ter0)) * (first - launch);
    const share = v.option === 'Growth' ? 0.6 : 0.2;
    const fundName = `${spec.amc.prefix} ${spec.stem}${spec.kind === 'closed' || spec.kind === 'interval' ? ` ${seriesNo}` : ''}`;
    const scheme: Scheme = {
      code: 0,
      familyCode: 0,
      isin: null,
      isin2: null,
      mergedInto: null,
      continues: null,
      family,
      name: schemeName(style, fundName, spec, v, last, spec.odd && vi === 0 ? spec.odd : undefined),
      fundName,
      amc: spec.amc.name,
      schemeType: spec.kind === 'open' ? 'Open Ended' : spec.kind === 'closed' ? 'Close Ended' : 'Interval Fund',
      category: category.category,
      categorySub: category.categorySub,
      categoryGroup: category.categoryGroup,
      clean: category.clean,
      txic: category.txic,
      plan: v.plan,
      option: v.option === 'IDCW' || v.option === 'IDCW Payout' || v.option === 'IDCW Reinvestment' ? (last < IDCW_RENAME ? 'Dividend' : v.option) : v.option,
      idcwFrequency: v.freq,
      model: path.model,
      first,
      last,
      end: last === OPEN_END ? 'active' : mergeTo ? 'merged' : endKind,
      zeroEnd: spec.zeroEnd === true && vi % 2 === 0,
      weekend,
      gapFrom: spec.gap?.[0] ?? -1,
      gapTo: spec.gap?.[1] ?? -1,
      decimals: flat ? 4 : spec.decimals ?? 4,
      maturity,
      tenureDays: spec.kind === 'closed' ? spec.tenure ?? 1100 : null,
      intervalDays: spec.kind === 'interval' ? spec.interval ?? 91 : null,
      dn0,
      lnBase,
      alpha,
      bm: path.bm,
      ba: path.ba,
      br: path.br,
      bf: path.bf,
      fk: path.fk,
      eps: flat ? 0.00002 : path.eps,
      flat,
      aumCr: aumFamily * share / Math.max(1, variants.length / 2),
      faceValue: Math.exp(lnBase) >= 500 && spec.kind === 'open' ? 1000 : 10,
    };
    out.push({ scheme: shaped(scheme), variant: vi, isins: spec.noIsin ? 'none' : v.isins, issuer: spec.amc.issuer });
  });
  if (mergeTo && last !== OPEN_END) {
    const n = out.length;
    const succSpec: FamilySpec = { ...spec, amc: mergeTo.amc, stem: mergeTo.stem, mergeTo: undefined, endAt: undefined, endKind: undefined, odd: undefined };
    const succStyle = nameStyle(mergeTo.amc, rng);
    const start = weekend ? last + 1 : businessOnOrAfter(last + 1);
    for (let i = 0; i < n; i++) {
      const p = out[i];
      const v = variants[p.variant];
      const fundName = `${mergeTo.amc.prefix} ${mergeTo.stem}`;
      out.push({
        scheme: shaped({
          ...p.scheme,
          name: schemeName(succStyle, fundName, succSpec, v, OPEN_END, undefined),
          fundName,
          amc: mergeTo.amc.name,
          ...categoryOf(succSpec, OPEN_END),
          option: v.option,
          first: start,
          last: OPEN_END,
          end: 'active',
          zeroEnd: false,
        }),
        variant: p.variant + 100,
        isins: p.isins === 'none' ? 'growth' : p.isins,
        issuer: mergeTo.amc.issuer,
        predecessorOffset: n,
      });
    }
  }
  return out;
}

function categoryOf(spec: FamilySpec, last: number): Pick<Scheme, 'category' | 'categorySub' | 'categoryGroup' | 'clean' | 'txic'> {
  if (spec.kind === 'closed') {
    const c = spec.closed ?? CLOSED_CATEGORIES[0];
    return { category: c.category, categorySub: null, categoryGroup: `Close Ended Schemes ( ${c.category} )`, clean: c.clean, txic: null };
  }
  if (spec.kind === 'interval') {
    return { category: 'Income', categorySub: null, categoryGroup: 'Interval Fund Schemes ( Income )', clean: 'Debt', txic: null };
  }
  const sub = spec.sub!;
  if (last < SEBI_RECAT) {
    return { category: sub.legacy, categorySub: null, categoryGroup: `Open Ended Schemes ( ${sub.legacy} )`, clean: sub.clean, txic: null };
  }
  const category = `${sub.head} - ${sub.sub}`;
  return { category, categorySub: sub.sub, categoryGroup: `Open Ended Schemes ( ${category} )`, clean: sub.clean, txic: TXIC_CODES[sub.sub] ?? null };
}

interface NameStyle {
  upper: boolean;
  sep: string;
  planWord: boolean;
  optionWord: boolean;
}

function nameStyle(amc: Amc, rng: Rng): NameStyle {
  const h = [...amc.name].reduce((s, c) => (s * 31 + c.charCodeAt(0)) >>> 0, 7);
  return { upper: h % 5 === 0, sep: h % 3 === 0 ? '-' : ' - ', planWord: h % 2 === 0, optionWord: rng.chance(0.3) };
}

function schemeName(style: NameStyle, fundName: string, spec: FamilySpec, v: Variant, last: number, odd?: 'double' | 'trailing'): string {
  const oldWords = last < IDCW_RENAME;
  const parts = [fundName];
  if (spec.kind === 'closed' && spec.tenure) parts[0] += ` (${spec.tenure} Days)`;
  if (v.plan !== 'Other') parts.push(style.planWord ? `${v.plan} Plan` : v.plan);
  let opt: string;
  const freq = v.freq ? `${v.freq} ` : '';
  switch (v.option) {
    case 'Growth':
      opt = style.optionWord ? 'Growth Option' : 'Growth';
      break;
    case 'Bonus':
      opt = 'Bonus';
      break;
    case 'IDCW Payout':
      opt = oldWords ? `${freq}Dividend Payout` : `${freq}Payout of IDCW`;
      break;
    case 'IDCW Reinvestment':
      opt = oldWords ? `${freq}Dividend Reinvestment` : `${freq}Reinvestment of IDCW`;
      break;
    default:
      opt = oldWords ? `${freq}Dividend` : `${freq}IDCW`;
  }
  parts.push(opt);
  let name = parts.join(style.sep);
  if (style.upper) name = name.toUpperCase();
  if (odd === 'double') name = name.replace(style.sep === '-' ? '-' : ' - ', style.sep === '-' ? '-  ' : ' -  ');
  if (odd === 'trailing') name += ' ';
  return name;
}

