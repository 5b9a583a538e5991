/**
 * The generator's indicator dictionary: what each sample indicator is, who publishes it, how its
 * values behave, and the caveats an analyst must know before computing with it. Families (a yield
 * curve, 37 business-confidence countries, insurer asset classes) are built from one description
 * so their notes differ only where the members really differ.
 */
import type { CategoryId, IndicatorRow } from '../core/contract/indicators.js';

/** How values move: `level` compounds (prices, stocks, indices); `rate` mean-reverts inside bounds. */
export type Model =
  | { kind: 'level'; base: number; trend: number; vol: number; dp: number }
  | { kind: 'rate'; base: number; vol: number; lo: number; hi: number; dp: number }
  /** Administered rates: unchanged between decisions, then a move of whole `step`s. */
  | { kind: 'step'; base: number; step: number; changesPerYear: number; lo: number; hi: number; dp: number };

/** A real daily close series in ../shared/data/real-prices (beside the clone) spliced into the generated path. */
export type RealSeries = 'VIX';

/** The listing row's descriptive fields, published as written here. */
type Described = Pick<IndicatorRow, 'name' | 'country' | 'source_category' | 'frequency' | 'unit' | 'source' | 'source_series_id' | 'notes'>;

export interface IndicatorDef extends Described {
  id: string;
  category: CategoryId;
  sa: boolean;
  /** First observation at full scale. */
  start: string;
  model: Model;
  visible: boolean;
  real?: RealSeries;
  /** Later generations revise this indicator's recent history (benchmark or vintage updates). */
  revises?: boolean;
  /** Days between the end of a period and its publication. */
  lagDays?: number;
  /** Weekly series: day of week of the observation date (0 = Sunday). */
  weekday?: number;
  /** Members of one yield curve share a common daily shock under this key. */
  factor?: string;
  /** A total: the sum of these indicators on each date (so parts never exceed the whole). */
  sumOf?: string[];
  /** Inclusive date ranges the publisher has no observations for (what the notes describe). */
  gaps?: [from: string, to: string][];
}

const lvl = (base: number, trend: number, vol: number, dp = 1): Model => ({ kind: 'level', base, trend, vol, dp });
const rate = (base: number, vol: number, lo: number, hi: number, dp = 2): Model => ({ kind: 'rate', base, vol, lo, hi, dp });
const step = (base: number, size: number, changesPerYear: number, lo: number, hi: number): Model => ({ kind: 'step', base, step: size, changesPerYear, lo, hi, dp: 2 });

type Common = Omit<IndicatorDef, 'id' | 'name' | 'model' | 'notes' | 'source_series_id' | 'visible'> & { visible?: boolean };

type Member = [id: string, name: string, seriesId: string, model: Model, notes: string, unit?: string];

function family(common: Common, members: Member[]): IndicatorDef[] {
  return members.map(([id, name, source_series_id, model, notes, unit]) => ({
    ...common,
    unit: unit ?? common.unit,
    visible: common.visible ?? true,
    id,
    name,
    source_series_id,
    model,
    notes,
  }));
}

const ANNUALISED = 'Already an annualised rate (percent per annum): do not multiply by 12 or compound it again.';

// ---------------------------------------------------------------------------------------------- us_macro

const usMonetary = family(
  { category: 'us_macro', country: 'US', source_category: 'monetary', frequency: 'monthly', unit: 'percent', source: 'Federal Reserve Board', sa: false, start: '1954-07-01', lagDays: 3 },
  [
    ['FEDFUNDS', 'Effective federal funds rate (monthly average)', 'FEDFUNDS', rate(4.5, 1.6, 0.05, 19, 2),
      `Monthly average of daily effective rates. ${ANNUALISED} Since 2008-12-16 the FOMC sets a target range; this is the volume-weighted median rate traded inside it, not the range. Since 2016-03 the NY Fed computes it from FR 2420 reports (brokered trades before), a small methodology break.`],
  ],
).concat(
  family(
    { category: 'us_macro', country: 'US', source_category: 'monetary', frequency: 'daily', unit: 'percent', source: 'NY Fed', sa: false, start: '2000-01-03', lagDays: 1 },
    [
      ['DFF', 'Effective federal funds rate (daily)', 'EFFR', step(2.5, 0.25, 3, 0.04, 6.5),
        `Daily rate published the next business morning. ${ANNUALISED} FRED's DFF fills weekends and holidays with the previous business day; this copy keeps business days only, so do not count rows as calendar days.`],
      ['SOFR', 'Secured overnight financing rate', 'SOFR', rate(3, 1.2, 0.01, 6, 2),
        `Overnight Treasury repo rate, volume-weighted median. ${ANNUALISED} Starts 2018-04-03; it replaced USD LIBOR (unsecured, term) and is typically below it, so splicing the two creates a spread break. Quarter- and year-end spikes (e.g. 2019-09-17 at 5.25) are real, not errors.`],
      ['RRPONTSYD', 'Overnight reverse repurchase agreements: total accepted', 'RRPONTSYD', lvl(500, 0, 0.9, 3),
        'Billions of US dollars, daily amount the Fed took in at its ON RRP facility; a stock outstanding for one night, not a flow, so never sum across days. Zero or near zero before 2021 and large in 2021-2023: the level reflects excess liquidity, not an operating target.', 'billions of US dollars'],
    ],
  ),
  family(
    { category: 'us_macro', country: 'US', source_category: 'monetary', frequency: 'weekly', unit: 'millions of US dollars', source: 'Federal Reserve Board', sa: false, start: '2002-12-18', weekday: 3, lagDays: 1 },
    [
      ['WALCL', 'Fed total assets (H.4.1, Wednesday level)', 'WALCL', lvl(720_000, 0.09, 0.06, 0),
        'Wednesday level from the H.4.1 release, millions of dollars (not billions). A level: the weekly change is balance-sheet expansion or runoff. Quantitative easing rounds (2008, 2010, 2012, 2020) show as step rises; runoff since 2022 as a glide path.'],
      ['WRESBAL', 'Reserve balances with Federal Reserve Banks', 'WRESBAL', lvl(15_000, 0.15, 0.3, 0),
        'Wednesday level, millions of dollars. Before 2008-10 reserves did not earn interest and were tiny; after, they are the main liquidity gauge, so compare regimes with care. Treasury General Account swings move this series one-for-one without any policy change.'],
    ],
  ),
  family(
    { category: 'us_macro', country: 'US', source_category: 'monetary', frequency: 'monthly', unit: 'billions of US dollars', source: 'Federal Reserve Board', sa: true, start: '1959-01-01', lagDays: 25, revises: true },
    [
      ['M2SL', 'M2 money stock', 'M2SL', lvl(286, 0.065, 0.02, 1),
        'Seasonally adjusted level, billions. From 2020-05 savings deposits moved into M1 after Regulation D was amended, so M1 jumps roughly fivefold that month while M2 is unaffected; use M2 for long comparisons. Weekly data were discontinued in 2021; the monthly series is revised with the annual benchmark.'],
      ['M1SL', 'M1 money stock', 'M1SL', lvl(139, 0.06, 0.02, 1),
        'Seasonally adjusted level, billions. Break in 2020-05: savings deposits were reclassified into M1 (Regulation D change), so the series jumps from about 4.8 to 16 trillion in one month with no economic counterpart. Growth rates across that month are meaningless.'],
    ],
  ),
);

const usLabor = family(
  { category: 'us_macro', country: 'US', source_category: 'labor', frequency: 'monthly', unit: 'percent', source: 'BLS', sa: true, start: '1948-01-01', lagDays: 5, revises: false },
  [
    ['UNRATE', 'Unemployment rate (U-3)', 'LNS14000000', rate(5.7, 1.1, 2.5, 14.8, 1),
      'Percent of the labour force, household survey (CPS). A level, not a change. New population controls enter each January and shift levels without economic cause; BLS does not smooth history for them. Seasonal factors for the last five years are revised every January.'],
    ['U6RATE', 'Total unemployed plus marginally attached plus part time for economic reasons (U-6)', 'LNS13327709', rate(10, 1.8, 6.5, 23, 1),
      'Percent of the labour force plus marginally attached workers, so the denominator differs from U-3: do not subtract U-3 from U-6 to get a count. Starts 1994 when the CPS redesign introduced the questions; no consistent history before.'],
    ['CIVPART', 'Labor force participation rate', 'LNS11300000', rate(64, 0.6, 58, 68, 1),
      'Percent of the civilian noninstitutional population aged 16+. Population-control breaks each January (2000, 2003, 2012 and 2022 were large). Ageing alone lowers it about 0.2 points a year since 2008, so a decline is not necessarily weakness.'],
  ],
).concat(
  family(
    { category: 'us_macro', country: 'US', source_category: 'labor', frequency: 'monthly', unit: 'thousands of persons', source: 'BLS', sa: true, start: '1939-01-01', lagDays: 5, revises: true },
    [
      ['PAYEMS', 'All employees, total nonfarm', 'CES0000000001', lvl(30_000, 0.017, 0.012, 0),
        'Level in thousands; the headline "jobs added" is the first difference. The two previous months are revised in every release, and each February the whole March level is benchmarked to unemployment-insurance tax records, a break that can reach several hundred thousand. Establishment survey: counts jobs, not persons.'],
      ['JTSJOL', 'Job openings: total nonfarm (JOLTS)', 'JTS000000000000000JOL', lvl(4_800, 0.03, 0.08, 0),
        'Level in thousands on the last business day of the month. Released about five weeks after the reference month, so it lags payrolls by one month. Survey response rates fell after 2020 and revisions grew; annual benchmark to CES employment each March.'],
    ],
  ),
  family(
    { category: 'us_macro', country: 'US', source_category: 'labor', frequency: 'monthly', unit: 'US dollars per hour', source: 'BLS', sa: true, start: '2006-03-01', lagDays: 5, revises: true },
    [
      ['CES0500000003', 'Average hourly earnings, all private employees', 'CES0500000003', lvl(20.0, 0.035, 0.006, 2),
        'Dollars per hour, nominal. Composition-sensitive: in 2020-04 it jumped 8 percent because low-wage workers lost jobs, not because wages rose. Deflate with CPI for real wages; the production and nonsupervisory series (AHETPI) has history from 1964.'],
      ['AHETPI', 'Average hourly earnings, production and nonsupervisory employees', 'CES0500000008', lvl(2.5, 0.038, 0.006, 2),
        'Dollars per hour, nominal, for about four fifths of private employment. Longer history than the all-employee series; same composition effect in 2020. Not an hourly wage rate: overtime and shift premia included, bonuses excluded.'],
    ],
  ),
  family(
    { category: 'us_macro', country: 'US', source_category: 'labor', frequency: 'weekly', unit: 'number of claims', source: 'Department of Labor', sa: true, start: '1967-01-07', weekday: 6, lagDays: 5, revises: true },
    [
      ['ICSA', 'Initial claims for unemployment insurance', 'ICSA', lvl(350_000, 0, 0.35, 0),
        'Week ending Saturday, released the following Thursday; the prior week is revised. Seasonal factors are re-estimated each spring for five years back, and in 2020-09 DOL switched from multiplicative to additive factors because the pandemic level distorted them. Leading: sustained rises have preceded recessions, but single weeks are noisy (holidays, storms, auto retooling in July).'],
      ['CCSA', 'Continued claims (insured unemployment)', 'CCSA', lvl(2_600_000, 0, 0.3, 0),
        'Week ending Saturday, published one week later than initial claims for the same week. Counts people claiming under regular state programmes only; pandemic programmes (PUA, PEUC) in 2020-2021 are excluded, so it understates the jobless then.'],
    ],
  ),
);

const usInflation = family(
  { category: 'us_macro', country: 'US', source_category: 'inflation', frequency: 'monthly', unit: 'index 1982-1984=100', source: 'BLS', sa: true, start: '1947-01-01', lagDays: 12, revises: false },
  [
    ['CPIAUCSL', 'Consumer price index, all urban consumers', 'CUSR0000SA0', lvl(21.5, 0.036, 0.01, 3),
      'Index level (1982-84=100), not a rate: inflation is the 12-month percent change of this level. Monthly changes are not annualised; multiply by 12 only if you mean an annualised rate. Unadjusted CPI is never revised, but seasonal factors for five years are replaced each February. Owners\' equivalent rent replaced home purchase prices in 1983 (methodology break).'],
    ['CPILFESL', 'CPI less food and energy', 'CUSR0000SA0L1E', lvl(22.0, 0.036, 0.006, 3),
      'Index level (1982-84=100); compute 12-month percent change. Core excludes food and energy, which are about a fifth of the basket; shelter is over 40 percent of core, and shelter inflation lags market rents by about a year, so core lags turning points.'],
    ['PPIACO', 'Producer price index, all commodities', 'WPU00000000', lvl(12.0, 0.03, 0.025, 3),
      'Index 1982=100 (not 1982-84): a different base from CPI, so levels are not comparable, only changes. Commodity-based index with history from 1913; the headline final-demand PPI (2009 onward) is a different aggregate. Not seasonally adjusted at source; this copy is the adjusted version.', 'index 1982=100'],
  ],
).concat(
  family(
    { category: 'us_macro', country: 'US', source_category: 'inflation', frequency: 'monthly', unit: 'index 2017=100', source: 'BEA', sa: true, start: '1959-01-01', lagDays: 30, revises: true },
    [
      ['PCEPI', 'PCE price index', 'DPCERG3M086SBEA', lvl(16.0, 0.033, 0.007, 3),
        'Index 2017=100; the Fed\'s 2 percent target refers to the 12-month change of this index. Unlike CPI it is revised with every GDP revision and rebased at comprehensive revisions (the base year moves), so store vintages if you compare releases. Broader scope than CPI, so it usually runs about 0.3 points lower.'],
      ['PCEPILFE', 'PCE price index excluding food and energy', 'DPCCRG3M086SBEA', lvl(16.5, 0.032, 0.005, 3),
        'Index 2017=100, core PCE. Revised with GDP data; the base year changes at comprehensive revisions, so ratios across vintages are not meaningful. Compute the 12-month change rather than annualising one month.'],
    ],
  ),
  family(
    { category: 'us_macro', country: 'US', source_category: 'inflation', frequency: 'daily', unit: 'percent', source: 'Federal Reserve Board', sa: false, start: '2003-01-02', lagDays: 1 },
    [
      ['T5YIE', '5-year breakeven inflation rate', 'T5YIE', rate(2.0, 0.5, -2.3, 3.6, 2),
        'Nominal 5-year Treasury yield minus 5-year TIPS yield, percent per annum. Contains an inflation risk premium and a TIPS liquidity premium, so it is not a pure expectation; it went negative in 2008-11 when TIPS liquidity collapsed.'],
      ['T10YIE', '10-year breakeven inflation rate', 'T10YIE', rate(2.2, 0.35, 0.04, 3.0, 2),
        'Nominal 10-year minus 10-year TIPS yield, percent per annum. Same premia caveats as the 5-year; the 5y5y forward (2*T10YIE - T5YIE, approximately) is the Fed\'s preferred long-horizon gauge.'],
    ],
  ),
);

const usOutput = family(
  { category: 'us_macro', country: 'US', source_category: 'gdp', frequency: 'quarterly', unit: 'billions of chained 2017 US dollars', source: 'BEA', sa: true, start: '1947-01-01', lagDays: 30, revises: true },
  [
    ['GDPC1', 'Real gross domestic product', 'GDPC1', lvl(2_180, 0.03, 0.018, 3),
      'Seasonally adjusted annual rate: each quarter is expressed at a yearly pace, so do not multiply by 4 and do not sum four quarters for an annual total (average them). Chained dollars are not additive across components. Advance, second and third estimates are revised, then annual revisions each September and comprehensive revisions every five years change the reference year.'],
    ['A191RL1Q225SBEA', 'Real GDP growth, percent change from preceding period', 'A191RL1Q225SBEA', rate(3, 3.5, -29, 35, 1),
      'Percent change at a compound annual rate: already annualised, so do not multiply by 4. The year-over-year change is a different number. The 2020Q2 (-28) and 2020Q3 (+35) values are real annualised swings. Revised with every GDP release.', 'percent, annual rate'],
  ],
).concat(
  family(
    { category: 'us_macro', country: 'US', source_category: 'production', frequency: 'monthly', unit: 'index 2017=100', source: 'Federal Reserve Board', sa: true, start: '1919-01-01', lagDays: 16, revises: true },
    [
      ['INDPRO', 'Industrial production: total index', 'B50001', lvl(5.0, 0.028, 0.03, 4),
        'Index 2017=100; covers manufacturing, mining and utilities (about a fifth of GDP), so swings are larger than GDP\'s. Revised for the previous five months each release and annually (usually in the spring), when the base year may change.'],
      ['TCU', 'Capacity utilization: total industry', 'CAPUTL.B50001.S', rate(80, 2.2, 64, 89, 1),
        'Percent of sustainable maximum output. Starts 1967. Capacity estimates are revised annually, which moves the whole history; the long-run average has drifted down from about 82 to 78, so fixed thresholds (e.g. 85 = overheating) age badly.', 'percent of capacity'],
    ],
  ),
  family(
    { category: 'us_macro', country: 'US', source_category: 'consumption', frequency: 'monthly', unit: 'millions of US dollars', source: 'Census', sa: true, start: '1992-01-01', lagDays: 15, revises: true },
    [
      ['RSAFS', 'Advance retail sales: retail trade and food services', 'RSAFS', lvl(164_000, 0.045, 0.012, 0),
        'Monthly total in millions of dollars (not an annual rate), nominal: deflate before reading it as volume. The advance estimate comes from a small sample and is revised twice; annual benchmark revisions each spring re-base on the Annual Retail Trade Survey.'],
      ['DGORDER', 'Manufacturers\' new orders: durable goods', 'DGORDER', lvl(120_000, 0.03, 0.05, 0),
        'Monthly total in millions, nominal. Aircraft orders make it very volatile (Boeing order books move it 10 percent in a month); use the ex-transportation or core capital goods series for trend. The NAICS basis starts 1992.'],
    ],
  ),
  family(
    { category: 'us_macro', country: 'US', source_category: 'consumption', frequency: 'monthly', unit: 'percent', source: 'BEA', sa: true, start: '1959-01-01', lagDays: 30, revises: true },
    [
      ['PSAVERT', 'Personal saving rate', 'A072RC1', rate(7, 1.4, 1.4, 32, 1),
        'Saving as a percent of disposable personal income, a residual (income minus outlays) so it is revised heavily when either side is; the 2020-04 value near 32 is real (stimulus payments). Comprehensive revisions have moved the level by over a point.'],
    ],
  ),
);

const usSentiment = family(
  { category: 'us_macro', country: 'US', source_category: 'sentiment', frequency: 'monthly', unit: 'index 1966Q1=100', source: 'University of Michigan', sa: false, start: '1978-01-01', lagDays: 0 },
  [
    ['UMCSENT', 'University of Michigan consumer sentiment', 'UMCSENT', rate(85, 9, 50, 112, 1),
      'Index 1966Q1=100, not seasonally adjusted. A preliminary reading mid-month is replaced by the final at month end; this series holds finals. From 2024 interviews moved from telephone to web, which lowered the level; Michigan publishes bridge estimates, but the break remains. Monthly before 1978 only quarterly.'],
    ['MICH', 'Michigan expected inflation, 1 year ahead', 'MICH', rate(3, 0.8, 0.4, 10.4, 1),
      'Median expected price change over the next 12 months, percent. A survey median, not a market rate; answers cluster on round numbers, so changes under 0.2 points are noise. Same 2024 web-mode break as the sentiment index.', 'percent'],
  ],
).concat(
  family(
    { category: 'us_macro', country: 'US', source_category: 'sentiment', frequency: 'monthly', unit: 'index', source: 'OECD', sa: true, start: '1960-01-01', lagDays: 20, revises: true },
    [
      ['USALOLITONOSTSAM', 'OECD composite leading indicator: United States', 'USA.LI.AA.H', rate(100, 1.2, 94, 103, 2),
        'Amplitude-adjusted, long-term average = 100; above 100 and rising means growth above trend. Designed to lead turning points of the business cycle by six to nine months. The whole history is re-estimated each month (trend filtering), so the last six values move substantially: do not back-test with today\'s vintage.'],
    ],
  ),
);

const usHousing = family(
  { category: 'us_macro', country: 'US', source_category: 'housing', frequency: 'monthly', unit: 'thousands of units, annual rate', source: 'Census', sa: true, start: '1959-01-01', lagDays: 18, revises: true },
  [
    ['HOUST', 'Housing starts: total new privately owned units', 'HOUST', lvl(1_500, 0, 0.12, 0),
      'Seasonally adjusted annual rate in thousands: a month\'s value is the yearly pace, so divide by 12 for the month\'s count and never sum months. Leading: starts turned down well before the 2007 and 1990 recessions. Revised for two months, then annually.'],
    ['PERMIT', 'New private housing units authorized by building permits', 'PERMIT', lvl(1_550, 0, 0.11, 0),
      'Seasonally adjusted annual rate, thousands of units. Leads starts by a month or two and is less revised; the permit universe was expanded in 2004 and 2014 (more permit-issuing places), a small level break.'],
  ],
).concat(
  family(
    { category: 'us_macro', country: 'US', source_category: 'housing', frequency: 'monthly', unit: 'index Jan 2000=100', source: 'S&P Dow Jones Indices', sa: false, start: '1987-01-01', lagDays: 58, revises: true },
    [
      ['CSUSHPINSA', 'S&P CoreLogic Case-Shiller US national home price index', 'CSUSHPINSA', lvl(63.7, 0.045, 0.012, 3),
        'Not seasonally adjusted, Jan 2000=100. Each month is a three-month moving average of repeat sales, published with a two-month lag, so a value dated March covers January to March closings. Compare year-over-year to avoid seasonality.'],
    ],
  ),
  family(
    { category: 'us_macro', country: 'US', source_category: 'housing', frequency: 'weekly', unit: 'percent', source: 'Freddie Mac', sa: false, start: '1971-04-02', weekday: 4, lagDays: 0 },
    [
      ['MORTGAGE30US', '30-year fixed rate mortgage average', 'PMMS30', rate(7.5, 1.3, 2.65, 18.6, 2),
        `Weekly average commitment rate published Thursdays. ${ANNUALISED} From 2022-11-17 Freddie Mac computes it from applications received by its loan product advisor instead of a lender survey; the level is consistent but week-to-week noise rose. Points and fees are excluded since 2022.`],
    ],
  ),
  family(
    { category: 'us_macro', country: 'US', source_category: 'housing', frequency: 'quarterly', unit: 'US dollars', source: 'Census', sa: false, start: '1963-01-01', lagDays: 25, revises: true },
    [
      ['MSPUS', 'Median sales price of houses sold', 'MSPUS', lvl(18_000, 0.055, 0.04, 0),
        'New single-family houses only (not existing homes), dollars, not seasonally adjusted. Mix shifts (more sales in cheaper regions) move the median without any price change; use a repeat-sales index for price trends.'],
    ],
  ),
);

const usConditions = family(
  { category: 'us_macro', country: 'US', source_category: 'financial_conditions', frequency: 'weekly', unit: 'index (standard deviations)', source: 'Chicago Fed', sa: false, start: '1971-01-08', weekday: 5, lagDays: 5, revises: true },
  [
    ['NFCI', 'Chicago Fed national financial conditions index', 'NFCI', rate(0, 0.5, -0.8, 3.2, 3),
      'Zero is average conditions since 1971; positive means tighter than average, negative looser (the sign is the opposite of a "conditions are good" index). Built from 105 indicators by dynamic factor model; the whole history is re-estimated every week, so past values change.'],
    ['ANFCI', 'Chicago Fed adjusted national financial conditions index', 'ANFCI', rate(0, 0.45, -0.8, 3.0, 3),
      'NFCI with the part explained by current economic and inflation conditions removed: positive means tighter than economic conditions would imply. Same weekly re-estimation of history.'],
  ],
).concat(
  family(
    { category: 'us_macro', country: 'US', source_category: 'financial_conditions', frequency: 'weekly', unit: 'index', source: 'St. Louis Fed', sa: false, start: '1994-01-07', weekday: 5, lagDays: 6, revises: true },
    [
      ['STLFSI4', 'St. Louis Fed financial stress index', 'STLFSI4', rate(0, 0.7, -1.5, 6, 4),
        'Zero is normal stress; positive above average. Version 4 (2022) replaced LIBOR-based inputs after LIBOR ended, and its history differs from versions 2 and 3; the factor is re-estimated each week, so past values move.'],
    ],
  ),
  family(
    { category: 'us_macro', country: 'US', source_category: 'financial_conditions', frequency: 'daily', unit: 'percent', source: 'Cboe', sa: false, start: '1990-01-02', lagDays: 1 },
    [
      ['VIXCLS', 'CBOE volatility index (VIX)', 'VIX', rate(19, 8, 9, 82, 2),
        'Implied 30-day volatility of the S&P 500, in annualised percentage points: divide by sqrt(12) for a one-month or by sqrt(252) for a one-day standard deviation. Not a price; do not compute returns on it for allocation. Closes from 1990-01-02 to 2026-07-23 are the real Cboe closes (data package datasets/finance-vix); later days are generated. Methodology changed in 2003 (S&P 500 options across strikes replaced S&P 100 at-the-money).'],
    ],
  ),
  family(
    { category: 'us_macro', country: 'US', source_category: 'financial_conditions', frequency: 'daily', unit: 'percentage points', source: 'ICE', sa: false, start: '1996-12-31', lagDays: 1 },
    [
      ['BAMLH0A0HYM2', 'ICE BofA US high yield option-adjusted spread', 'H0A0', rate(5, 2, 2.4, 21.8, 2),
        'Spread over Treasuries in percentage points (5.00 = 500 bp), option-adjusted. Index constituents change monthly, so the series mixes credit-quality drift with pricing. Since 2023 ICE licensing lets FRED show only three years of history; longer history here comes from earlier captures.'],
      ['BAMLC0A0CM', 'ICE BofA US corporate (investment grade) option-adjusted spread', 'C0A0', rate(1.5, 0.6, 0.7, 6.1, 2),
        'Percentage points over Treasuries, investment-grade corporates. The BBB share of the index rose from about a third to half since 2000, so the same spread now means a lower-rated index.'],
    ],
  ),
  family(
    { category: 'us_macro', country: 'US', source_category: 'financial_conditions', frequency: 'daily', unit: 'percentage points', source: 'FRED', sa: false, start: '1976-06-01', lagDays: 1 },
    [
      ['T10Y2Y', '10-year minus 2-year Treasury constant maturity spread', 'T10Y2Y', rate(0.9, 0.7, -1.1, 2.9, 2),
        'Percentage points; negative means the curve is inverted. Leading: an inversion has preceded every US recession since the late 1970s, with leads of roughly 6 to 24 months, and the un-inversion often comes just before the recession. Computed by FRED from constant-maturity yields, so it inherits their interpolation.'],
      ['T10Y3M', '10-year minus 3-month Treasury spread', 'T10Y3M', rate(1.6, 0.9, -1.9, 4.0, 2),
        'Percentage points; the NY Fed\'s recession-probability model uses this spread (3-month on a bond-equivalent basis). Negative = inverted. Its lead and false-signal record differ from the 10y-2y; both inverted in 2022-2024.'],
    ],
  ),
);

// ---------------------------------------------------------------------------------------------- us_credit

const delinquencyNote = (what: string, kind: 'delinquency' | 'charge-off') =>
  kind === 'delinquency'
    ? `Delinquent ${what} as a percent of ${what} outstanding at all commercial banks, quarterly, seasonally adjusted. Delinquent means 30+ days past due or nonaccrual; it is a stock at quarter end, not a flow. Revised when banks amend Call Reports.`
    : `Net charge-offs on ${what}, percent of average loans, at an annual rate: a quarter's losses are multiplied by four, so do not annualise again. Charge-offs lag delinquency by two to four quarters; accounting changes (CECL from 2020) shifted timing.`;

const fedDelinquency = family(
  { category: 'us_credit', country: 'US', source_category: 'delinquency_chargeoffs', frequency: 'quarterly', unit: 'percent', source: 'Federal Reserve Board', sa: true, start: '1985-01-01', lagDays: 50, revises: true },
  [
    ['DRALACBS', 'Delinquency rate on all loans, all commercial banks', 'DRALACBS', rate(3.5, 1.0, 1.1, 7.5, 2), delinquencyNote('loans', 'delinquency')],
    ['DRSFRMACBS', 'Delinquency rate on single-family residential mortgages', 'DRSFRMACBS', rate(3.5, 2.0, 1.4, 11.3, 2), delinquencyNote('single-family residential mortgages (booked in domestic offices)', 'delinquency') + ' The 2010 peak above 11 reflects foreclosure backlogs, not only new defaults.'],
    ['DRCCLACBS', 'Delinquency rate on credit card loans', 'DRCCLACBS', rate(3.8, 0.8, 1.5, 6.8, 2), delinquencyNote('credit card loans', 'delinquency') + ' Starts 1991.'],
    ['DRBLACBS', 'Delinquency rate on business loans', 'DRBLACBS', rate(2.5, 1.0, 0.7, 6.5, 2), delinquencyNote('commercial and industrial loans', 'delinquency')],
    ['DRCLACBS', 'Delinquency rate on consumer loans', 'DRCLACBS', rate(3.0, 0.6, 1.6, 4.9, 2), delinquencyNote('consumer loans (cards, auto and other)', 'delinquency')],
    ['CORALACBS', 'Charge-off rate on all loans, all commercial banks', 'CORALACBS', rate(1.0, 0.5, 0.2, 3.1, 2), delinquencyNote('all loans', 'charge-off')],
    ['CORCCACBS', 'Charge-off rate on credit card loans', 'CORCCACBS', rate(4.5, 1.5, 1.5, 10.5, 2), delinquencyNote('credit card loans', 'charge-off') + ' Card losses move with unemployment with a lag of about a year.'],
    ['CORBLACBS', 'Charge-off rate on business loans', 'CORBLACBS', rate(0.7, 0.5, 0.1, 2.6, 2), delinquencyNote('commercial and industrial loans', 'charge-off')],
    ['CORSFRMACBS', 'Charge-off rate on single-family residential mortgages', 'CORSFRMACBS', rate(0.3, 0.4, -0.1, 2.8, 2), delinquencyNote('single-family residential mortgages', 'charge-off') + ' Can be negative when recoveries exceed gross charge-offs (2021-2023).'],
  ],
);

const ncuaNote = (extra: string) =>
  `Aggregate of all federally insured credit unions from NCUA 5300 Call Reports, quarter end. ${extra} The population shrinks by mergers (about 3 percent of credit unions a year), so totals grow partly by absorbing institutions that were already counted; per-institution averages are distorted by mergers.`;

const ncua = family(
  { category: 'us_credit', country: 'US', source_category: 'credit_unions', frequency: 'quarterly', unit: 'billions of US dollars', source: 'NCUA', sa: false, start: '1994-01-01', lagDays: 70, revises: false },
  [
    ['NCUA_TOTAL_ASSETS', 'Credit unions: total assets', 'CU_ASSETS', lvl(290, 0.065, 0.02, 1), ncuaNote('Total assets, billions, a stock.')],
    ['NCUA_TOTAL_LOANS', 'Credit unions: total loans and leases', 'CU_LOANS', lvl(190, 0.065, 0.025, 1), ncuaNote('Loans and leases outstanding, billions, gross of allowance.')],
    ['NCUA_SHARES', 'Credit unions: total shares and deposits', 'CU_SHARES', lvl(250, 0.062, 0.02, 1), ncuaNote('Member shares and deposits, billions; the credit-union equivalent of bank deposits.')],
    ['NCUA_AUTO_LOANS', 'Credit unions: auto loans outstanding', 'CU_AUTO', lvl(60, 0.06, 0.04, 1), ncuaNote('New plus used vehicle loans, billions; indirect (dealer-originated) loans included.')],
  ],
).concat(
  family(
    { category: 'us_credit', country: 'US', source_category: 'credit_unions', frequency: 'quarterly', unit: 'percent', source: 'NCUA', sa: false, start: '1994-01-01', lagDays: 70 },
    [
      ['NCUA_DELINQUENCY', 'Credit unions: delinquency rate', 'CU_DELINQ', rate(1.0, 0.35, 0.4, 1.9, 2), ncuaNote('Loans 60+ days delinquent as a percent of loans (banks use 30+ days: not comparable with the bank delinquency series).')],
      ['NCUA_NET_WORTH_RATIO', 'Credit unions: net worth ratio', 'CU_NWRATIO', rate(10.8, 0.5, 9.5, 12, 2), ncuaNote('Net worth over total assets, percent. Falls when deposits surge (2020) even without losses, because assets grow faster than retained earnings.')],
      ['NCUA_ROA', 'Credit unions: return on average assets', 'CU_ROA', rate(0.8, 0.3, 0.1, 1.4, 2), ncuaNote('Net income as a percent of average assets, annualised from year-to-date figures: the Q1 value covers one quarter and Q4 the whole year, so it is not a per-quarter return.')],
    ],
  ),
);

const householdNote = (what: string) =>
  `${what} from the NY Fed Quarterly Report on Household Debt and Credit, built from the Equifax-based Consumer Credit Panel (a 5 percent sample of credit files), trillions of dollars, quarter end, not seasonally adjusted. Student loans in administrative forbearance (2020-2023) were reported current, which hides delinquency in that window.`;

const householdDebt = family(
  { category: 'us_credit', country: 'US', source_category: 'household_debt', frequency: 'quarterly', unit: 'trillions of US dollars', source: 'NY Fed', sa: false, start: '2003-01-01', lagDays: 40 },
  [
    ['HHD_TOTAL', 'Household debt: total', 'HHD_C_REPORT.TOTAL', lvl(7.2, 0.045, 0.015, 2), householdNote('Total household debt')],
    ['HHD_MORTGAGE', 'Household debt: mortgage', 'HHD_C_REPORT.MORTGAGE', lvl(4.9, 0.045, 0.015, 2), householdNote('First-lien mortgage balances')],
    ['HHD_HELOC', 'Household debt: home equity revolving', 'HHD_C_REPORT.HE_REVOLVING', lvl(0.24, 0.03, 0.04, 3), householdNote('Home equity lines of credit')],
    ['HHD_AUTO', 'Household debt: auto loans', 'HHD_C_REPORT.AUTO', lvl(0.64, 0.045, 0.015, 3), householdNote('Auto loan balances (banks, finance companies and credit unions)')],
    ['HHD_CREDIT_CARD', 'Household debt: credit card', 'HHD_C_REPORT.CREDIT_CARD', lvl(0.69, 0.025, 0.03, 3), householdNote('Credit card balances; a seasonal Q4 rise and Q1 paydown are in the data because it is not adjusted')],
    ['HHD_STUDENT', 'Household debt: student loans', 'HHD_C_REPORT.STUDENT_LOAN', lvl(0.24, 0.085, 0.015, 3), householdNote('Student loan balances, federal and private')],
  ],
).concat(
  family(
    { category: 'us_credit', country: 'US', source_category: 'household_debt', frequency: 'quarterly', unit: 'percent of balance', source: 'NY Fed', sa: false, start: '2003-01-01', lagDays: 40 },
    [
      ['HHD_SERIOUS_DELINQ_TOTAL', 'Household debt: percent of balance 90+ days delinquent', 'HHD_C_REPORT.DELINQ90_TOTAL', rate(4.5, 1.6, 2.5, 12, 2), householdNote('Share of all balances 90 or more days delinquent').replace('trillions of dollars', 'percent of balance')],
      ['HHD_TRANSITION_CC', 'Flow into serious delinquency: credit card', 'HHD_C_REPORT.FLOW90_CC', rate(8, 2, 4, 14, 2), householdNote('Percent of credit card balances that moved into 90+ day delinquency during the quarter, annualised (a flow rate, unlike the stock shares)').replace('trillions of dollars', 'percent of balance')],
    ],
  ),
);

const bankNote = (what: string) =>
  `${what} FDIC Quarterly Banking Profile, all FDIC-insured institutions, quarter end. Income items are year-to-date at the source; this series holds the quarter's own amount (Q4 = Q4 only), so sum four quarters for a year. The number of institutions falls every year through mergers, which moves aggregates independently of activity.`;

const banks = family(
  { category: 'us_credit', country: 'US', source_category: 'bank_aggregates', frequency: 'quarterly', unit: 'billions of US dollars', source: 'FDIC', sa: false, start: '1984-01-01', lagDays: 55, revises: true },
  [
    ['FDIC_TOTAL_ASSETS', 'Insured institutions: total assets', 'QBP.ASSETS', lvl(2_700, 0.05, 0.02, 1), bankNote('Total assets, billions, from the')],
    ['FDIC_TOTAL_DEPOSITS', 'Insured institutions: total deposits', 'QBP.DEP', lvl(2_100, 0.05, 0.02, 1), bankNote('Domestic and foreign-office deposits, billions, from the')],
    ['FDIC_NET_INCOME', 'Insured institutions: quarterly net income', 'QBP.NETINC', lvl(4, 0.06, 0.25, 2), bankNote('Net income for the quarter, billions (can be negative, as in 2009Q4), from the')],
  ],
).concat(
  family(
    { category: 'us_credit', country: 'US', source_category: 'bank_aggregates', frequency: 'quarterly', unit: 'percent', source: 'FDIC', sa: false, start: '1984-01-01', lagDays: 55 },
    [
      ['FDIC_NIM', 'Insured institutions: net interest margin', 'QBP.NIMY', rate(3.6, 0.3, 2.5, 4.9, 2), bankNote('Net interest income over average earning assets, annualised percent, from the')],
      ['FDIC_ROA', 'Insured institutions: return on assets', 'QBP.ROA', rate(1.0, 0.3, -0.4, 1.4, 2), bankNote('Annualised quarterly net income over average assets, percent, from the')],
      ['FDIC_NONCURRENT_RATE', 'Insured institutions: noncurrent loan rate', 'QBP.NCLNLSR', rate(1.5, 0.9, 0.6, 5.5, 2), bankNote('Loans 90+ days past due or nonaccrual over total loans, percent (a stock at quarter end), from the')],
    ],
  ),
  family(
    { category: 'us_credit', country: 'US', source_category: 'bank_aggregates', frequency: 'quarterly', unit: 'number of institutions', source: 'FDIC', sa: false, start: '1984-01-01', lagDays: 55 },
    [
      ['FDIC_PROBLEM_BANKS', 'Problem banks (CAMELS 4 or 5)', 'QBP.PROBLEM', lvl(200, -0.02, 0.35, 0), bankNote('Count of institutions rated 4 or 5 by supervisors; the list itself is confidential, only the count is published in the')],
    ],
  ),
  family(
    { category: 'us_credit', country: 'US', source_category: 'bank_aggregates', frequency: 'weekly', unit: 'billions of US dollars', source: 'Federal Reserve Board', sa: true, start: '1973-01-03', weekday: 3, lagDays: 9, revises: true },
    [
      ['TOTLL', 'Loans and leases in bank credit, all commercial banks (H.8)', 'H8.B1020', lvl(500, 0.06, 0.02, 1),
        'Wednesday level from H.8, seasonally adjusted billions. H.8 is estimated from a weekly sample benchmarked to quarterly Call Reports; benchmarking and reclassifications (e.g. a large nonbank becoming a bank) create breaks that the Fed lists in the release notes. Weekly changes under 0.2 percent are within revision noise.'],
      ['DPSACBW027SBOG', 'Deposits, all commercial banks (H.8)', 'H8.B1058', lvl(600, 0.06, 0.02, 1),
        'Wednesday level, seasonally adjusted billions; includes large time deposits. The 2023-03 outflows from regional banks show as a step; benchmark revisions move history.'],
    ],
  ),
);

// ---------------------------------------------------------------------------------------------- us_valuation

const treasuryNote = (m: string) =>
  `Treasury constant-maturity yield, ${m}, percent per annum on a bond-equivalent basis: ${ANNUALISED.toLowerCase()} Interpolated by the Treasury from on-the-run securities, so it is a fitted point, not a traded bond. Business days only; no value on federal and bond-market holidays.`;

const tsyMembers: [string, string, number, number, string][] = [
  ['DGS1MO', '1-month', 1.3, 2001, 'Starts 2001-07-31. Bill yields can turn slightly negative in flight-to-quality episodes (published as 0.00 at times).'],
  ['DGS3MO', '3-month', 1.4, 1981, 'Bill yields reflect debt-ceiling episodes (bills maturing near an X-date trade at a premium).'],
  ['DGS6MO', '6-month', 1.5, 1981, ''],
  ['DGS1', '1-year', 1.6, 1962, ''],
  ['DGS2', '2-year', 1.7, 1976, 'The most policy-sensitive note: moves with expected fed funds over two years.'],
  ['DGS3', '3-year', 1.7, 1962, ''],
  ['DGS5', '5-year', 1.6, 1962, ''],
  ['DGS7', '7-year', 1.5, 1969, ''],
  ['DGS10', '10-year', 1.4, 1962, 'The benchmark long rate; the same yield quoted by the market feed as ^TNX can differ by a few basis points because of timing (Treasury uses 3:30 pm bid-side quotes).'],
  ['DGS20', '20-year', 1.3, 1993, 'Gap 1987-1993: the 20-year was not issued then and Treasury published no value; this series starts when issuance resumed.'],
  ['DGS30', '30-year', 1.2, 1977, 'Gap 2002-02-19 to 2006-02-08 while the 30-year bond was suspended; Treasury published an extrapolation factor instead, not a yield.'],
];

function tenorYears(id: string): number {
  const m = /DGS(\d+)(MO)?$/.exec(id)!;
  return m[2] ? Number(m[1]) / 12 : Number(m[1]);
}

const treasuries: IndicatorDef[] = tsyMembers.map(([id, m, vol, year, extra]) => ({
  id,
  name: `Market yield on US Treasury securities at ${m} constant maturity`,
  category: 'us_valuation',
  country: 'US',
  source_category: 'treasury_yields',
  frequency: 'daily',
  unit: 'percent',
  source: 'Federal Reserve Board',
  source_series_id: `H15.${id.replace('DGS', 'TCMNOM_')}`,
  sa: false,
  start: `${year}-01-02`,
  model: rate(3.6 + Math.log(1 + tenorYears(id)) * 0.45, vol, 0, 16, 2),
  factor: 'us_treasury',
  notes: `${treasuryNote(m)} ${extra}`.trim(),
  visible: true,
  lagDays: 1,
}));

const valuation = family(
  { category: 'us_valuation', country: 'US', source_category: 'equity_valuation', frequency: 'monthly', unit: 'ratio', source: 'Robert Shiller (Yale)', sa: false, start: '1881-01-01', lagDays: 10, revises: true },
  [
    ['CAPE', 'Cyclically adjusted price-to-earnings ratio (Shiller CAPE), S&P 500', 'ie_data.CAPE', rate(17, 4, 4.8, 44, 2),
      'Real price over the 10-year average of real earnings (CPI-deflated). Monthly prices are averages of daily closes, not month-end. The latest months use estimated earnings and are revised when reported earnings arrive. Accounting changes (FAS 142 goodwill write-downs from 2002, lower payout ratios) push modern values up, so historical averages overstate how expensive current levels are.'],
    ['SP500_PE_TTM', 'S&P 500 price to trailing twelve-month reported earnings', 'ie_data.PE', rate(16, 5, 5, 120, 2),
      'Price over trailing four-quarter reported (GAAP) earnings. Spikes when earnings collapse (about 120 in 2009), so it is a poor valuation signal in recessions; use CAPE or forward P/E then.'],
    ['SP500_DIV_YIELD', 'S&P 500 dividend yield', 'ie_data.DY', rate(3.5, 0.8, 1.1, 14, 2),
      'Trailing twelve-month dividends over price, percent. Buybacks replaced part of dividends since the 1980s, so the yield understates cash returned to shareholders relative to history.', 'percent'],
  ],
).concat(
  family(
    { category: 'us_valuation', country: 'US', source_category: 'market_cap_to_gdp', frequency: 'quarterly', unit: 'percent of GDP', source: 'Federal Reserve Board', sa: false, start: '1951-10-01', lagDays: 72, revises: true },
    [
      ['MKTCAP_GDP', 'Market value of US corporate equities to GDP (Buffett indicator)', 'Z1.NCBEILQ027S/GDP', rate(90, 25, 33, 210, 1),
        'Nonfinancial corporate equities at market value (Financial Accounts Z.1, table B.103) divided by nominal GDP, percent. A quarter-end stock over an annual-rate flow, so no annualisation is needed. Both parts are revised; foreign profits of US firms inflate the ratio relative to earlier decades.'],
    ],
  ),
  family(
    { category: 'us_valuation', country: 'US', source_category: 'gdp', frequency: 'quarterly', unit: 'billions of US dollars, annual rate', source: 'BEA', sa: true, start: '1947-01-01', lagDays: 30, revises: true },
    [
      ['GDP', 'Gross domestic product (nominal)', 'GDP', lvl(243, 0.062, 0.015, 3),
        'Current dollars, seasonally adjusted annual rate: each quarter is at a yearly pace, so do not multiply by 4; the calendar-year GDP is the average of the four quarters. Revised three times in the first quarter after release and again in annual and comprehensive revisions.'],
    ],
  ),
  family(
    { category: 'us_valuation', country: 'US', source_category: 'treasury_yields', frequency: 'daily', unit: 'percent', source: 'Federal Reserve Board', sa: false, start: '2003-01-02', lagDays: 1 },
    [
      ['DFII10', '10-year TIPS yield (real)', 'H15.TCMII_Y10', rate(1, 0.8, -1.2, 3.4, 2),
        `Real yield on inflation-indexed 10-year Treasuries, percent per annum above CPI-U. ${ANNUALISED} Negative values (2012-2013, 2020-2021) are real. TIPS are less liquid than nominals, which biases the yield up in stress.`],
    ],
  ),
);

// ---------------------------------------------------------------------------------------------- us_insurance

const assetClasses: [string, string, number][] = [
  ['BONDS', 'bonds', 0.7],
  ['PREF_STOCK', 'preferred stocks', 0.01],
  ['COMMON_STOCK', 'common stocks', 0.05],
  ['MORTGAGES', 'mortgage loans on real estate', 0.1],
  ['REAL_ESTATE', 'real estate', 0.01],
  ['CASH_ST', 'cash, cash equivalents and short-term investments', 0.04],
  ['CONTRACT_LOANS', 'contract (policy) loans', 0.03],
  ['DERIVATIVES', 'derivatives', 0.01],
  ['OTHER_INVESTED', 'other invested assets (Schedule BA)', 0.05],
];

const INSURANCE_CLASS_NOTES: Record<string, string> = {
  bonds: 'Bonds are carried at amortised cost, not market value, so rate moves do not show; the 2021 granular NAIC designations reclassify but do not revalue.',
  'common stocks': 'Common stocks are at fair value, so this line moves with equity markets, and it includes affiliated subsidiaries at equity value, which inflates it for groups that own insurers.',
  'preferred stocks': 'Preferred stocks are at amortised cost for highly rated issues and at fair value for lower ones: a mixed-basis total.',
  'mortgage loans on real estate': 'Commercial mortgages dominate; carried at unpaid balance less impairments, so losses appear only when written down.',
  'real estate': 'Carried at depreciated cost: long-held property sits far below market value.',
  'cash, cash equivalents and short-term investments': 'Includes money-market funds since the 2017 reporting change; year-end swings reflect window dressing.',
  'contract (policy) loans': 'Loans to policyholders against cash values; repayment is at the policyholder\'s option.',
  derivatives: 'Reported at fair value under netting rules that changed over time; small and can flip sign in net terms.',
  'other invested assets (Schedule BA)': 'Schedule BA holds private equity, hedge funds, LLCs and surplus notes, mostly at equity-method values that lag a quarter or more.',
};

const insuranceNote = (line: string, account: string, cls: string) =>
  `${line} industry aggregate from NAIC annual statements (${account}), billions of dollars at statement value as of December 31, dated January 1 of the statement year. ${INSURANCE_CLASS_NOTES[cls]} General-account and separate-account lines are separate pools: add them only knowingly, and never to a total that already includes them.`;

function insurers(prefix: string, line: string, account: string, scale: number, classes: [string, string, number][]): IndicatorDef[] {
  return classes.map(([code, label, share]) => ({
    id: `${prefix}_${code}`,
    name: `${line} insurers (${account}): ${label}`,
    category: 'us_insurance',
    country: 'US',
    source_category: `${line.toLowerCase().replace(/[^a-z]+/g, '_')}_${account.replace(/ /g, '_')}`,
    frequency: 'annual',
    unit: 'billions of US dollars',
    source: 'NAIC',
    source_series_id: `NAIC.${prefix}.${code}`,
    sa: false,
    start: '2001-01-01',
    model: lvl(Math.max(1, scale * share), 0.035, 0.06, 1),
    notes: insuranceNote(line, account, label),
    visible: true,
    lagDays: 170,
  }));
}

const insurance = [
  ...insurers('LIFE_GA', 'Life', 'general account', 2_600, assetClasses),
  ...insurers('LIFE_SA', 'Life', 'separate account', 1_100, assetClasses.filter(([c]) => c !== 'CONTRACT_LOANS')),
  ...insurers('PC', 'Property/casualty', 'all accounts', 1_000, assetClasses.filter(([c]) => c !== 'CONTRACT_LOANS')),
  ...family(
    { category: 'us_insurance', country: 'US', source_category: 'totals', frequency: 'annual', unit: 'billions of US dollars', source: 'NAIC', sa: false, start: '2001-01-01', lagDays: 170 },
    [
      ['LIFE_GA_TOTAL', 'Life insurers (general account): total cash and invested assets', 'NAIC.LIFE_GA.TOTAL', lvl(2_900, 0.04, 0.03, 1),
        'Sum of the general-account invested lines at statement value, year end, dated January 1 of the statement year. Excludes separate accounts (variable annuity assets held for policyholders), which belong to policyholders\' risk.'],
      ['LIFE_SA_TOTAL', 'Life insurers (separate account): total assets', 'NAIC.LIFE_SA.TOTAL', lvl(1_500, 0.06, 0.12, 1),
        'Separate-account assets at fair value, year end: they move with equity markets because policyholders bear the investment risk; not available to general creditors.'],
      ['PC_TOTAL', 'Property/casualty insurers: total cash and invested assets', 'NAIC.PC.TOTAL', lvl(1_100, 0.05, 0.04, 1),
        'Sum of invested lines, statement value, year end. Common stock is a larger share than for life insurers, so this total is equity-sensitive; catastrophe years draw down cash.'],
    ],
  ),
  ...family(
    { category: 'us_insurance', country: 'US', source_category: 'financial_accounts', frequency: 'quarterly', unit: 'billions of US dollars', source: 'Federal Reserve Board', sa: false, start: '1952-01-01', lagDays: 72, revises: true },
    [
      ['Z1_LIFE_TOTAL_ASSETS', 'Life insurance companies: total financial assets (Z.1 L.116)', 'FL544090005', lvl(70, 0.07, 0.03, 1),
        'Financial Accounts of the United States, table L.116, quarter end, market value for equities and book value for most debt: differs from NAIC statement totals by valuation basis and scope (includes foreign-owned US subsidiaries). Revised with every Z.1 release.'],
      ['Z1_LIFE_CORP_BONDS', 'Life insurance companies: corporate and foreign bonds (Z.1 L.116)', 'FL543063005', lvl(35, 0.07, 0.03, 1),
        'Table L.116, quarter end, billions; includes private placements, which NAIC reports separately. Book value for most of the history, so rate-driven price changes barely show. Revised with each Z.1.'],
      ['Z1_LIFE_TREASURIES', 'Life insurance companies: Treasury securities (Z.1 L.116)', 'FL543061105', lvl(5, 0.05, 0.06, 1),
        'Table L.116, quarter end, billions. Small share of assets; rises when insurers de-risk, so changes are portfolio decisions rather than market moves.'],
      ['Z1_LIFE_AGENCY_MBS', 'Life insurance companies: agency and GSE-backed securities (Z.1 L.116)', 'FL543061705', lvl(4, 0.07, 0.06, 1),
        'Table L.116, quarter end, billions; pass-throughs and CMOs backed by Fannie Mae, Freddie Mac and Ginnie Mae. Prepayments shrink holdings in refinancing waves without any sale.'],
      ['Z1_LIFE_EQUITIES', 'Life insurance companies: corporate equities (Z.1 L.116)', 'LM543064105', lvl(3, 0.09, 0.15, 1),
        'Table L.116 at market value, quarter end, billions: moves with stock prices; mostly held in separate accounts on behalf of variable-annuity policyholders.'],
      ['Z1_LIFE_MF_SHARES', 'Life insurance companies: mutual fund shares (Z.1 L.116)', 'LM543064205', lvl(1, 0.1, 0.15, 1),
        'Table L.116 at market value, billions; separate-account fund holdings dominate. Series starts with meaningful values in the 1980s; early values are small and rounded.'],
      ['Z1_PC_CORP_BONDS', 'Property-casualty insurance companies: corporate and foreign bonds (Z.1 L.115)', 'FL513063003', lvl(3, 0.07, 0.04, 1),
        'Table L.115, quarter end, billions. Same 2019 source change as the P/C total.'],
      ['Z1_PC_MUNIS', 'Property-casualty insurance companies: municipal securities (Z.1 L.115)', 'FL513062003', lvl(4, 0.05, 0.05, 1),
        'Table L.115, quarter end, billions. Tax-driven: holdings fell after the 2017 corporate tax cut reduced the value of tax exemption, not because of credit concerns.'],
      ['Z1_PC_TOTAL_ASSETS', 'Property-casualty insurance companies: total financial assets (Z.1 L.115)', 'FL514090005', lvl(12, 0.07, 0.04, 1),
        'Financial Accounts table L.115, quarter end. A methodology change in 2019 moved to statutory filings for all P/C companies, a level break; quarterly values interpolate some annual source data.'],
    ],
  ),
];

// ---------------------------------------------------------------------------------------------- india_macro

const rbiRates = family(
  { category: 'india_macro', country: 'IN', source_category: 'policy_rates', frequency: 'daily', unit: 'percent', source: 'RBI', sa: false, start: '2001-04-02', lagDays: 1 },
  [
    ['IN_REPO_RATE', 'RBI policy repo rate', 'DBIE.REPO', step(6.5, 0.25, 3, 4, 9),
      `Policy rate set by the Monetary Policy Committee (since 2016; by the Governor before), percent per annum. ${ANNUALISED} A step series: it changes only at MPC meetings, so daily rows repeat the value; count changes, not rows. Business days of Mumbai only.`],
    ['IN_REVERSE_REPO', 'RBI fixed-rate reverse repo rate', 'DBIE.RREPO', step(5.5, 0.25, 3, 3.35, 8),
      `Percent per annum. ${ANNUALISED} Since 2022-04-08 the standing deposit facility (SDF) replaced it as the floor of the corridor; the reverse repo remains but is no longer the operative floor, so its spread to repo is not the corridor width after that date.`],
    ['IN_MSF_RATE', 'RBI marginal standing facility rate', 'DBIE.MSF', step(7, 0.25, 3, 4.25, 10.25),
      `Ceiling of the policy corridor, percent per annum (from 2011-05). ${ANNUALISED} In 2013-07 RBI raised it to 10.25 as a currency defence, a temporary decoupling from repo.`],
    ['IN_CRR', 'Cash reserve ratio', 'DBIE.CRR', step(4.5, 0.25, 1, 3, 9),
      'Percent of net demand and time liabilities banks must hold with RBI, unremunerated. A ratio, not a rate of return; cuts release liquidity with effect from a fortnight date, which may differ from the announcement date on this series.'],
    ['IN_SLR', 'Statutory liquidity ratio', 'DBIE.SLR', step(20, 0.25, 1, 18, 25),
      'Percent of net demand and time liabilities to be held in approved securities (mostly government bonds). Cut in steps from 25 to 18 between 2008 and 2020.'],
  ],
);

const rbiMoney = family(
  { category: 'india_macro', country: 'IN', source_category: 'money_and_credit', frequency: 'weekly', unit: 'billions of US dollars', source: 'RBI', sa: false, start: '1998-01-02', weekday: 5, lagDays: 7 },
  [
    ['IN_FX_RESERVES', 'India foreign exchange reserves: total', 'DBIE.FXRES_TOTAL', lvl(26, 0.12, 0.08, 2),
      'Friday level in US dollars (RBI also publishes rupee values; the dollar figure includes valuation changes from other currencies and gold, so a weekly change is not intervention). Published with a one-week lag. In this data set the total is the sum of IN_FX_FCA and IN_FX_GOLD; the small SDR and IMF reserve-tranche components are carried inside foreign currency assets.'],
    ['IN_FX_FCA', 'India foreign exchange reserves: foreign currency assets', 'DBIE.FXRES_FCA', lvl(24, 0.12, 0.08, 2),
      'Foreign currency assets in US dollars, Friday level, including the effect of appreciation or depreciation of non-dollar holdings (euro, yen, pound).'],
    ['IN_FX_GOLD', 'India foreign exchange reserves: gold', 'DBIE.FXRES_GOLD', lvl(2.5, 0.07, 0.12, 3),
      'Gold reserves valued in US dollars at market prices: changes mostly reflect the gold price, not purchases. RBI revalues gold monthly to quarterly, so the weekly series is stepwise between revaluations.'],
  ],
).concat(
  family(
    { category: 'india_macro', country: 'IN', source_category: 'money_and_credit', frequency: 'monthly', unit: 'crores of rupees', source: 'RBI', sa: false, start: '1990-04-01', lagDays: 20, revises: true },
    [
      ['IN_M3', 'Broad money (M3)', 'DBIE.M3', lvl(300_000, 0.12, 0.015, 0),
        'Outstanding level in crores of rupees (1 crore = 10 million), last reporting Friday of the month. The merger of HDFC Ltd into HDFC Bank (2023-07-01) added a non-bank\'s liabilities to bank deposits: a one-off jump of about 2 percent that is not money creation. Compute growth year over year.'],
      ['IN_M1', 'Narrow money (M1)', 'DBIE.M1', lvl(90_000, 0.115, 0.025, 0),
        'Crores of rupees. Demonetisation (2016-11-08) removed about 86 percent of currency in circulation for weeks, so M1 collapsed and rebuilt through 2017: growth rates across 2016-2018 are distorted.'],
      ['IN_BANK_CREDIT', 'Scheduled commercial banks: non-food credit', 'DBIE.NFC', lvl(100_000, 0.145, 0.015, 0),
        'Crores of rupees, fortnightly data taken at the last reporting Friday of the month. Same HDFC merger break as M3 (2023-07); RBI publishes growth excluding the merger, which this level does not.'],
    ],
  ),
  family(
    { category: 'india_macro', country: 'IN', source_category: 'money_and_credit', frequency: 'daily', unit: 'percent', source: 'RBI', sa: false, start: '2002-01-02', lagDays: 1 },
    [
      ['IN_TBILL_91D', '91-day treasury bill yield', 'DBIE.TB91', rate(6.5, 1.2, 3.2, 11.5, 2),
        `Weekly auction cut-off yields carried on business days, percent per annum. ${ANNUALISED} Auction days only change the value; other days repeat the last auction.`],
      ['IN_GSEC_10Y', '10-year benchmark government security yield', 'FBIL.GSEC10', rate(7.5, 1.0, 5.7, 9.5, 3),
        `FBIL benchmark yield, percent per annum, semi-annual compounding. ${ANNUALISED} The benchmark bond is rolled to a new issue every year or two, so the series jumps slightly at each change of benchmark.`],
    ],
  ),
);

const mospi = family(
  { category: 'india_macro', country: 'IN', source_category: 'activity_and_prices', frequency: 'monthly', unit: 'index 2011-12=100', source: 'MOSPI', sa: false, start: '2012-04-01', lagDays: 42, revises: true },
  [
    ['IN_IIP', 'Index of industrial production: general', 'IIP.GENERAL', lvl(100, 0.035, 0.05, 1),
      'Index base 2011-12=100, not seasonally adjusted (compare year over year). The previous base 2004-05 is not spliced in; old-base values are in the non-visible IN_IIP_2004 series. The first estimate is revised twice over the next two months, usually upward.'],
    ['IN_IIP_MFG', 'Index of industrial production: manufacturing', 'IIP.MFG', lvl(100, 0.035, 0.05, 1),
      'Base 2011-12=100, about 78 percent of the IIP basket. Not seasonally adjusted; March (fiscal year end) is seasonally high.'],
    ['IN_CPI_COMBINED', 'Consumer price index: combined (rural + urban)', 'CPI.COMBINED', lvl(100, 0.055, 0.012, 1),
      'Index base 2012=100, not seasonally adjusted; RBI\'s 4 percent (±2) target is the year-over-year change. Food is about 46 percent of the basket, so the index swings with vegetable prices. A new base year (2024) is planned; the old base will not be spliced automatically.'],
    ['IN_CPI_RURAL', 'Consumer price index: rural', 'CPI.RURAL', lvl(100, 0.055, 0.012, 1), 'Base 2012=100, larger food weight than urban. 2020-04 and 2020-05 values were imputed by MOSPI during lockdown (field collection stopped).'],
    ['IN_CPI_URBAN', 'Consumer price index: urban', 'CPI.URBAN', lvl(100, 0.055, 0.012, 1), 'Base 2012=100; housing appears only in the urban index, so urban and rural are not comparable component by component. 2020-04/05 partially imputed.'],
  ],
).concat(
  family(
    { category: 'india_macro', country: 'IN', source_category: 'activity_and_prices', frequency: 'monthly', unit: 'index 2011-12=100', source: 'Office of the Economic Adviser (DPIIT)', sa: false, start: '2012-04-01', lagDays: 14, revises: true },
    [
      ['IN_WPI', 'Wholesale price index: all commodities', 'WPI.ALL', lvl(100, 0.04, 0.015, 1),
        'Base 2011-12=100. The provisional figure is replaced by a final one ten weeks later, sometimes by a full point. Services are excluded, and fuel has a heavy weight, so WPI inflation can be negative while CPI inflation is high (2015-2016, 2023).'],
    ],
  ),
  family(
    { category: 'india_macro', country: 'IN', source_category: 'national_accounts', frequency: 'quarterly', unit: 'crores of rupees', source: 'MOSPI', sa: false, start: '2011-04-01', lagDays: 60, revises: true },
    [
      ['IN_GDP_REAL', 'GDP at constant 2011-12 prices', 'NAS.GDP_CONST', lvl(1_300_000, 0.06, 0.03, 0),
        'Crores of rupees at 2011-12 prices, quarterly, not seasonally adjusted, quarters of the April-March fiscal year. Not an annual rate: sum four quarters for the fiscal year. Estimates are revised twice a year for about three years; the 2011-12 base series has no official back-series before 2011 with the same method.'],
      ['IN_GFCF_REAL', 'Gross fixed capital formation at constant prices', 'NAS.GFCF_CONST', lvl(440_000, 0.06, 0.04, 0),
        'Crores of rupees at 2011-12 prices, quarterly. Expenditure-side components do not add to GDP: MOSPI publishes a discrepancy line. Revised with GDP.'],
    ],
  ),
  family(
    { category: 'india_macro', country: 'IN', source_category: 'national_accounts', frequency: 'quarterly', unit: 'percent', source: 'MOSPI', sa: false, start: '2012-04-01', lagDays: 60, revises: true },
    [
      ['IN_GDP_GROWTH', 'Real GDP growth, year over year', 'NAS.GDP_YOY', rate(6.5, 2.5, -24, 21, 1),
        'Percent change from the same quarter a year earlier (not annualised quarter-on-quarter, which India does not publish). Base effects make 2020Q2 (-23.9) and 2021Q2 (+20.1) extreme.'],
      ['IN_GFCF_GDP', 'Gross fixed capital formation, percent of GDP', 'NAS.GFCF_RATIO', rate(31, 1.5, 26, 36, 1),
        'Current-price GFCF over current-price GDP, percent; quarterly ratios are seasonal, so compare the same quarter across years.'],
    ],
  ),
);

const nseMembers: [string, string, number, number, number][] = [
  ['NIFTY50', 'Nifty 50', 21, 3.4, 1.3],
  ['NIFTY500', 'Nifty 500', 23, 3.3, 1.2],
  ['NIFTYBANK', 'Nifty Bank', 19, 2.6, 0.8],
  ['NIFTYMID150', 'Nifty Midcap 150', 28, 3.8, 0.9],
  ['NIFTYNEXT50', 'Nifty Next 50', 24, 3.6, 1.2],
  ['NIFTYIT', 'Nifty IT', 25, 6.5, 2.0],
  ['NIFTYFMCG', 'Nifty FMCG', 40, 10.5, 1.6],
  ['NIFTYPHARMA', 'Nifty Pharma', 30, 4.2, 0.8],
  ['NIFTYAUTO', 'Nifty Auto', 24, 3.8, 1.1],
  ['NIFTYMETAL', 'Nifty Metal', 12, 1.6, 2.4],
  ['NIFTYREALTY', 'Nifty Realty', 35, 2.6, 0.5],
  ['NIFTYSMALL250', 'Nifty Smallcap 250', 30, 3.5, 0.8],
];

const nseValuation: IndicatorDef[] = nseMembers.flatMap(([code, label, pe, pb, dy]) => {
  const common = {
    category: 'india_macro' as const,
    country: 'IN',
    source_category: 'index_valuation',
    frequency: 'daily' as const,
    source: 'NSE',
    sa: false,
    start: '2005-01-03',
    visible: true,
    lagDays: 1,
  };
  const base = `${label} index as published daily by NSE Indices. Weighted by free-float market capitalisation.`;
  return [
    { ...common, id: `${code}_PE`, name: `${label} price to earnings ratio`, unit: 'ratio', source_series_id: `NSE.${code}.PE`, model: rate(pe, 4, pe * 0.5, pe * 1.9, 2),
      notes: `${base} Since 2021-04-01 NSE computes P/E from consolidated earnings where available (standalone before), which lowered the ratio by about two points: a methodology break. Trailing four-quarter earnings, so it jumps on results days.` },
    { ...common, id: `${code}_PB`, name: `${label} price to book ratio`, unit: 'ratio', source_series_id: `NSE.${code}.PB`, model: rate(pb, 0.5, pb * 0.5, pb * 1.8, 2),
      notes: `${base} Book value updates only twice a year (half-yearly balance sheets), so day-to-day changes are price moves alone.` },
    { ...common, id: `${code}_DY`, name: `${label} dividend yield`, unit: 'percent', source_series_id: `NSE.${code}.DY`, model: rate(dy, 0.3, dy * 0.4, dy * 2.2, 2),
      notes: `${base} Trailing twelve-month dividends over price, percent; dividends entered on ex-dates. Dividend distribution tax was abolished in 2020, which changed payout behaviour.` },
  ];
});

// ---------------------------------------------------------------------------------------------- global_macro

const BCI_COUNTRIES: [string, string][] = [
  ['AUS', 'Australia'], ['AUT', 'Austria'], ['BEL', 'Belgium'], ['BRA', 'Brazil'], ['CHE', 'Switzerland'], ['CHL', 'Chile'],
  ['CHN', 'China'], ['COL', 'Colombia'], ['CZE', 'Czechia'], ['DEU', 'Germany'], ['DNK', 'Denmark'], ['ESP', 'Spain'],
  ['EST', 'Estonia'], ['FIN', 'Finland'], ['FRA', 'France'], ['GBR', 'United Kingdom'], ['GRC', 'Greece'], ['HUN', 'Hungary'],
  ['IDN', 'Indonesia'], ['IRL', 'Ireland'], ['ITA', 'Italy'], ['JPN', 'Japan'], ['KOR', 'Korea'], ['LTU', 'Lithuania'],
  ['LUX', 'Luxembourg'], ['LVA', 'Latvia'], ['MEX', 'Mexico'], ['NLD', 'Netherlands'], ['NZL', 'New Zealand'], ['POL', 'Poland'],
  ['PRT', 'Portugal'], ['RUS', 'Russia'], ['SVK', 'Slovakia'], ['SVN', 'Slovenia'], ['SWE', 'Sweden'], ['TUR', 'Turkey'], ['USA', 'United States'],
];
const BCI_QUIRKS: Record<string, string> = {
  CHN: ' Derived from the NBS manufacturing PMI, re-scaled; China\'s survey excludes small private firms.',
  JPN: ' Based on the quarterly Tankan, interpolated to months by the OECD: monthly moves between Tankan dates are not observed.',
  RUS: ' OECD suspended updates for Russia in March 2022: the series ends with February 2022 and its last_date will not move.',
  USA: ' Based on the ISM manufacturing index (a diffusion index rescaled), not a Census survey.',
  GBR: ' Based on the CBI industrial trends survey.',
  DEU: ' Based on the ifo business climate survey (manufacturing).',
  IDN: ' Quarterly survey interpolated to months by the OECD.',
  NZL: ' Quarterly NZIER survey interpolated to months.',
  AUS: ' Based on the NAB business survey.',
};

const bci: IndicatorDef[] = BCI_COUNTRIES.map(([iso, country]) => ({
  id: `BCI_${iso}`,
  name: `Business confidence index: ${country}`,
  category: 'global_macro',
  country: iso,
  source_category: 'business_confidence',
  frequency: 'monthly',
  unit: 'index, long-term average=100',
  source: 'OECD',
  source_series_id: `${iso}.BCICP03.STSA`,
  sa: true,
  start: iso === 'CHN' || iso === 'IDN' || iso === 'RUS' ? '1993-01-01' : '1970-01-01',
  model: rate(100, 1.4, 94, 104, 2),
  notes: `OECD business confidence indicator (BCI) for ${country}: national manufacturing survey balances, amplitude-adjusted so that 100 is the long-term average; above 100 signals above-average confidence. The normalisation is recomputed with each release, so the entire history shifts slightly every month. Leading indicator: tends to turn two to six months before industrial production.${BCI_QUIRKS[iso] ?? ''}`,
  visible: true,
  lagDays: 25,
  revises: iso === 'USA' || iso === 'DEU',
}));

function yieldCurve(prefix: string, label: string, source: string, seriesPrefix: string, country: string, sc: string, start: string, tenors: number[], note: (t: number) => string, base: number, factor: string): IndicatorDef[] {
  return tenors.map((t) => ({
    id: `${prefix}_${t}Y`,
    name: `${label}, ${t}-year`,
    category: 'global_macro',
    country,
    source_category: sc,
    frequency: 'daily',
    unit: 'percent',
    source,
    source_series_id: `${seriesPrefix}${t}Y`,
    sa: false,
    start,
    model: rate(base + Math.log(1 + t) * 0.5, 1.1, -1, 9, 3),
    notes: note(t),
    visible: true,
    lagDays: 1,
    factor,
  }));
}

const bund = yieldCurve('DE_BUND', 'German federal securities yield (Bundesbank term structure)', 'Bundesbank', 'BBSIS.D.I.ZST.ZI.EUR.S1311.B.A604.R', 'DE', 'european_yields', '1997-08-07', [1, 2, 3, 5, 7, 10, 15, 20, 30],
  (t) => `Zero-coupon yield at ${t} years estimated by the Bundesbank from listed federal securities (Svensson method), percent per annum. ${ANNUALISED} A fitted curve point, not a traded bond. Negative yields (${t <= 10 ? '2014-2022' : 'briefly in 2019-2020'}) are genuine.${t === 30 ? ' Sparse long bonds make the 30-year point sensitive to the fit.' : ''}`, 1.5, 'de_curve');
const gilts = yieldCurve('UK_GILT', 'UK government nominal zero-coupon yield (Bank of England)', 'Bank of England', 'IUDSNZC', 'GB', 'european_yields', '1979-01-02', [2, 3, 5, 7, 10, 15, 20, 25],
  (t) => `Bank of England nominal spot curve at ${t} years, percent per annum, continuously compounded: convert with exp(y/100)-1 before comparing with annually compounded yields. Estimated by the variable roughness penalty spline; the whole curve is re-estimated at model changes.${t >= 20 ? ' The 2022-09 LDI crisis (about +100 bp in three days) is real.' : ''}`, 3.2, 'gb_curve');
const eaAaa = yieldCurve('EA_AAA', 'Euro area AAA government bond spot rate (ECB)', 'ECB', 'YC.B.U2.EUR.4F.G_N_A.SV_C_YM.SR_', 'EA', 'euro_area_curves', '2004-09-06', [1, 2, 3, 5, 7, 10, 20, 30],
  (t) => `ECB spot rate at ${t} years from the Svensson curve fitted to AAA-rated euro-area central government bonds, percent per annum, continuous compounding. ${ANNUALISED} The set of AAA issuers changes with ratings (France left in 2012, Austria in 2012, the Netherlands stayed), so the curve's composition shifts without notice.`, 1.2, 'ea_curve');
const eaAll = yieldCurve('EA_ALL', 'Euro area all-issuer government bond spot rate (ECB)', 'ECB', 'YC.B.U2.EUR.4F.G_N_C.SV_C_YM.SR_', 'EA', 'euro_area_curves', '2004-09-06', [1, 2, 5, 10, 20, 30],
  (t) => `ECB spot rate at ${t} years fitted to all euro-area central government bonds regardless of rating, percent per annum, continuous compounding. ${ANNUALISED} Above the AAA curve by a credit and redenomination spread that widened sharply in 2011-2012; euro-area membership growth (Latvia 2014, Lithuania 2015, Croatia 2023) changes the issuer set.`, 1.6, 'ea_curve');

// ---------------------------------------------------------------------------------------------- currencies

const fx = family(
  { category: 'currencies', country: 'US', source_category: 'fx_rates', frequency: 'daily', unit: 'local currency per US dollar', source: 'Federal Reserve Board', sa: false, start: '1973-01-02', lagDays: 3 },
  [
    ['USDINR', 'Indian rupees per US dollar (noon buying rate)', 'DEXINUS', lvl(7.9, 0.045, 0.06, 4),
      'H.10 noon buying rate in New York, rupees per dollar: a rise means the rupee weakened. Published weekly on Mondays for the prior week. Before 1993 the rupee was administered (pegged to a basket), so volatility before then is not market volatility. For the Reserve Bank\'s own reference rate see RBI; values differ by timing.'],
    ['USDJPY', 'Japanese yen per US dollar (noon buying rate)', 'DEXJPUS', lvl(301, -0.012, 0.1, 2),
      'H.10 noon buying rate, yen per dollar: a rise means a weaker yen. Yen quotes carry two decimals, most others four. Fixed at 360 until 1971 and at 308 in 1971-1973 (Smithsonian); the floating series starts 1973.'],
    ['USDKRW', 'South Korean won per US dollar (noon buying rate)', 'DEXKOUS', lvl(880, 0.01, 0.09, 2),
      'H.10 noon buying rate, won per dollar. Starts 1981-04; the won was managed until the 1997 crisis, when it nearly halved in two months: volatility regimes differ before and after 1997-12.'],
    ['USDTWD', 'New Taiwan dollars per US dollar (noon buying rate)', 'DEXTAUS', lvl(37, -0.005, 0.04, 3),
      'H.10 noon buying rate, NT dollars per dollar. Starts 1983-10. The central bank smooths the rate, so daily volatility is low and closing-rate intervention at the Taipei close can differ from the New York noon rate.'],
  ],
).map((d) => ({ ...d, start: d.id === 'USDKRW' ? '1981-04-13' : d.id === 'USDTWD' ? '1983-10-03' : d.start }));


const usExtra = family(
  { category: 'us_macro', country: 'US', source_category: 'inflation', frequency: 'monthly', unit: 'index 1982-1984=100', source: 'BLS', sa: true, start: '1967-01-01', lagDays: 12 },
  [
    ['CUSR0000SAH1', 'CPI: shelter', 'CUSR0000SAH1', lvl(30, 0.04, 0.004, 3),
      'Index level; about a third of headline CPI. Owners\' equivalent rent is imputed from rents of similar units, not house prices, and follows market rents with a lag of about a year, so shelter inflation peaks late.'],
    ['CUSR0000SEHF01', 'CPI: electricity', 'CUSR0000SEHF01', lvl(30, 0.035, 0.025, 3), 'Index level; regulated tariffs make it jump at rate-case dates rather than follow fuel prices smoothly.'],
    ['CUSR0000SAF11', 'CPI: food at home', 'CUSR0000SAF11', lvl(35, 0.034, 0.008, 3), 'Index level; weather and disease shocks (e.g. avian flu and eggs in 2022-2023) cause sharp but transitory moves.'],
    ['CUSR0000SAM', 'CPI: medical care', 'CUSR0000SAM', lvl(28, 0.05, 0.004, 3), 'Index level. Health insurance is measured by the retained-earnings method, updated once a year and spread over 12 months, which produced negative monthly prints from 2022-10 to 2023-09.'],
    ['CUSR0000SETA02', 'CPI: used cars and trucks', 'CUSR0000SETA02', lvl(40, 0.02, 0.05, 3), 'Index level from J.D. Power valuation data with a two-month lag relative to wholesale auction prices; 2021 rose over 40 percent year over year.'],
    ['CUSR0000SA0E', 'CPI: energy', 'CUSR0000SA0E', lvl(30, 0.035, 0.06, 3), 'Index level; gasoline dominates, so it follows crude oil with a lag of two to four weeks.'],
    ['CUSR0000SASLE', 'CPI: services less energy services', 'CUSR0000SASLE', lvl(26, 0.042, 0.003, 3), 'Index level; "supercore" variants additionally exclude shelter; this one does not.'],
  ],
).concat(
  family(
    { category: 'us_macro', country: 'US', source_category: 'labor', frequency: 'monthly', unit: 'thousands of persons', source: 'BLS', sa: true, start: '1939-01-01', lagDays: 5, revises: true },
    [
      ['MANEMP', 'All employees, manufacturing', 'CES3000000001', lvl(9_000, 0.002, 0.015, 0), 'Level in thousands; the 2002 NAICS conversion reclassified some activities out of manufacturing (e.g. publishing), a break BLS reconstructed only back to 1990 in detail. Same monthly and February benchmark revisions as total payrolls.'],
      ['USCONS', 'All employees, construction', 'CES2000000001', lvl(1_300, 0.015, 0.025, 0), 'Level in thousands. Weather-sensitive: a snowy February depresses it and the March rebound is not growth.'],
      ['USGOVT', 'All employees, government', 'CES9000000001', lvl(4_500, 0.02, 0.006, 0), 'Level in thousands; decennial census hiring (March to August of 2000, 2010, 2020) adds a temporary hump of several hundred thousand that unwinds.'],
    ],
  ),
  family(
    { category: 'us_macro', country: 'US', source_category: 'labor', frequency: 'monthly', unit: 'hours', source: 'BLS', sa: true, start: '2006-03-01', lagDays: 5, revises: true },
    [
      ['AWHAETP', 'Average weekly hours, all private employees', 'CES0500000002', rate(34.4, 0.2, 33.7, 35.2, 1), 'Hours per week; moves in 0.1-hour steps. Leading: firms cut hours before headcount, so a sustained fall of 0.3 or more has preceded payroll declines.'],
    ],
  ),
  family(
    { category: 'us_macro', country: 'US', source_category: 'housing', frequency: 'monthly', unit: 'thousands of units, annual rate', source: 'Census', sa: true, start: '1963-01-01', lagDays: 25, revises: true },
    [
      ['HSN1F', 'New one-family houses sold', 'HSN1F', lvl(600, 0, 0.13, 0), 'Seasonally adjusted annual rate in thousands (divide by 12 for the month). Counted at contract signing, not closing, so it leads existing sales; sampling error is large (±15 percent) and revisions big.'],
      ['EXHOSLUSM495S', 'Existing home sales', 'NAR.EXHOSLUS', lvl(4_500, 0, 0.08, 0), 'Seasonally adjusted annual rate in units, from the National Association of Realtors (published here through FRED\'s mirror, 13 months only at source). Counted at closing, so it lags contracts by one to two months.'],
    ],
  ),
  family(
    { category: 'us_macro', country: 'US', source_category: 'housing', frequency: 'monthly', unit: 'months', source: 'Census', sa: true, start: '1963-01-01', lagDays: 25, revises: true },
    [
      ['MSACSR', 'Monthly supply of new houses', 'MSACSR', rate(6, 1.5, 3.3, 12.2, 1), 'Months of supply at the current sales pace (inventory over the monthly rate); includes homes not yet started, unlike the existing-home measure.'],
    ],
  ),
);

const usCreditExtra = family(
  { category: 'us_credit', country: 'US', source_category: 'consumer_credit', frequency: 'monthly', unit: 'billions of US dollars', source: 'Federal Reserve Board', sa: true, start: '1943-01-01', lagDays: 38, revises: true },
  [
    ['TOTALSL', 'Total consumer credit owned and securitized (G.19)', 'G19.TOTALSL', lvl(5, 0.075, 0.01, 2), 'Outstanding level, seasonally adjusted billions; excludes mortgages and home equity lines. Student loans are included since they moved to the federal government (2010 onward most are federal), so growth since 2010 is partly federal lending. Breaks in 2003 and 2015 from new source data are listed in the G.19 notes.'],
    ['REVOLSL', 'Revolving consumer credit (G.19)', 'G19.REVOLSL', lvl(1.2, 0.1, 0.015, 2), 'Mostly credit cards, seasonally adjusted billions outstanding. Starts 1968. Includes balances paid in full each month (transactor balances), so it overstates borrowing.'],
    ['NONREVSL', 'Nonrevolving consumer credit (G.19)', 'G19.NONREVSL', lvl(5, 0.07, 0.01, 2), 'Auto and student loans plus other instalment credit, seasonally adjusted billions outstanding.'],
  ],
).concat(
  family(
    { category: 'us_credit', country: 'US', source_category: 'lending_standards', frequency: 'quarterly', unit: 'net percent of banks', source: 'Federal Reserve Board', sa: false, start: '1990-04-01', lagDays: 35 },
    [
      ['DRTSCILM', 'Net percentage of banks tightening standards for C&I loans to large and middle-market firms (SLOOS)', 'SLOOS.DRTSCILM', rate(5, 15, -30, 84, 1), 'Diffusion measure from the Senior Loan Officer Opinion Survey: percent tightening minus percent easing, not a change in lending volume. Positive = tightening. Leading: readings above 20 have preceded recessions by two to four quarters. Survey dated to the quarter the survey was answered, covering the prior three months.'],
      ['DRTSCIS', 'Net percentage of banks tightening standards for C&I loans to small firms (SLOOS)', 'SLOOS.DRTSCIS', rate(4, 14, -25, 75, 1), 'Same diffusion construction as for large firms; about 70 respondents, so each bank moves the net percentage by 1 to 2 points.'],
      ['DRTSCLCC', 'Net percentage of banks tightening standards for credit card loans (SLOOS)', 'SLOOS.DRTSCLCC', rate(3, 10, -15, 60, 1), 'Diffusion measure; starts 1996 (consumer questions changed in 2011, a small break). Positive = tightening.'],
    ],
  ),
  family(
    { category: 'us_credit', country: 'US', source_category: 'bank_aggregates', frequency: 'weekly', unit: 'billions of US dollars', source: 'Federal Reserve Board', sa: true, start: '1973-01-03', weekday: 3, lagDays: 9, revises: true },
    [
      ['BUSLOANS', 'Commercial and industrial loans, all commercial banks (H.8)', 'H8.B1023', lvl(120, 0.06, 0.03, 1), 'Wednesday level, seasonally adjusted billions. PPP loans (2020-04 to 2021) were booked as C&I loans, creating a hump of about 500 billion that reversed on forgiveness: not organic demand.'],
      ['REALLN', 'Real estate loans, all commercial banks (H.8)', 'H8.B1026', lvl(160, 0.07, 0.02, 1), 'Wednesday level, seasonally adjusted billions; residential plus commercial real estate. Securitisation moves loans off balance sheets (pre-2008), so H.8 understates origination then.'],
      ['CONSUMER', 'Consumer loans, all commercial banks (H.8)', 'H8.B1029', lvl(80, 0.06, 0.02, 1), 'Wednesday level, seasonally adjusted billions. In 2010 FAS 166/167 brought securitised card balances back onto bank books: a one-week jump of about 300 billion.'],
    ],
  ),
);

const valuationExtra = family(
  { category: 'us_valuation', country: 'US', source_category: 'equity_valuation', frequency: 'quarterly', unit: 'ratio', source: 'Federal Reserve Board', sa: false, start: '1951-10-01', lagDays: 72, revises: true },
  [
    ['TOBINS_Q', "Tobin's Q, nonfinancial corporate business", 'Z1.FL102000005/FL102010005', rate(0.9, 0.3, 0.3, 2.1, 3), 'Market value of equities over net worth at replacement cost (Financial Accounts B.103). Replacement cost of intangibles is poorly measured, so the ratio trends up since the 1990s. Both parts revise with each Z.1.'],
    ['CORP_PROFITS_GDP', 'Corporate profits after tax as a share of GDP', 'A055RC1Q027SBEA/GDP', rate(7, 1.5, 3, 12.5, 2), 'Profits with inventory valuation and capital consumption adjustments over nominal GDP, percent; both annual rates, so no annualisation. Elevated since 2010; mean reversion arguments rely on a shorter stable history than they assume.', 'percent of GDP'],
  ],
);

// ---------------------------------------------------------------------------------------------- not visible

const hiddenBase = { frequency: 'monthly' as const, sa: false, start: '1990-01-01', model: rate(1, 0.1, 0, 2), visible: false };
const hidden: IndicatorDef[] = [
  { ...hiddenBase, id: 'TEDRATE', name: 'TED spread', category: 'us_macro', country: 'US', source_category: 'financial_conditions', unit: 'percentage points', source: 'FRED', source_series_id: 'TEDRATE', frequency: 'daily',
    notes: 'Discontinued 2022-01-21: it was 3-month LIBOR minus the 3-month bill rate and LIBOR ceased. No successor is spliced; use a SOFR-based spread or the NFCI. Kept in the dictionary so old ids resolve.' },
  { ...hiddenBase, id: 'USD3MTD156N', name: '3-month USD LIBOR', category: 'us_macro', country: 'US', source_category: 'monetary', unit: 'percent', source: 'ICE', source_series_id: 'USD3MTD156N', frequency: 'daily',
    notes: 'Discontinued: ICE stopped publishing USD LIBOR panels after 2023-06-30, and FRED removed the history under ICE licensing. SOFR is the successor but is secured and overnight, so the two cannot be spliced.' },
  { ...hiddenBase, id: 'NAPM', name: 'ISM manufacturing PMI', category: 'us_macro', country: 'US', source_category: 'sentiment', unit: 'index', source: 'FRED', source_series_id: 'NAPM',
    notes: 'Removed from FRED in 2016 at ISM\'s request; ISM data are proprietary and not republished here. OECD BCI_USA is derived from it and is available.' },
  { ...hiddenBase, id: 'GOLDAMGBD228NLBM', name: 'Gold fixing price, London, 10:30 am', category: 'us_valuation', country: 'GB', source_category: 'commodities', unit: 'USD per troy ounce', source: 'FRED', source_series_id: 'GOLDAMGBD228NLBM', frequency: 'daily',
    notes: 'Removed from FRED in 2022 when LBMA withdrew the licence. Use the market symbol GC=F (COMEX futures), which is a different instrument (futures settlement, not the auction price).' },
  { ...hiddenBase, id: 'WILL5000IND', name: 'Wilshire 5000 total market index', category: 'us_valuation', country: 'US', source_category: 'equity_valuation', unit: 'index', source: 'FRED', source_series_id: 'WILL5000IND', frequency: 'daily',
    notes: 'Removed from FRED in 2024 at Wilshire\'s request. The market-cap-to-GDP ratio here uses Z.1 equity values instead, so it does not depend on this index.' },
  { ...hiddenBase, id: 'IN_IIP_2004', name: 'Index of industrial production, base 2004-05', category: 'india_macro', country: 'IN', source_category: 'activity_and_prices', unit: 'index 2004-05=100', source: 'MOSPI', source_series_id: 'IIP2004.GENERAL',
    notes: 'Superseded by the 2011-12 base (IN_IIP) in 2017; the two bases have different item baskets and weights and MOSPI publishes no official linking factor. Not republished to avoid accidental splicing.' },
  { ...hiddenBase, id: 'IN_WPI_2004', name: 'Wholesale price index, base 2004-05', category: 'india_macro', country: 'IN', source_category: 'activity_and_prices', unit: 'index 2004-05=100', source: 'Office of the Economic Adviser (DPIIT)', source_series_id: 'WPI2004.ALL',
    notes: 'Superseded by base 2011-12 (IN_WPI) in 2017. The new base also dropped indirect taxes from prices, so inflation rates differ between bases even for the same months.' },
  { ...hiddenBase, id: 'IN_GDP_2004', name: 'GDP at factor cost, 2004-05 prices', category: 'india_macro', country: 'IN', source_category: 'national_accounts', unit: 'crores of rupees', source: 'MOSPI', source_series_id: 'NAS2004.GDPFC', frequency: 'quarterly',
    notes: 'Old national-accounts series (factor cost, 2004-05 prices), discontinued in 2015 when the 2011-12 base moved to GDP at market prices and GVA at basic prices with a new corporate data source (MCA21). Growth rates of the two series disagree by up to two points for the same years.' },
  { ...hiddenBase, id: 'IN_MIBOR', name: 'Mumbai interbank offer rate (overnight)', category: 'india_macro', country: 'IN', source_category: 'money_and_credit', unit: 'percent', source: 'FBIL', source_series_id: 'MIBOR.ON', frequency: 'daily',
    notes: 'FBIL overnight MIBOR; withheld pending a licence review of the FBIL benchmarks. The weighted average call rate published by RBI is the public alternative.' },
  { ...hiddenBase, id: 'BCI_ARG', name: 'Business confidence index: Argentina', category: 'global_macro', country: 'ARG', source_category: 'business_confidence', unit: 'index, long-term average=100', source: 'OECD', source_series_id: 'ARG.BCICP03.STSA',
    notes: 'Not part of the OECD BCI set since the 2023 database migration; kept for id resolution. The remaining 37 countries are visible.' },
  { ...hiddenBase, id: 'EA_AAA_3M', name: 'Euro area AAA government bond spot rate, 3-month', category: 'global_macro', country: 'EA', source_category: 'euro_area_curves', unit: 'percent', source: 'ECB', source_series_id: 'YC.B.U2.EUR.4F.G_N_A.SV_C_YM.SR_3M', frequency: 'daily',
    notes: 'The 3-month point of the AAA curve is an extrapolation below the shortest bond in the sample and is unstable; hidden in favour of tenors of one year and more.' },
  { ...hiddenBase, id: 'UK_GILT_40Y', name: 'UK government nominal zero-coupon yield, 40-year', category: 'global_macro', country: 'GB', source_category: 'european_yields', unit: 'percent', source: 'Bank of England', source_series_id: 'IUDSNZC40Y', frequency: 'daily',
    notes: 'Beyond the longest conventional gilts for parts of its history, so it is an extrapolation; the Bank warns against using it. Hidden.' },
  { ...hiddenBase, id: 'NCUA_MEMBERS', name: 'Credit unions: number of members', category: 'us_credit', country: 'US', source_category: 'credit_unions', unit: 'millions of members', source: 'NCUA', source_series_id: 'CU_MEMBERS', frequency: 'quarterly',
    notes: 'Counts memberships, not people: a person in two credit unions is counted twice. Hidden until NCUA\'s 2024 definition change is back-cast.' },
  { ...hiddenBase, id: 'FDIC_TEXAS_RATIO', name: 'Insured institutions: Texas ratio (derived)', category: 'us_credit', country: 'US', source_category: 'bank_aggregates', unit: 'percent', source: 'FDIC', source_series_id: 'DERIVED.TEXAS', frequency: 'quarterly',
    notes: 'A derived ratio (noncurrent loans plus OREO over tangible equity plus reserves); hidden because FDIC does not publish it and aggregate values mask the bank-level signal it was designed for.' },
  { ...hiddenBase, id: 'HHD_STUDENT_DELINQ', name: 'Household debt: student loans 90+ days delinquent', category: 'us_credit', country: 'US', source_category: 'household_debt', unit: 'percent of balance', source: 'NY Fed', source_series_id: 'HHD_C_REPORT.DELINQ90_SL', frequency: 'quarterly',
    notes: 'Hidden: 2020-2023 values are artificially low because loans in the payment pause were reported current, and the 2025 restart of reporting creates a break that the NY Fed has not yet bridged.' },
  { ...hiddenBase, id: 'PC_SA_BONDS', name: 'Property/casualty insurers (separate account): bonds', category: 'us_insurance', country: 'US', source_category: 'property_casualty_separate_account', unit: 'billions of US dollars', source: 'NAIC', source_series_id: 'NAIC.PC_SA.BONDS', frequency: 'annual',
    notes: 'Property/casualty companies essentially do not use separate accounts; the line is zero or suppressed for confidentiality, so it is hidden.' },
  { ...hiddenBase, id: 'LIFE_FRATERNAL_TOTAL', name: 'Fraternal benefit societies: total invested assets', category: 'us_insurance', country: 'US', source_category: 'totals', unit: 'billions of US dollars', source: 'NAIC', source_series_id: 'NAIC.FRAT.TOTAL', frequency: 'annual',
    notes: 'Fraternal societies file a different annual statement blank; their totals are not consistent with the life blank and are kept out of the visible set.' },
  { ...hiddenBase, id: 'USDCNY', name: 'Chinese yuan per US dollar', category: 'currencies', country: 'US', source_category: 'fx_rates', unit: 'CNY per USD', source: 'Federal Reserve Board', source_series_id: 'DEXCHUS', frequency: 'daily',
    notes: 'Onshore CNY is managed around a daily PBOC fixing with a ±2 percent band; hidden because the category is limited to the four Asia exposure pairs the service tracks.' },
  { ...hiddenBase, id: 'USDEUR', name: 'Euro: US dollars per euro', category: 'currencies', country: 'EA', source_category: 'fx_rates', unit: 'USD per EUR', source: 'Federal Reserve Board', source_series_id: 'DEXUSEU', frequency: 'daily',
    notes: 'Quoted as dollars per euro (inverse of the other pairs here), a classic sign trap; hidden to keep the currencies category consistent in direction.' },
  { ...hiddenBase, id: 'EIA_WTI_SPOT_WEEKLY', name: 'WTI spot price, weekly average', category: 'markets', country: 'US', source_category: 'commodities', unit: 'USD per barrel', source: 'EIA', source_series_id: 'PET.RWTC.W', frequency: 'weekly',
    notes: 'Weekly average of the daily EIA spot price; hidden because CL=F carries the daily series and a weekly average of it would duplicate the same source.' },
  { ...hiddenBase, id: 'SENSEX_PE', name: 'S&P BSE Sensex price to earnings ratio', category: 'india_macro', country: 'IN', source_category: 'index_valuation', unit: 'ratio', source: 'BSE', source_series_id: 'BSE.SENSEX.PE', frequency: 'daily',
    notes: 'BSE valuation ratios are licensed data; hidden. NSE\'s NIFTY50_PE covers the same large-cap universe with a public methodology.' },
  { ...hiddenBase, id: 'CPI_IW', name: 'CPI for industrial workers (Labour Bureau), base 2001', category: 'india_macro', country: 'IN', source_category: 'activity_and_prices', unit: 'index 2001=100', source: 'Labour Bureau', source_series_id: 'CPIIW.2001', frequency: 'monthly',
    notes: 'Rebased to 2016=100 in 2020 with a linking factor of 2.88; the 2001-base series ended 2020-08. Hidden; used for dearness allowance, not inflation targeting.' },
  { ...hiddenBase, id: 'JP_JGB_10Y', name: 'Japan 10-year government bond yield', category: 'global_macro', country: 'JP', source_category: 'asian_yields', unit: 'percent', source: 'Ministry of Finance Japan', source_series_id: 'JGB10Y', frequency: 'daily',
    notes: 'Under yield-curve control (2016-2024) the 10-year was capped by the BoJ, so it is a policy variable for that window. Hidden: outside the European sovereign scope of this category.' },
  { ...hiddenBase, id: 'EIA_NG_STORAGE', name: 'Working gas in underground storage, Lower 48', category: 'markets', country: 'US', source_category: 'commodities', unit: 'billion cubic feet', source: 'EIA', source_series_id: 'NG.NW2_EPG0_SWO_R48_BCF.W', frequency: 'weekly',
    notes: 'Weekly stock, Friday level released Thursday; EIA revised its sampling in 2015 (reclassifications between regions). Hidden: markets holds prices only.' },
];

/** Members whose history starts later than their family's. */
const LATER_STARTS: Record<string, string> = {
  TCU: '1967-01-01',
  U6RATE: '1994-01-01',
  AHETPI: '1964-01-01',
  JTSJOL: '2000-12-01',
  REVOLSL: '1968-01-01',
  DRCCLACBS: '1991-01-01',
  DRTSCLCC: '1996-04-01',
  SOFR: '2018-04-03',
  MICH: '1978-01-01',
  USALOLITONOSTSAM: '1960-01-01',
};

const parts = (prefix: string, defs: IndicatorDef[]) => defs.filter((d) => d.id.startsWith(`${prefix}_`) && !d.id.endsWith('_TOTAL')).map((d) => d.id);
const TOTALS: Record<string, string[] | undefined> = {
  LIFE_GA_TOTAL: parts('LIFE_GA', insurance),
  LIFE_SA_TOTAL: parts('LIFE_SA', insurance),
  PC_TOTAL: parts('PC', insurance),
  IN_FX_RESERVES: ['IN_FX_FCA', 'IN_FX_GOLD'],
};

const GAPS: Record<string, [string, string][] | undefined> = {
  DGS30: [['2002-02-19', '2006-02-08']],
  BCI_RUS: [['2022-03-01', '9999-12-31']],
};

export const INDICATOR_DEFS: readonly IndicatorDef[] = [
  ...usMonetary,
  ...usLabor,
  ...usInflation,
  ...usOutput,
  ...usSentiment,
  ...usHousing,
  ...usConditions,
  ...usExtra,
  ...fedDelinquency,
  ...ncua,
  ...householdDebt,
  ...banks,
  ...usCreditExtra,
  ...treasuries,
  ...valuation,
  ...valuationExtra,
  ...insurance,
  ...rbiRates,
  ...rbiMoney,
  ...mospi,
  ...nseValuation,
  ...bci,
  ...bund,
  ...gilts,
  ...eaAaa,
  ...eaAll,
  ...fx,
  ...hidden,
].map((d) => ({ ...d, start: LATER_STARTS[d.id] ?? d.start, sumOf: TOTALS[d.id], real: d.id === 'VIXCLS' ? 'VIX' : undefined, gaps: GAPS[d.id] }));
