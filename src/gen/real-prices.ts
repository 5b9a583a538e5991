/**
 * The real daily closes in the shared data directory (see its SOURCES.md). Values keep the text's
 * number exactly (parsed with Number, which rounds correctly), so `4494.64990234375` stays itself.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { toDay } from './calendar.js';

/** `../shared/data/real-prices` beside the clone (where CI and every developer have it), unless overridden. */
export const REAL_PRICES_DIR = process.env.ALMANAC_REAL_PRICES ?? path.resolve(import.meta.dirname, '../../../shared/data/real-prices');

export interface RealPoint {
  day: number;
  close: number;
}

const cache = new Map<string, RealPoint[]>();

export function realSeries(symbol: 'WTI' | 'SPX' | 'VIX' | 'NIFTY50' | 'NIFTY50_YF'): RealPoint[] {
  const hit = cache.get(symbol);
  if (hit) return hit;
  const file = path.join(REAL_PRICES_DIR, `${symbol}.csv`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new Error(`real price series ${file} is missing; set ALMANAC_REAL_PRICES to the real-prices directory`);
  }
  const lines = text.trim().split('\n');
  if (lines[0].trim() !== 'date,close') throw new Error(`${file}: expected header date,close`);
  const out = lines.slice(1).map((line) => {
    const [date, close] = line.trim().split(',');
    const v = Number(close);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || close === '' || !Number.isFinite(v)) throw new Error(`${file}: bad row ${line}`);
    return { day: toDay(date), close: v };
  });
  cache.set(symbol, out);
  return out;
}
