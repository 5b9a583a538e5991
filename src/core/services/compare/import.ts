import type { Engine } from '../../engine/engine.js';
import { isIsoDate } from '../../contract/dates.js';

/**
 * Imported prices (`date,symbol,close`, the reference format) for compare: validated line by line
 * so the UI and the CLI can show exactly which line is wrong, then stored in user.prices.
 */
export interface PriceRow {
  date: string;
  symbol: string;
  close: number;
}

export class PriceImportError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

const SYMBOL_RE = /^[A-Za-z0-9^=.&_ -]{1,40}$/;
const NUMBER_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
export const PRICE_COLUMNS = ['date', 'symbol', 'close'] as const;

/** Parses and validates CSV text; throws PriceImportError naming the first bad line (1-based). */
export function parsePricesCsv(text: string): PriceRow[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = lines[0]?.split(',').map((h) => h.trim().toLowerCase()) ?? [];
  const at = PRICE_COLUMNS.map((c) => header.indexOf(c));
  if (at.some((i) => i < 0) || header.length !== PRICE_COLUMNS.length) {
    throw new PriceImportError(1, `the header must be exactly ${PRICE_COLUMNS.join(',')} (got '${lines[0] ?? ''}')`);
  }
  const rows: PriceRow[] = [];
  const seen = new Map<string, number>();
  for (let i = 1; i < lines.length; i++) {
    const raw = lines[i];
    if (raw.trim() === '') continue;
    const line = i + 1;
    const cells = raw.split(',').map((c) => c.trim());
    if (cells.length !== PRICE_COLUMNS.length) throw new PriceImportError(line, `expected ${PRICE_COLUMNS.length} fields, got ${cells.length}`);
    const [date, symbol, closeText] = at.map((j) => cells[j]);
    if (!isIsoDate(date)) throw new PriceImportError(line, `date '${date}' is not a date YYYY-MM-DD`);
    if (!SYMBOL_RE.test(symbol)) throw new PriceImportError(line, `symbol '${symbol}' must be 1-40 letters, digits or ^ = . & _ - space`);
    const close = Number(closeText);
    if (!NUMBER_RE.test(closeText) || !Number.isFinite(close)) throw new PriceImportError(line, `close '${closeText}' is not a number`);
    const key = `${symbol}\u0000${date}`;
    const first = seen.get(key);
    if (first !== undefined) throw new PriceImportError(line, `duplicate of line ${first}: ${symbol} on ${date} appears twice`);
    seen.set(key, line);
    rows.push({ date, symbol, close });
  }
  if (rows.length === 0) throw new PriceImportError(2, 'no price rows after the header');
  return rows;
}

export const CREATE_USER_PRICES = `CREATE TABLE IF NOT EXISTS "user".prices (
  date DATE NOT NULL, symbol VARCHAR NOT NULL, close DOUBLE NOT NULL, PRIMARY KEY (symbol, date))`;

const BATCH = 500;

/** Stores rows in user.prices; a (symbol, date) already there takes the new close. Returns rows written. */
export async function storePrices(engine: Engine, rows: PriceRow[]): Promise<number> {
  await engine.exec(CREATE_USER_PRICES);
  for (let i = 0; i < rows.length; i += BATCH) {
    const chunk = rows.slice(i, i + BATCH);
    const values = chunk.map(() => '(CAST(? AS DATE), ?, CAST(? AS DOUBLE))').join(', ');
    await engine.all(
      `INSERT OR REPLACE INTO "user".prices (date, symbol, close) VALUES ${values}`,
      chunk.flatMap((r) => [r.date, r.symbol, r.close]),
    );
  }
  return rows.length;
}
