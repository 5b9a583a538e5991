/**
 * Words the MF generator draws from: fund houses with their real AMFI ISIN issuer codes (read off the
 * real 2006 and 2025 AMFI files where they appear), the filed category headers, and fund-name stems.
 */
import type { CategoryGroupClean } from '../core/contract/mf.js';

export interface Amc {
  name: string;
  /** Four ISIN characters after "INF", e.g. "209K" in INF209K01BF4. */
  issuer: string;
  /** How the house spells itself at the start of scheme names. */
  prefix: string;
  /** First year it launched schemes. */
  from: number;
  /** Set when the house left: its schemes continue under `mergedInto`, or are wound up. */
  until?: string;
  mergedInto?: string;
  /** Relative share of launches. */
  weight: number;
}

export const AMCS: readonly Amc[] = [
  { name: 'Aditya Birla Sun Life Mutual Fund', issuer: '209K', prefix: 'Aditya Birla Sun Life', from: 2006, weight: 8 },
  { name: 'Axis Mutual Fund', issuer: '846K', prefix: 'Axis', from: 2009, weight: 6 },
  { name: 'Bajaj Finserv Mutual Fund', issuer: '0QA7', prefix: 'Bajaj Finserv', from: 2023, weight: 2 },
  { name: 'Bandhan Mutual Fund', issuer: '194K', prefix: 'Bandhan', from: 2006, weight: 6 },
  { name: 'Bank of India Mutual Fund', issuer: '761K', prefix: 'Bank of India', from: 2008, weight: 2 },
  { name: 'Baroda BNP Paribas Mutual Fund', issuer: '955L', prefix: 'Baroda BNP Paribas', from: 2006, weight: 3 },
  { name: 'Canara Robeco Mutual Fund', issuer: '760K', prefix: 'Canara Robeco', from: 2006, weight: 3 },
  { name: 'DSP Mutual Fund', issuer: '740K', prefix: 'DSP', from: 2006, weight: 6 },
  { name: 'Edelweiss Mutual Fund', issuer: '754K', prefix: 'Edelweiss', from: 2008, weight: 4 },
  { name: 'Franklin Templeton Mutual Fund', issuer: '090I', prefix: 'Franklin India', from: 2006, weight: 5 },
  { name: 'HDFC Mutual Fund', issuer: '179K', prefix: 'HDFC', from: 2006, weight: 9 },
  { name: 'HSBC Mutual Fund', issuer: '336L', prefix: 'HSBC', from: 2006, weight: 4 },
  { name: 'ICICI Prudential Mutual Fund', issuer: '109K', prefix: 'ICICI Prudential', from: 2006, weight: 10 },
  { name: 'Invesco Mutual Fund', issuer: '205K', prefix: 'Invesco India', from: 2007, weight: 3 },
  { name: 'ITI Mutual Fund', issuer: '00XX', prefix: 'ITI', from: 2019, weight: 1 },
  { name: 'JM Financial Mutual Fund', issuer: '192K', prefix: 'JM', from: 2006, weight: 2 },
  { name: 'Kotak Mahindra Mutual Fund', issuer: '174K', prefix: 'Kotak', from: 2006, weight: 8 },
  { name: 'LIC Mutual Fund', issuer: '767K', prefix: 'LIC MF', from: 2006, weight: 3 },
  { name: 'Mahindra Manulife Mutual Fund', issuer: '174V', prefix: 'Mahindra Manulife', from: 2016, weight: 2 },
  { name: 'Mirae Asset Mutual Fund', issuer: '769K', prefix: 'Mirae Asset', from: 2008, weight: 4 },
  { name: 'Motilal Oswal Mutual Fund', issuer: '247L', prefix: 'Motilal Oswal', from: 2010, weight: 3 },
  { name: 'Navi Mutual Fund', issuer: '959L', prefix: 'Navi', from: 2010, weight: 2 },
  { name: 'Nippon India Mutual Fund', issuer: '204K', prefix: 'Nippon India', from: 2006, weight: 9 },
  { name: 'NJ Mutual Fund', issuer: '0J8L', prefix: 'NJ', from: 2021, weight: 1 },
  { name: 'PGIM India Mutual Fund', issuer: '223J', prefix: 'PGIM India', from: 2006, weight: 3 },
  { name: 'PPFAS Mutual Fund', issuer: '879O', prefix: 'Parag Parikh', from: 2013, weight: 1 },
  { name: 'quant Mutual Fund', issuer: '966L', prefix: 'quant', from: 2006, weight: 2 },
  { name: 'Quantum Mutual Fund', issuer: '082J', prefix: 'Quantum', from: 2006, weight: 1 },
  { name: 'Samco Mutual Fund', issuer: '0K1H', prefix: 'Samco', from: 2022, weight: 1 },
  { name: 'SBI Mutual Fund', issuer: '200K', prefix: 'SBI', from: 2006, weight: 10 },
  { name: 'Shriram Mutual Fund', issuer: '680P', prefix: 'Shriram', from: 2013, weight: 1 },
  { name: 'Sundaram Mutual Fund', issuer: '903J', prefix: 'Sundaram', from: 2006, weight: 4 },
  { name: 'Tata Mutual Fund', issuer: '277K', prefix: 'Tata', from: 2006, weight: 6 },
  { name: 'Taurus Mutual Fund', issuer: '044D', prefix: 'Taurus', from: 2006, weight: 1 },
  { name: 'Trust Mutual Fund', issuer: '0GCD', prefix: 'TRUSTMF', from: 2021, weight: 1 },
  { name: 'Union Mutual Fund', issuer: '582M', prefix: 'Union', from: 2011, weight: 2 },
  { name: 'Unifi Mutual Fund', issuer: '1MIY', prefix: 'Unifi', from: 2025, weight: 1 },
  { name: 'UTI Mutual Fund', issuer: '789F', prefix: 'UTI', from: 2006, weight: 8 },
  { name: 'WhiteOak Capital Mutual Fund', issuer: '03VN', prefix: 'WhiteOak Capital', from: 2018, weight: 1 },
  { name: 'Zerodha Mutual Fund', issuer: '0R8F', prefix: 'Zerodha', from: 2023, weight: 1 },
  { name: '360 ONE Mutual Fund', issuer: '579F', prefix: '360 ONE', from: 2010, weight: 1 },
  { name: 'Helios Mutual Fund', issuer: '0RAR', prefix: 'Helios', from: 2024, weight: 1 },
  { name: 'IDBI Mutual Fund', issuer: '397L', prefix: 'IDBI', from: 2010, until: '2023-07-28', mergedInto: 'LIC Mutual Fund', weight: 2 },
  { name: 'Principal Mutual Fund', issuer: '173K', prefix: 'Principal', from: 2006, until: '2021-12-23', mergedInto: 'Sundaram Mutual Fund', weight: 3 },
  { name: 'L&T Mutual Fund', issuer: '917K', prefix: 'L&T', from: 2006, until: '2022-11-25', mergedInto: 'HSBC Mutual Fund', weight: 4 },
  { name: 'Sahara Mutual Fund', issuer: '515L', prefix: 'Sahara', from: 2006, until: '2023-06-30', weight: 1 },
  { name: 'Morgan Stanley Mutual Fund', issuer: '063A', prefix: 'Morgan Stanley', from: 2006, until: '2014-06-13', mergedInto: 'HDFC Mutual Fund', weight: 1 },
];

/** NAV model of a sub-category: how the generator moves its price. */
export type NavModel = 'equity' | 'debt' | 'liquid' | 'hybrid' | 'arbitrage' | 'gold' | 'overseas' | 'index';

export interface SubCategory {
  /** SEBI sub-category as AMFI files it (after 2018). */
  sub: string;
  /** The text before " - " in the filed header. */
  head: 'Equity Scheme' | 'Debt Scheme' | 'Hybrid Scheme' | 'Solution Oriented Scheme' | 'Other Scheme';
  /** Pre-2018 header text for the same kind of fund (what matured-before-2018 schemes carry). */
  legacy: string;
  clean: CategoryGroupClean;
  model: NavModel;
  /** Fund-name stems. */
  stems: readonly string[];
  weight: number;
}

export const SUB_CATEGORIES: readonly SubCategory[] = [
  { sub: 'Large Cap Fund', head: 'Equity Scheme', legacy: 'Growth', clean: 'Equity', model: 'equity', stems: ['Bluechip Fund', 'Large Cap Fund', 'Top 100 Fund', 'Frontline Equity Fund'], weight: 5 },
  { sub: 'Large & Mid Cap Fund', head: 'Equity Scheme', legacy: 'Growth', clean: 'Equity', model: 'equity', stems: ['Large & Mid Cap Fund', 'Equity Opportunities Fund', 'Emerging Bluechip Fund'], weight: 3 },
  { sub: 'Mid Cap Fund', head: 'Equity Scheme', legacy: 'Growth', clean: 'Equity', model: 'equity', stems: ['Midcap Fund', 'Mid Cap Opportunities Fund', 'Emerging Equities Fund'], weight: 3 },
  { sub: 'Small Cap Fund', head: 'Equity Scheme', legacy: 'Growth', clean: 'Equity', model: 'equity', stems: ['Small Cap Fund', 'Smaller Companies Fund', 'Emerging Businesses Fund'], weight: 3 },
  { sub: 'Multi Cap Fund', head: 'Equity Scheme', legacy: 'Growth', clean: 'Equity', model: 'equity', stems: ['Multicap Fund', 'Multi Cap Fund'], weight: 2 },
  { sub: 'Flexi Cap Fund', head: 'Equity Scheme', legacy: 'Growth', clean: 'Equity', model: 'equity', stems: ['Flexi Cap Fund', 'Equity Fund', 'Diversified Equity Fund'], weight: 3 },
  { sub: 'Focused Fund', head: 'Equity Scheme', legacy: 'Growth', clean: 'Equity', model: 'equity', stems: ['Focused Equity Fund', 'Focused 30 Fund'], weight: 2 },
  { sub: 'Value Fund', head: 'Equity Scheme', legacy: 'Growth', clean: 'Equity', model: 'equity', stems: ['Value Fund', 'Value Discovery Fund'], weight: 1 },
  { sub: 'Contra Fund', head: 'Equity Scheme', legacy: 'Growth', clean: 'Equity', model: 'equity', stems: ['Contra Fund'], weight: 1 },
  { sub: 'Dividend Yield Fund', head: 'Equity Scheme', legacy: 'Growth', clean: 'Equity', model: 'equity', stems: ['Dividend Yield Fund', 'Dividend Yield Equity Fund'], weight: 1 },
  { sub: 'ELSS', head: 'Equity Scheme', legacy: 'ELSS', clean: 'Equity', model: 'equity', stems: ['Tax Saver Fund', 'ELSS Tax Saver Fund', 'Long Term Equity Fund (ELSS)'], weight: 3 },
  { sub: 'Sectoral/ Thematic', head: 'Equity Scheme', legacy: 'Growth', clean: 'Equity', model: 'equity', stems: ['Banking & Financial Services Fund', 'Pharma & Healthcare Fund', 'Technology Fund', 'Infrastructure Fund', 'Consumption Fund', 'PSU Equity Fund', 'Manufacturing Fund'], weight: 6 },
  { sub: 'Overnight Fund', head: 'Debt Scheme', legacy: 'Liquid', clean: 'Debt', model: 'liquid', stems: ['Overnight Fund'], weight: 2 },
  { sub: 'Liquid Fund', head: 'Debt Scheme', legacy: 'Liquid', clean: 'Debt', model: 'liquid', stems: ['Liquid Fund', 'Cash Fund', 'Liquid Plus Fund'], weight: 4 },
  { sub: 'Ultra Short Duration Fund', head: 'Debt Scheme', legacy: 'Income', clean: 'Debt', model: 'debt', stems: ['Ultra Short Term Fund', 'Savings Fund', 'Ultra Short Duration Fund'], weight: 2 },
  { sub: 'Low Duration Fund', head: 'Debt Scheme', legacy: 'Income', clean: 'Debt', model: 'debt', stems: ['Low Duration Fund', 'Treasury Advantage Fund'], weight: 2 },
  { sub: 'Money Market Fund', head: 'Debt Scheme', legacy: 'Money Market', clean: 'Debt', model: 'debt', stems: ['Money Market Fund', 'Money Manager Fund'], weight: 2 },
  { sub: 'Short Duration Fund', head: 'Debt Scheme', legacy: 'Income', clean: 'Debt', model: 'debt', stems: ['Short Term Fund', 'Short Duration Fund', 'Short Term Income Plan'], weight: 2 },
  { sub: 'Medium Duration Fund', head: 'Debt Scheme', legacy: 'Income', clean: 'Debt', model: 'debt', stems: ['Medium Term Fund', 'Income Opportunities Fund'], weight: 1 },
  { sub: 'Medium to Long Duration Fund', head: 'Debt Scheme', legacy: 'Income', clean: 'Debt', model: 'debt', stems: ['Income Fund', 'Bond Fund'], weight: 1 },
  { sub: 'Long Duration Fund', head: 'Debt Scheme', legacy: 'Income', clean: 'Debt', model: 'debt', stems: ['Long Duration Fund'], weight: 1 },
  { sub: 'Dynamic Bond', head: 'Debt Scheme', legacy: 'Income', clean: 'Debt', model: 'debt', stems: ['Dynamic Bond Fund', 'Flexi Debt Fund'], weight: 1 },
  { sub: 'Corporate Bond Fund', head: 'Debt Scheme', legacy: 'Income', clean: 'Debt', model: 'debt', stems: ['Corporate Bond Fund'], weight: 2 },
  { sub: 'Credit Risk Fund', head: 'Debt Scheme', legacy: 'Income', clean: 'Debt', model: 'debt', stems: ['Credit Risk Fund', 'Credit Opportunities Fund'], weight: 1 },
  { sub: 'Banking and PSU Fund', head: 'Debt Scheme', legacy: 'Income', clean: 'Debt', model: 'debt', stems: ['Banking & PSU Debt Fund', 'Banking and PSU Fund'], weight: 1 },
  { sub: 'Gilt Fund', head: 'Debt Scheme', legacy: 'Gilt', clean: 'Debt', model: 'debt', stems: ['Gilt Fund', 'Gilt Securities Fund'], weight: 1 },
  { sub: 'Gilt Fund with 10 year constant duration', head: 'Debt Scheme', legacy: 'Gilt', clean: 'Debt', model: 'debt', stems: ['Constant Maturity Gilt Fund'], weight: 0.3 },
  { sub: 'Floater Fund', head: 'Debt Scheme', legacy: 'Floating Rate', clean: 'Debt', model: 'debt', stems: ['Floating Rate Fund', 'Floater Fund'], weight: 1 },
  { sub: 'Conservative Hybrid Fund', head: 'Hybrid Scheme', legacy: 'Income', clean: 'Hybrid', model: 'hybrid', stems: ['Regular Savings Fund', 'Conservative Hybrid Fund', 'Monthly Income Plan'], weight: 2 },
  { sub: 'Balanced Hybrid Fund', head: 'Hybrid Scheme', legacy: 'Balanced', clean: 'Hybrid', model: 'hybrid', stems: ['Balanced Fund'], weight: 0.5 },
  { sub: 'Aggressive Hybrid Fund', head: 'Hybrid Scheme', legacy: 'Balanced', clean: 'Hybrid', model: 'hybrid', stems: ['Equity Hybrid Fund', 'Hybrid Equity Fund', 'Balanced Fund'], weight: 2 },
  { sub: 'Dynamic Asset Allocation or Balanced Advantage', head: 'Hybrid Scheme', legacy: 'Balanced', clean: 'Hybrid', model: 'hybrid', stems: ['Balanced Advantage Fund', 'Dynamic Asset Allocation Fund'], weight: 1.5 },
  { sub: 'Multi Asset Allocation', head: 'Hybrid Scheme', legacy: 'Balanced', clean: 'Hybrid', model: 'hybrid', stems: ['Multi Asset Fund', 'Multi Asset Allocation Fund'], weight: 1 },
  { sub: 'Arbitrage Fund', head: 'Hybrid Scheme', legacy: 'Income', clean: 'Hybrid', model: 'arbitrage', stems: ['Arbitrage Fund', 'Equity Arbitrage Fund'], weight: 1.5 },
  { sub: 'Equity Savings', head: 'Hybrid Scheme', legacy: 'Balanced', clean: 'Hybrid', model: 'hybrid', stems: ['Equity Savings Fund'], weight: 1 },
  { sub: 'Retirement Fund', head: 'Solution Oriented Scheme', legacy: 'Balanced', clean: 'Other', model: 'hybrid', stems: ['Retirement Fund', 'Retirement Savings Fund'], weight: 0.6 },
  { sub: 'Children\u2019s Fund', head: 'Solution Oriented Scheme', legacy: 'Balanced', clean: 'Other', model: 'hybrid', stems: ['Children\u2019s Gift Fund', 'Children\u2019s Fund'], weight: 0.4 },
  { sub: 'Index Funds', head: 'Other Scheme', legacy: 'Growth', clean: 'Other', model: 'index', stems: ['Nifty 50 Index Fund', 'Nifty Next 50 Index Fund', 'Nifty Midcap 150 Index Fund', 'Sensex Index Fund', 'Nifty SDL Apr 2027 Index Fund'], weight: 3 },
  { sub: 'Other  ETFs', head: 'Other Scheme', legacy: 'Other ETFs', clean: 'Other', model: 'index', stems: ['Nifty 50 ETF', 'Nifty Bank ETF', 'Liquid ETF', 'Nifty IT ETF'], weight: 1.5 },
  { sub: 'Gold ETF', head: 'Other Scheme', legacy: 'Gold ETFs', clean: 'Other', model: 'gold', stems: ['Gold ETF', 'Gold Exchange Traded Fund'], weight: 0.6 },
  { sub: 'FoF Domestic', head: 'Other Scheme', legacy: 'Fund of Funds - Domestic', clean: 'Other', model: 'hybrid', stems: ['Asset Allocator FoF', 'Gold Fund of Fund', 'Multi Manager FoF'], weight: 1 },
  { sub: 'FoF Overseas', head: 'Other Scheme', legacy: 'Fund of Funds - Overseas', clean: 'Other', model: 'overseas', stems: ['US Equity FoF', 'Global Innovation FoF', 'Nasdaq 100 FoF', 'Asian Equity Fund'], weight: 1 },
];

/** Close-ended and interval schemes are filed under a legacy-style header even after 2018. */
export const CLOSED_CATEGORIES = [
  { category: 'Income', clean: 'Debt', model: 'debt', stems: ['Fixed Maturity Plan - Series', 'Fixed Term Plan - Series', 'Fixed Horizon Fund - Series', 'Capital Protection Oriented Fund - Series'] },
  { category: 'Growth', clean: 'Equity', model: 'equity', stems: ['Emerging Leaders Fund - Series', 'Equity Opportunities Fund - Series', 'Focused Equity Fund - Series'] },
  { category: 'ELSS', clean: 'Equity', model: 'equity', stems: ['Tax Advantage Fund - Series', 'Long Term Advantage Fund - Series'] },
] as const;

export const INTERVAL_STEMS = ['Quarterly Interval Fund - Series', 'Interval Fund - Annual Plan - Series', 'Monthly Interval Fund - Series'];

export const FUND_MANAGERS = [
  'Rajeev Thakkar', 'Prashant Jain', 'Sankaran Naren', 'Neelesh Surana', 'Anoop Bhaskar', 'Shreyash Devalkar',
  'R. Srinivasan', 'Harsha Upadhyaya', 'Jinesh Gopani', 'Mahesh Patil', 'Chirag Setalvad', 'Sailesh Raj Bhan',
  'Ankit Agarwal', 'Rohit Singhania', 'Sohini Andani', 'Vinit Sambre', 'Anupam Joshi', 'Devang Shah',
  'Pankaj Tibrewal', 'Kaustubh Gupta', 'Amit Ganatra', 'Deepak Agrawal', 'Shriram Ramanathan', 'Rahul Goswami',
  'Manish Banthia', 'Anil Bamboli', 'Sunaina da Cunha', 'Kedar Karnik', 'Vikas Garg', 'Rajasa Kakulavarapu',
];

export const REGISTRARS = ['Computer Age Management Services Ltd', 'KFin Technologies Ltd'];
export const CUSTODIANS = ['Deutsche Bank AG', 'HDFC Bank Ltd', 'Citibank N.A.', 'Standard Chartered Bank', 'SBI-SG Global Securities Services', 'Kotak Mahindra Bank Ltd'];

export const BENCHMARKS: Readonly<Record<CategoryGroupClean, readonly string[]>> = {
  Equity: ['NIFTY 100 TRI', 'NIFTY 500 TRI', 'NIFTY LargeMidcap 250 TRI', 'NIFTY Midcap 150 TRI', 'NIFTY Smallcap 250 TRI', 'BSE 500 TRI', 'NIFTY 50 TRI'],
  Debt: ['CRISIL Liquid Debt A-I Index', 'CRISIL Short Duration Debt A-II Index', 'CRISIL Dynamic Gilt Index', 'CRISIL Corporate Debt A-II Index', 'CRISIL Money Market A-I Index', 'NIFTY Composite Debt Index A-III'],
  Hybrid: ['CRISIL Hybrid 35+65 - Aggressive Index', 'NIFTY 50 Hybrid Composite Debt 50:50 Index', 'NIFTY Equity Savings Index', 'NIFTY 50 Arbitrage Index', 'CRISIL Hybrid 85+15 - Conservative Index'],
  Other: ['NIFTY 50 TRI', 'Domestic Price of Gold', 'Nasdaq-100 TRI (INR)', 'MSCI World Index (INR)', 'CRISIL Hybrid 50+50 - Moderate Index'],
};
