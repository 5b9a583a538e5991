import { isValidIsin, isWellFormedIsin } from '../contract/isin.js';

/**
 * AMFI's NAV text files, in the four layouts AMFI has used. Columns are found by header NAME, never
 * by position: in August 2026 AMFI inserted Plan and Option before the NAV, and readers that counted
 * fields broke silently. A header we do not recognise is an error, not a guess.
 */
export type AmfiLayout = 'daily' | 'daily-2026' | 'all-schemes' | 'all-schemes-2026';

/** Why a row's NAV or ISIN is not taken at face value. */
export type QualityReason =
  | 'nav_not_a_number' // #N/A, B.C., -, NA, #DIV/0! …: NAV stored as NULL
  | 'nav_with_note' // e.g. 1000(Div0.1817645): leading number kept, note recorded
  | 'nav_zero' // kept as 0; end of life or not published, never a price
  | 'isin_bad_check_digit'
  | 'isin_malformed';

export interface AmfiRow {
  scheme_code: number;
  scheme_name: string;
  isin: string | null;
  isin2: string | null;
  plan: string | null;
  option: string | null;
  nav: number | null;
  /** The NAV field exactly as written. */
  nav_text: string;
  repurchase_price: string | null;
  sale_price: string | null;
  date: string; // YYYY-MM-DD
  category: string | null;
  amc: string | null;
  line: number;
}

export interface QualityRecord {
  line: number;
  scheme_code: number;
  reason: QualityReason;
  value: string;
}

export interface AmfiFile {
  layout: AmfiLayout;
  rows: AmfiRow[];
  quality: QualityRecord[];
  categories: string[];
  amcs: string[];
}

export class AmfiFormatError extends Error {}

const COLUMN_NAMES: Record<string, string> = {
  schemecode: 'code',
  schemename: 'name',
  'isindivpayout/isingrowth': 'isin',
  isindivreinvestment: 'isin2',
  netassetvalue: 'nav',
  repurchaseprice: 'repurchase',
  saleprice: 'sale',
  date: 'date',
  plan: 'plan',
  option: 'option',
};

const LAYOUTS: Array<[AmfiLayout, string[]]> = [
  ['daily', ['code', 'name', 'isin', 'isin2', 'nav', 'repurchase', 'sale', 'date']],
  ['daily-2026', ['code', 'name', 'plan', 'option', 'isin', 'isin2', 'nav', 'date']],
  ['all-schemes', ['code', 'isin', 'isin2', 'name', 'nav', 'date']],
  ['all-schemes-2026', ['code', 'isin', 'isin2', 'name', 'plan', 'option', 'nav', 'date']],
];

const MONTHS: Record<string, string> = {
  jan: '01', feb: '02', mar: '03', apr: '04', may: '05', jun: '06',
  jul: '07', aug: '08', sep: '09', oct: '10', nov: '11', dec: '12',
};

/** Section headers look like `Open Ended Schemes ( Income )`; any other line without `;` names an AMC. */
const CATEGORY_LINE = /^(open|close|interval)[a-z ]*schemes?\s*\(/i;

export function parseAmfi(text: string): AmfiFile {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  const header = (lines[0] ?? '').split(';').map((h) => COLUMN_NAMES[h.toLowerCase().replace(/\s+/g, '')] ?? `?${h}`);
  const match = LAYOUTS.find(([, cols]) => cols.join(';') === header.join(';'));
  if (!match) throw new AmfiFormatError(`unrecognised AMFI header: ${JSON.stringify(lines[0] ?? '')}`);
  const [layout] = match;
  const col = Object.fromEntries(header.map((h, i) => [h, i])) as Record<string, number>;

  const rows: AmfiRow[] = [];
  const quality: QualityRecord[] = [];
  const categories = new Set<string>();
  const amcs = new Set<string>();
  let category: string | null = null;
  let amc: string | null = null;

  // AMFI ends every file with a line ending; a last line without one was cut off mid-write.
  const endsCleanly = /[\r\n]$/.test(text);
  for (let i = 1; i < lines.length; i++) {
    try {
      readLine(i);
    } catch (e) {
      if (e instanceof AmfiFormatError && i === lines.length - 1 && !endsCleanly) {
        throw new AmfiFormatError(`${e.message} (the file looks truncated)`);
      }
      throw e;
    }
  }
  if (rows.length === 0) throw new AmfiFormatError('no scheme rows: the file is empty or truncated after its header');
  return { layout, rows, quality, categories: [...categories], amcs: [...amcs] };

  function readLine(i: number): void {
    const line = lines[i];
    const lineNo = i + 1;
    if (line.trim() === '') return;
    if (!line.includes(';')) {
      if (CATEGORY_LINE.test(line.trim())) {
        category = line.trim();
        categories.add(category);
        amc = null;
      } else {
        amc = line.trim();
        amcs.add(amc);
      }
      return;
    }
    const f = line.split(';');
    if (f.length !== header.length) {
      throw new AmfiFormatError(`line ${lineNo}: expected ${header.length} fields, found ${f.length}`);
    }
    const codeText = f[col.code].trim();
    if (!/^\d+$/.test(codeText)) throw new AmfiFormatError(`line ${lineNo}: scheme code '${codeText}' is not a number`);
    const code = Number(codeText);
    const navText = f[col.nav].trim();
    const nav = readNav(navText);
    if (nav.reason) quality.push({ line: lineNo, scheme_code: code, reason: nav.reason, value: navText });
    const isins = [f[col.isin], f[col.isin2]].map((raw) => {
      const v = raw.trim();
      if (!v) return null;
      if (!isWellFormedIsin(v)) quality.push({ line: lineNo, scheme_code: code, reason: 'isin_malformed', value: v });
      else if (!isValidIsin(v)) quality.push({ line: lineNo, scheme_code: code, reason: 'isin_bad_check_digit', value: v });
      return v;
    });
    rows.push({
      scheme_code: code,
      scheme_name: f[col.name],
      isin: isins[0],
      isin2: isins[1],
      plan: col.plan === undefined ? null : f[col.plan].trim() || null,
      option: col.option === undefined ? null : f[col.option].trim() || null,
      nav: nav.value,
      nav_text: navText,
      repurchase_price: col.repurchase === undefined ? null : f[col.repurchase].trim() || null,
      sale_price: col.sale === undefined ? null : f[col.sale].trim() || null,
      date: readDate(f[col.date].trim(), lineNo),
      category,
      amc,
      line: lineNo,
    });
  }
}

function readNav(text: string): { value: number | null; reason?: QualityReason } {
  if (/^-?\d+(\.\d+)?$/.test(text)) {
    const value = Number(text);
    return value === 0 ? { value, reason: 'nav_zero' } : { value };
  }
  const lead = /^(\d+(?:\.\d+)?)\(.*\)$/.exec(text);
  if (lead) return { value: Number(lead[1]), reason: 'nav_with_note' };
  return { value: null, reason: 'nav_not_a_number' };
}

function readDate(text: string, lineNo: number): string {
  const m = /^(\d{2})-([A-Za-z]{3})-(\d{4})$/.exec(text);
  const month = m && MONTHS[m[2].toLowerCase()];
  if (!m || !month) throw new AmfiFormatError(`line ${lineNo}: date '${text}' is not DD-Mon-YYYY`);
  return `${m[3]}-${month}-${m[1]}`;
}

/** Counts for `import-amfi --json`. */
export function summarise(file: AmfiFile) {
  const byReason: Record<string, number> = {};
  for (const q of file.quality) byReason[q.reason] = (byReason[q.reason] ?? 0) + 1;
  return {
    layout: file.layout,
    rows: file.rows.length,
    schemes: new Set(file.rows.map((r) => r.scheme_code)).size,
    dates: [...new Set(file.rows.map((r) => r.date))].sort(),
    isins: file.rows.reduce((n, r) => n + (r.isin ? 1 : 0) + (r.isin2 ? 1 : 0), 0),
    /** NAV fields that are not plain numbers (NULLed or kept with a note), as SOURCES.md counts them. */
    non_numeric_navs: (byReason.nav_not_a_number ?? 0) + (byReason.nav_with_note ?? 0),
    zero_navs: byReason.nav_zero ?? 0,
    categories: file.categories.length,
    amcs: file.amcs.length,
    quality: byReason,
  };
}
