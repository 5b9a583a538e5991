/**
 * The listed-company universe of the red-flag sample data: names, NSE-style symbols, INE ISINs with
 * a valid check digit, and a hidden risk level that the table builders read. Deterministic in seed.
 */
import { withCheckDigit } from '../core/contract/isin.js';
import type { Scale } from './options.js';
import { Rng } from './random.js';

export interface Company {
  symbol: string;
  isin: string;
  company_name: string;
  /** 0 = pristine, 1 = distressed; drives how often red flags appear. */
  risk: number;
  /** Half-yearly revenue, ₹ crore (size of the business). */
  revenue_cr: number;
  total_shares: number;
  /** A plausible share price, ₹, for insider-trade values. */
  price: number;
  /** Promoters pledge shares: pledge_data and encumbrance_events agree on who does. */
  pledges: boolean;
  promoters: string[];
  promoter_group: string[];
  directors: string[];
  kmp: string[];
}

/** Spec: "about 750 listed companies". */
export const COMPANY_COUNTS: Readonly<Record<Scale, number>> = { tiny: 40, demo: 200, full: 750 };

const PREFIXES = [
  'Shree', 'Bharat', 'Sun', 'Apex', 'Kaveri', 'Indo', 'Deccan', 'Narmada', 'Ganga', 'Himalaya', 'Sahyadri', 'Vindhya',
  'Konark', 'Ajanta', 'Ellora', 'Godavari', 'Malabar', 'Coromandel', 'Saurashtra', 'Kalinga', 'Aravali', 'Nilgiri',
  'Trident', 'Pinnacle', 'Zenith', 'Orient', 'Vertex', 'Prism', 'Vardhman', 'Suryoday', 'Amrit', 'Lakshmi',
  'Mahalaxmi', 'Jyoti', 'Navbharat', 'Pragati', 'Unnati', 'Shakti', 'Vikas', 'Kirloskar', 'Ambika', 'Rajdhani',
  'Tirupati', 'Siddhi', 'Om', 'Sanghvi', 'Mehta', 'Agarwal', 'Bansal', 'Goenka', 'Jindal', 'Khaitan', 'Poddar',
  'Ruia', 'Somani', 'Birla', 'Lohia', 'Kedia', 'Dalmia', 'Modi', 'Garware', 'Thapar', 'Piramal', 'Sarda',
];
const SECTORS: ReadonlyArray<readonly [string, string]> = [
  ['Cements', 'CEM'], ['Textiles', 'TEX'], ['Pharmaceuticals', 'PHARM'], ['Steel', 'STL'], ['Power', 'PWR'],
  ['Infra Projects', 'INFRA'], ['Chemicals', 'CHEM'], ['Finance', 'FIN'], ['Foods', 'FOOD'], ['Motors', 'MOT'],
  ['Auto Components', 'AUTO'], ['Paper Mills', 'PAPER'], ['Sugar', 'SUGAR'], ['Polymers', 'POLY'],
  ['Realty', 'REAL'], ['Logistics', 'LOGI'], ['Engineering', 'ENGG'], ['Fertilisers', 'FERT'], ['Hotels', 'HOTEL'],
  ['Ceramics', 'CERA'], ['Agro Industries', 'AGRO'], ['Castings', 'CAST'], ['Cables', 'CABLE'], ['Housing Finance', 'HFL'],
  ['Spinning Mills', 'SPIN'], ['Tea', 'TEA'], ['Breweries', 'BREW'], ['Healthcare', 'HEALTH'], ['Software', 'SOFT'],
  ['Shipping', 'SHIP'], ['Tubes', 'TUBE'], ['Electricals', 'ELEC'], ['Glass', 'GLASS'], ['Alloys', 'ALLOY'],
];
const SUFFIXES = ['Limited', 'Ltd', 'Industries Limited', 'Enterprises Limited', 'India Limited'];

export const FIRST_NAMES = [
  'Rajesh', 'Suresh', 'Anil', 'Sunil', 'Ramesh', 'Mahesh', 'Vijay', 'Ajay', 'Sanjay', 'Rakesh', 'Mukesh', 'Dinesh',
  'Prakash', 'Ashok', 'Vinod', 'Arun', 'Kiran', 'Meena', 'Sunita', 'Anita', 'Kavita', 'Priya', 'Neha', 'Pooja',
  'Lakshmi', 'Radha', 'Gopal', 'Krishna', 'Venkat', 'Srinivas', 'Harish', 'Girish', 'Naveen', 'Pradeep', 'Deepak',
  'Amit', 'Rohit', 'Nikhil', 'Varun', 'Aditya', 'Shalini', 'Rekha', 'Usha', 'Manoj', 'Alok', 'Nitin', 'Sachin',
];
export const SURNAMES = [
  'Agarwal', 'Sharma', 'Gupta', 'Mehta', 'Shah', 'Patel', 'Jain', 'Reddy', 'Rao', 'Iyer', 'Nair', 'Menon', 'Kapoor',
  'Malhotra', 'Bansal', 'Goyal', 'Singhania', 'Khanna', 'Chopra', 'Desai', 'Joshi', 'Kulkarni', 'Bhat', 'Pillai',
  'Chatterjee', 'Banerjee', 'Mukherjee', 'Das', 'Sinha', 'Verma', 'Saxena', 'Trivedi', 'Pandey', 'Mishra', 'Choudhary',
];

/** Codes of the hand-built scorecard companies start with a letter; random ones start with a digit. */
export function isinFor(companyCode: string): string {
  return withCheckDigit(`INE${companyCode}0101`);
}

export function personName(rng: Rng, surname?: string): string {
  return `${rng.pick(FIRST_NAMES)} ${surname ?? rng.pick(SURNAMES)}`;
}

export function makeCompanies(count: number, seed: number): Company[] {
  const rng = new Rng(seed, 'flags:companies');
  const names = new Set<string>();
  const symbols = new Set<string>();
  const codes = new Set<string>();
  const out: Company[] = [];
  while (out.length < count) {
    const prefix = rng.pick(PREFIXES);
    const [sector, abbr] = rng.pick(SECTORS);
    const name = `${prefix} ${sector} ${rng.pick(SUFFIXES)}`;
    if (names.has(`${prefix} ${sector}`)) continue;
    let symbol = (prefix.toUpperCase().slice(0, Math.max(3, 10 - abbr.length)) + abbr).slice(0, 10);
    for (let n = 2; symbols.has(symbol); n++) symbol = symbol.slice(0, 9) + String(n);
    let code: string;
    do code = `${rng.int(0, 9)}${rng.int(0, 9)}${rng.int(0, 9)}${String.fromCharCode(65 + rng.int(0, 25))}`;
    while (codes.has(code));
    names.add(`${prefix} ${sector}`);
    symbols.add(symbol);
    codes.add(code);
    const c = rng.fork(symbol);
    // Most listed companies carry few flags; a tail carries many.
    const risk = Math.min(1, c.next() ** 2.5 * 1.1);
    const family = rng.pick(SURNAMES);
    out.push({
      symbol,
      isin: isinFor(code),
      company_name: name,
      risk,
      revenue_cr: Math.round(50 + Math.exp(c.next() * 8) * 2),
      total_shares: c.int(2, 400) * 2_500_000,
      price: Math.round(20 + Math.exp(c.next() * 7)),
      pledges: c.chance(0.12 + 0.7 * risk),
      promoters: [personName(c, family), ...(c.chance(0.5) ? [personName(c, family)] : [])],
      promoter_group: [`${family} Family Trust`, `${prefix} Holdings Private Limited`],
      directors: [personName(c), personName(c)],
      kmp: [personName(c), ...(c.chance(0.5) ? [personName(c)] : [])],
    });
  }
  return out;
}
