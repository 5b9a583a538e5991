/**
 * Daily OHLCV for the 16 market symbols. Where a real close series exists (S&P 500, NIFTY 50, WTI)
 * its closes are used exactly for its window and generated closes continue it on both sides;
 * open/high/low/volume are always generated around the close. Every other symbol follows a
 * mean-reverting log path anchored at a plausible level on 2026-11-13. Closes are drawn in date
 * order from keyed streams and bars from per-date streams, so a later generation only appends.
 */
import { MARKET_SYMBOLS, type MarketSymbol } from '../core/contract/indicators.js';
import { toDay, tradingDays } from './calendar.js';
import { round } from './indicator-series.js';
import { Rng } from './random.js';
import { realSeries, type RealPoint } from './real-prices.js';

export interface Bar {
  day: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number | null;
}

interface MarketModel {
  start: string;
  calendar: string;
  /** Level on ANCHOR; ignored when real closes pin the path. */
  anchorLevel: number;
  trend: number;
  vol: number;
  /** Mean reversion of the log deviation from trend, per year. */
  k: number;
  dp: number;
  volume: number;
  /** Real windows in date order; the later one wins where two overlap. */
  real?: { series: 'SPX' | 'NIFTY50' | 'NIFTY50_YF' | 'WTI'; from?: string }[];
  /** Brent: a spread over the WTI symbol's close instead of its own path. */
  spreadOver?: string;
  notes: string;
}

const ANCHOR = toDay('2026-11-13');

export const MARKET_MODELS: Record<string, MarketModel> = {
  '^GSPC': { start: '2000-01-03', calendar: 'US', anchorLevel: 6700, trend: 0.07, vol: 0.17, k: 0.3, dp: 2, volume: 3.8e9, real: [{ series: 'SPX' }],
    notes: 'Price index (dividends excluded): total return is about 1.5 to 2 points a year higher. Closes from 2016-02-12 to 2026-02-11 are the real FRED SP500 closes (data package datasets/s-and-p-500, which drops US market holidays); closes outside that window and all open/high/low/volume are generated. Volume is the consolidated share volume of the constituents, not index units.' },
  '^NSEI': { start: '1990-07-03', calendar: 'IN', anchorLevel: 25900, trend: 0.11, vol: 0.2, k: 0.3, dp: 2, volume: 3.0e8,
    real: [{ series: 'NIFTY50' }, { series: 'NIFTY50_YF', from: '2016-04-28' }],
    notes: 'Price index in rupees. Real closes: 1990-07-03 to 2016-04-27 from an NSE historical download (two decimals; includes Saturday special sessions), then 2016-04-28 to 2024-12-31 as served by Yahoo Finance (^NSEI, float32 artefacts such as 4494.64990234375 kept as stored). Later closes and all open/high/low/volume are generated. Muhurat (Diwali evening) sessions are one-hour trading days.' },
  '^N225': { start: '1990-01-04', calendar: 'JP', anchorLevel: 48000, trend: 0.03, vol: 0.22, k: 0.4, dp: 2, volume: 1.2e9,
    notes: 'Price-weighted (not capitalisation-weighted) average of 225 Tokyo stocks in yen, so high-priced shares such as Fast Retailing dominate. Generated sample path. The Tokyo exchange closes January 1-3 and December 31.' },
  '^HSI': { start: '1990-01-02', calendar: 'HK', anchorLevel: 26000, trend: 0.03, vol: 0.24, k: 0.4, dp: 2, volume: 2.5e9,
    notes: 'Hang Seng Index in Hong Kong dollars, free-float capitalisation-weighted; mainland companies are now most of the weight. Half-day sessions on Christmas Eve and New Year\'s Eve have normal rows. Generated sample path.' },
  '^GDAXI': { start: '1990-01-02', calendar: 'DE', anchorLevel: 23800, trend: 0.06, vol: 0.21, k: 0.4, dp: 2, volume: 7.0e7,
    notes: 'DAX is a performance (total-return) index: dividends are reinvested, so it is not comparable with price indices such as the S&P 500 or Nikkei without adjustment. Expanded from 30 to 40 members in 2021-09. Generated sample path.' },
  '000001.SS': { start: '1991-01-02', calendar: 'CN', anchorLevel: 3950, trend: 0.04, vol: 0.24, k: 0.4, dp: 2, volume: 4.0e8,
    notes: 'SSE Composite: all A and B shares on the Shanghai exchange, weighted by total (not free-float) capitalisation, so large state-owned banks dominate. The exchange closes for a week at Lunar New Year and National Day (October 1-7). Generated sample path.' },
  '^TNX': { start: '1990-01-02', calendar: 'US', anchorLevel: 4.1, trend: 0, vol: 0.22, k: 0.5, dp: 3, volume: 0,
    notes: 'CBOE 10-year Treasury yield index quoted in percent (Yahoo shows the yield itself; the CBOE contract is the yield times 10). A yield, not a price: a rising value means falling bond prices. Differs from the Treasury constant-maturity DGS10 by quote time. Generated sample path.' },
  'DX-Y.NYB': { start: '1990-01-02', calendar: 'US', anchorLevel: 99.5, trend: 0, vol: 0.08, k: 0.5, dp: 3, volume: 0,
    notes: 'ICE US Dollar Index: geometric average against six currencies with the euro at 57.6 percent, fixed weights since 1999, so it is mostly EUR/USD and says little about the dollar against Asian or emerging currencies. Generated sample path.' },
  'INR=X': { start: '2003-12-01', calendar: 'IN', anchorLevel: 88.6, trend: 0.035, vol: 0.06, k: 0.5, dp: 4, volume: 0,
    notes: 'Rupees per US dollar: a rise is a weaker rupee. Quote snapshot of the offshore-accessible interbank rate, not RBI\'s reference rate; weekend rows never appear. Generated sample path.' },
  'JPY=X': { start: '1996-10-30', calendar: 'JP', anchorLevel: 154.5, trend: 0, vol: 0.1, k: 0.3, dp: 3, volume: 0,
    notes: 'Yen per US dollar: a rise is a weaker yen. Ministry of Finance interventions (1998, 2011, 2022, 2024) show as one-day drops of several yen. Generated sample path.' },
  'GC=F': { start: '2000-08-30', calendar: 'US', anchorLevel: 4080, trend: 0.08, vol: 0.16, k: 0.15, dp: 1, volume: 1.8e5,
    notes: 'COMEX gold front-month futures settlement, USD per troy ounce. The front contract rolls every two months, so the series jumps by the roll spread on roll days; adjust before computing long-horizon returns. Generated sample path.' },
  'SI=F': { start: '2000-08-30', calendar: 'US', anchorLevel: 50.5, trend: 0.06, vol: 0.28, k: 0.3, dp: 3, volume: 6.0e4,
    notes: 'COMEX silver front-month futures, USD per troy ounce; roll jumps as for gold. Far more volatile than gold (industrial demand). Generated sample path.' },
  'HG=F': { start: '2000-08-30', calendar: 'US', anchorLevel: 5.05, trend: 0.05, vol: 0.25, k: 0.3, dp: 4, volume: 8.0e4,
    notes: 'COMEX copper front-month futures in USD per pound (LME quotes per tonne: multiply by 2204.62). Monthly roll jumps. Generated sample path.' },
  'CL=F': { start: '1986-01-02', calendar: 'US', anchorLevel: 60, trend: 0, vol: 0.35, k: 0.3, dp: 2, volume: 3.5e5, real: [{ series: 'WTI' }],
    notes: 'Closes from 1986-01-02 to 2026-08-18 are the real EIA WTI spot price at Cushing, Oklahoma (series RWTC, data package datasets/oil-prices), not the NYMEX front-month settlement the ticker names: spot and front-month differ around expiries. Includes the real -36.98 on 2020-04-20 (storage full at contract expiry), so log returns are undefined there. Later closes and all open/high/low/volume are generated.' },
  'BZ=F': { start: '2007-07-30', calendar: 'GB', anchorLevel: 64, trend: 0, vol: 0.33, k: 0.15, dp: 2, volume: 2.5e5, spreadOver: 'CL=F',
    notes: 'ICE Brent front-month. Generated as the CL=F close plus a mean-reverting Brent-WTI spread (a few dollars; it widened to above 20 in 2011 when Cushing was landlocked); it therefore inherits the real WTI path, except where WTI collapsed below zero in April 2020, where Brent carries on from its previous close as the seaborne market did. Open/high/low/volume generated.' },
  'NG=F': { start: '2000-08-30', calendar: 'US', anchorLevel: 4.3, trend: 0, vol: 0.55, k: 0.8, dp: 3, volume: 1.5e5,
    notes: 'Henry Hub front-month futures, USD per MMBtu. Strongly seasonal (winter contracts trade higher) and the roll between months can move the series by 10 percent; do not read roll days as returns. Generated sample path.' },
};

/** Closes of a symbol through `asOf`, real where available. */
function closes(sym: MarketSymbol, m: MarketModel, seed: number, asOf: number, wti: Map<number, number>): Map<number, number> {
  const out = new Map<number, number>();
  const start = toDay(m.start);
  if (m.spreadOver) {
    const rng = new Rng(seed, `market:${sym.symbol}:spread`);
    let spread = 3;
    let prev: number | null = null;
    for (const [day, w] of wti) {
      if (day < start) continue;
      spread = spread * (1 - 0.5 / 252) + 3 * (0.5 / 252) + 0.6 * rng.normal() * Math.sqrt(1 / 252) * 4;
      // Where landlocked WTI collapsed (2020-04-20/21), seaborne Brent did not: carry on from its last close.
      const close: number = prev !== null && w + spread < prev * 0.6 ? prev * (1 + 0.03 * rng.normal()) : w + spread;
      out.set(day, round(close, m.dp));
      prev = close;
    }
    return out;
  }
  const real = new Map<number, number>();
  for (const seg of m.real ?? []) {
    const from = seg.from ? toDay(seg.from) : -Infinity;
    for (const p of realSeries(seg.series)) if (p.day >= from && p.day <= asOf) real.set(p.day, p.close);
  }
  const realDays = [...real.keys()].sort((a, b) => a - b);
  const days = tradingDays(start, asOf, m.calendar);
  const dt = 1 / 252;
  const fwd = new Rng(seed, `market:${sym.symbol}:forward`);
  const bwd = new Rng(seed, `market:${sym.symbol}:backward`);
  // Pin: the first real close, or the anchor level on the anchor date.
  const pinDay = realDays.length ? realDays[0] : ANCHOR;
  const pinLevel = realDays.length ? real.get(realDays[0])! : m.anchorLevel;
  const trendAt = (day: number) => Math.log(pinLevel) + (m.trend * (day - pinDay)) / 365.25;
  const step = (x: number, rng: Rng) => x * (1 - m.k * dt) + m.vol * Math.sqrt(dt) * rng.normal();

  // Backward from the pin: deviations from the trend line, drawn away from the pin.
  const before = days.filter((d) => d < pinDay).reverse();
  let x = 0;
  for (const d of before) {
    x = step(x, bwd);
    out.set(d, round(Math.exp(trendAt(d) + x), m.dp));
  }
  const lastReal = realDays.length ? realDays[realDays.length - 1] : -Infinity;
  for (const d of realDays) out.set(d, real.get(d)!);
  // Forward after the last real close (or after the anchor), continuing from the last level.
  const fromDay = realDays.length ? lastReal : ANCHOR;
  let level = realDays.length ? real.get(lastReal)! : m.anchorLevel;
  if (!realDays.length && pinDay <= asOf && days.includes(pinDay)) out.set(pinDay, round(level, m.dp));
  let anchor = Math.log(Math.max(level, 0.01));
  for (const d of days) {
    if (d <= fromDay) continue;
    // A negative real close (WTI 2020-04-20) cannot seed a log path; restart from its magnitude.
    const dev = Math.log(Math.max(level, 0.01)) - anchor;
    anchor += m.trend * dt;
    level = Math.exp(anchor + step(dev, fwd));
    out.set(d, round(level, m.dp));
  }
  return new Map([...out.entries()].sort((a, b) => a[0] - b[0]));
}

/** Open/high/low/volume around each close, from a stream keyed by the date. */
function bars(sym: MarketSymbol, m: MarketModel, seed: number, series: Map<number, number>): Bar[] {
  const out: Bar[] = [];
  let prev: number | null = null;
  for (const [day, close] of series) {
    const rng = new Rng(seed, `bar:${sym.symbol}:${day}`);
    const scale = Math.abs(close) * m.vol * Math.sqrt(1 / 252);
    const open = round(prev === null ? close : prev + 0.3 * scale * rng.normal(), m.dp);
    const high = round(Math.max(open, close) + Math.abs(rng.normal()) * 0.5 * scale, m.dp);
    const low = round(Math.min(open, close) - Math.abs(rng.normal()) * 0.5 * scale, m.dp);
    const volume = sym.hasVolume ? Math.round(m.volume * Math.exp(0.3 * rng.normal())) : null;
    out.push({ day, open, high, low, close, volume });
    prev = close;
  }
  return out;
}

export function marketBars(seed: number, asOfIso: string): Map<string, Bar[]> {
  const asOf = toDay(asOfIso);
  const result = new Map<string, Bar[]>();
  const bySymbol = new Map<string, Map<number, number>>();
  for (const sym of MARKET_SYMBOLS) {
    const m = MARKET_MODELS[sym.symbol];
    const series = closes(sym, m, seed, asOf, bySymbol.get(m.spreadOver ?? '') ?? new Map());
    bySymbol.set(sym.symbol, series);
    result.set(sym.symbol, bars(sym, m, seed, series));
  }
  return result;
}
