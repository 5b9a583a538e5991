/**
 * `scheme_details_latest` rows: the scheme-information-document view of every scheme launched by the
 * dataset's own as-of date (the last month end before the NAV as-of). It depends on the universe and
 * that date only, so generations within one month publish byte-identical files.
 */
import { SCHEME_DETAILS_COLUMNS, type Riskometer, type SchemeDetailsRow } from '../core/contract/mf.js';
import { BENCHMARKS, CUSTODIANS, FUND_MANAGERS, REGISTRARS } from './mf-vocab.js';
import { dayNumber, isoOf } from './mf-calendar.js';
import type { Scheme } from './mf-universe.js';
import { Rng } from './random.js';

/** The last day of the month before the NAV as-of month. */
export function detailsAsOf(asOf: string): string {
  const first = Date.UTC(Number(asOf.slice(0, 4)), Number(asOf.slice(5, 7)) - 1, 1);
  return new Date(first - 86_400_000).toISOString().slice(0, 10);
}

const ACTIVE_DAYS = 45;

const RISK_BY_MODEL: Record<Scheme['model'], Riskometer[]> = {
  equity: ['Very High', 'Very High', 'High'],
  index: ['Very High', 'High'],
  hybrid: ['High', 'Moderately High', 'Very High'],
  arbitrage: ['Low', 'Low to Moderate'],
  gold: ['High', 'Moderately High'],
  overseas: ['Very High'],
  liquid: ['Low to Moderate', 'Low'],
  debt: ['Moderate', 'Low to Moderate', 'Moderately High'],
};

const OBJECTIVE: Record<Scheme['model'], string> = {
  equity: 'To generate long-term capital appreciation from a portfolio predominantly of equity and equity-related instruments.',
  index: 'To provide returns that, before expenses, correspond to the total returns of the underlying index, subject to tracking error.',
  hybrid: 'To generate long-term capital appreciation and income from a mix of equity and debt instruments.',
  arbitrage: 'To generate income by exploiting arbitrage opportunities between the cash and derivatives segments of the equity market.',
  gold: 'To provide returns that, before expenses, closely correspond to the returns of physical gold, subject to tracking error.',
  overseas: 'To provide long-term capital appreciation by investing in units of overseas mutual funds or exchange traded funds.',
  liquid: 'To provide reasonable returns commensurate with low risk and high liquidity from money market and debt instruments.',
  debt: 'To generate income through investment in a portfolio of debt and money market instruments.',
};

export function detailsRows(schemes: readonly Scheme[], asOf: string, seed: number): SchemeDetailsRow[] {
  const asOfIso = detailsAsOf(asOf);
  const dn = dayNumber(asOfIso);
  const out: SchemeDetailsRow[] = [];
  for (const s of schemes) {
    if (s.first > dn) continue;
    const rng = new Rng(seed, `mf:details:${s.code}`);
    const lastNav = Math.min(s.last, dn);
    const active = dn - lastNav <= ACTIVE_DAYS;
    const status = active ? 'Active' : s.end === 'merged' ? 'Merged' : s.end === 'matured' ? 'Matured' : s.end === 'wound_up' ? 'Wound Up' : 'Inactive';
    const hasSsd = active ? rng.chance(0.9) : rng.chance(0.35);
    const hasTer = active && rng.chance(0.95);
    const debt = s.model === 'debt' || s.model === 'liquid';
    const liquid = s.model === 'liquid';
    const elss = s.categorySub === 'ELSS' || s.category === 'ELSS';
    const launchIso = isoOf(s.first);
    const nfoClose = isoOf(Math.max(0, s.first - 3));
    const nfoOpen = isoOf(Math.max(0, s.first - 17));
    const managers = Array.from({ length: rng.int(1, 3) }, () => rng.pick(FUND_MANAGERS));
    const slug = s.fundName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
    const house = s.amc.toLowerCase().replace(/ mutual fund$/, '').replace(/[^a-z0-9]+/g, '');
    const exitDays = liquid ? 7 : debt ? rng.pick([0, 15, 30, 90]) : elss || s.schemeType !== 'Open Ended' ? 0 : rng.pick([30, 90, 365]);
    const ter = s.plan === 'Direct' ? 0.1 + rng.next() * 0.9 : 0.3 + rng.next() * 1.9;
    const aumMonthEnd = active ? s.aumCr * (0.8 + rng.next() * 0.4) : null;
    const ssd = <T>(v: T): T | null => (hasSsd ? v : null);
    out.push({
      scheme_code: s.code,
      isin: s.isin,
      isin2: s.isin2,
      scheme_name: s.name,
      amc: s.amc,
      fund_name: s.fundName,
      family_code: s.familyCode,
      scheme_type: s.schemeType,
      category_group_clean: s.clean,
      category_sub: s.categorySub,
      txic_code: s.txic,
      scheme_plan: s.plan,
      scheme_option: s.option,
      idcw_frequency: s.idcwFrequency,
      nfo_open_date: s.first === 0 ? null : nfoOpen,
      nfo_close_date: s.first === 0 ? null : nfoClose,
      allotment_date: launchIso,
      maturity_date: s.maturity === null ? null : isoOf(s.maturity),
      tenure_days: s.tenureDays,
      interval_days: s.intervalDays,
      investment_objective: ssd(OBJECTIVE[s.model]),
      benchmark: ssd(rng.pick(BENCHMARKS[s.clean])),
      additional_benchmark: ssd(s.clean === 'Debt' ? 'CRISIL 10 Year Gilt Index' : 'BSE Sensex TRI'),
      fund_managers: ssd(managers.filter((m, i) => managers.indexOf(m) === i).join('; ')),
      fund_manager_since: ssd(isoOf(s.first + rng.int(0, Math.max(0, lastNav - s.first)))),
      riskometer: ssd(rng.pick(RISK_BY_MODEL[s.model])),
      riskometer_date: ssd(asOfIso),
      potential_risk_class: ssd(debt ? `${rng.pick(['A', 'B', 'C'])}-${rng.pick(['I', 'II', 'III'])}` : null),
      exit_load: ssd(exitDays === 0 ? 'Nil' : liquid ? 'Graded, 0.0070% on day 1 falling to Nil from day 7' : `1% if redeemed within ${exitDays} days of allotment; Nil after`),
      exit_load_days: ssd(exitDays),
      entry_load: ssd('Nil'),
      ter_pct: hasTer ? round(ter, 2) : null,
      ter_date: hasTer ? asOfIso : null,
      min_investment_inr: ssd(s.schemeType === 'Open Ended' ? rng.pick([100, 500, 1000, 5000]) : 5000),
      additional_investment_inr: ssd(rng.pick([100, 500, 1000])),
      min_sip_inr: ssd(s.schemeType === 'Open Ended' ? rng.pick([100, 500, 1000]) : null),
      sip_available: ssd(s.schemeType === 'Open Ended'),
      swp_available: ssd(s.schemeType === 'Open Ended'),
      stp_available: ssd(s.schemeType === 'Open Ended' && !elss),
      lock_in_days: elss ? 1095 : null,
      cut_off_time: s.schemeType === 'Open Ended' ? (liquid ? '13:30' : '15:00') : null,
      face_value_inr: s.faceValue,
      nav_decimals: s.decimals,
      registrar: ssd(REGISTRARS[s.amc.length % 2]),
      custodian: ssd(rng.pick(CUSTODIANS)),
      trustee: ssd(`${s.amc.replace(/ Mutual Fund$/, '')} Trustee Company Pvt Ltd`),
      sid_url: ssd(`https://mf.example.in/${house}/sid/${slug}.pdf`),
      kim_url: ssd(`https://mf.example.in/${house}/kim/${slug}.pdf`),
      factsheet_url: active ? ssd(`https://mf.example.in/${house}/factsheet/${asOfIso.slice(0, 7)}.pdf`) : null,
      status,
      is_active: active,
      merged_into_scheme_code: s.mergedInto,
      closure_date: active ? null : isoOf(lastNav),
      aum_cr_month_end: aumMonthEnd === null ? null : round(aumMonthEnd, 2),
      aum_month_end: aumMonthEnd === null ? null : asOfIso,
      portfolio_turnover_pct: ssd(debt || s.model === 'liquid' ? null : round(5 + rng.next() * 150, 2)),
      has_amfi_daily: true,
      has_ssd: hasSsd,
      has_ter: hasTer,
      details_as_of: asOfIso,
    });
  }
  return out;
}

export const DETAILS_COLUMN_NAMES = Object.keys(SCHEME_DETAILS_COLUMNS) as (keyof SchemeDetailsRow)[];

function round(v: number, places: number): number {
  const f = 10 ** places;
  return Math.round(v * f) / f;
}
