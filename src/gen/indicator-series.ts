/**
 * Values of one macro indicator through an as-of date. Draws are keyed by (seed, indicator), taken
 * in date order, so a later generation extends the same path: old observations keep their values
 * except where a generation deliberately revises recent history.
 */
import { INDICATOR_DEFS, type IndicatorDef, type Model } from './indicator-catalog.js';
import { observationDates, STEP_YEARS, toDay, tradingDays } from './calendar.js';
import { Rng } from './random.js';
import { realSeries } from './real-prices.js';

export interface Observation {
  day: number;
  value: number;
}

const DEFAULT_LAG: Record<IndicatorDef['frequency'], number> = { daily: 1, weekly: 5, monthly: 30, quarterly: 60, annual: 150 };
/** Observations a revising generation may touch (the most recent ones published before it). */
const REVISED_WINDOW = 3;

/** Trading calendars exist per market; national series of other countries follow the US one. */
function calendarOf(country: string): string {
  return ['US', 'IN', 'JP', 'HK', 'DE', 'GB', 'EA', 'CN'].includes(country) ? country : 'US';
}

export function round(v: number, dp: number): number {
  const f = 10 ** dp;
  const r = Math.round(v * f) / f;
  return r === 0 ? 0 : r;
}

/** One model step from `v`; `dt` in years; `z` the step's standard normal shock. */
export function stepModel(model: Model, v: number, dt: number, z: number, rng: Rng, anchor: number): number {
  switch (model.kind) {
    case 'level': {
      // Log deviation from the trend line mean-reverts, so long histories stay plausible.
      const k = 0.5;
      const dev = Math.log(v) - anchor;
      const next = dev * (1 - k * dt) + model.vol * Math.sqrt(dt) * z;
      return Math.exp(anchor + model.trend * dt + next);
    }
    case 'rate': {
      const k = 0.3;
      let next = v + k * (model.base - v) * dt + model.vol * Math.sqrt(dt) * z;
      if (next < model.lo) next = model.lo + (model.lo - next) * 0.5;
      if (next > model.hi) next = model.hi - (next - model.hi) * 0.5;
      return Math.min(model.hi, Math.max(model.lo, next));
    }
    case 'step': {
      if (!rng.chance(model.changesPerYear * dt)) return v;
      const pull = v > model.base ? -0.25 : 0.25;
      const dir = rng.chance(0.5 + pull) ? 1 : -1;
      const size = model.step * (rng.chance(0.8) ? 1 : 2);
      return Math.min(model.hi, Math.max(model.lo, v + dir * size));
    }
  }
}

/** `dates`: the as-of date of each generation so far (src/gen/timeline.ts); the last is this one's. */
export function macroSeries(def: IndicatorDef, seed: number, dates: readonly string[]): Observation[] {
  if (def.sumOf) return sumSeries(def, seed, dates);
  const asOf = toDay(dates[dates.length - 1]);
  const rng = new Rng(seed, `macro:${def.id}`);
  const dt = STEP_YEARS[def.frequency];
  const model = def.model;
  const out: Observation[] = [];

  let days: number[];
  let v = model.base;
  if (def.real) {
    const real = realSeries(def.real).filter((p) => p.day <= asOf);
    for (const p of real) out.push({ day: p.day, value: p.close });
    const last = real[real.length - 1];
    v = last.close;
    days = tradingDays(last.day + 1, asOf, calendarOf(def.country));
  } else {
    days = publishedDays(def, asOf);
  }
  let anchor = Math.log(model.base);
  for (const day of days) {
    out.push({ day, value: round(v, model.dp) });
    v = stepModel(model, v, dt, shock(def, seed, day, rng), rng, anchor);
    if (model.kind === 'level') anchor += model.trend * dt;
  }
  const published = def.gaps ? out.filter((o) => !def.gaps!.some(([a, b]) => o.day >= toDay(a) && o.day <= toDay(b))) : out;
  return def.revises ? revise(def, published, seed, dates) : published;
}

/**
 * Generation g (≥ 2) revises the last few observations that generation g-1 had published: the
 * benchmark and vintage updates real publishers make. Applied cumulatively, generation by generation.
 * A generation with no new day (`--step none`) publishes nothing new here, so it revises nothing.
 */
function revise(def: IndicatorDef, obs: Observation[], seed: number, dates: readonly string[]): Observation[] {
  for (let g = 2; g <= dates.length; g++) {
    if (dates[g - 1] === dates[g - 2]) continue;
    const prev = publishedDays(def, toDay(dates[g - 2]));
    const end = prev.length ? obs.findLastIndex((o) => o.day <= prev[prev.length - 1]) + 1 : 0;
    const rng = new Rng(seed, `revise:${def.id}:${g}`);
    for (let i = Math.max(0, end - REVISED_WINDOW); i < end; i++) {
      const o = obs[i];
      const delta = def.model.kind === 'level' ? o.value * 0.003 * rng.normal() : 0.05 * rng.normal();
      obs[i] = { day: o.day, value: round(o.value + delta, def.model.dp) };
    }
  }
  return obs;
}

function sumSeries(def: IndicatorDef, seed: number, dates: readonly string[]): Observation[] {
  const totals = new Map<number, number>();
  for (const id of def.sumOf!) {
    const part = INDICATOR_DEFS.find((d) => d.id === id);
    if (!part) throw new Error(`${def.id}: unknown part ${id}`);
    for (const o of macroSeries(part, seed, dates)) totals.set(o.day, (totals.get(o.day) ?? 0) + o.value);
  }
  return [...totals.entries()].sort((a, b) => a[0] - b[0]).map(([day, v]) => ({ day, value: round(v, def.model.dp) }));
}

/** Members of one curve share most of each day's shock, so tenors move together. */
const FACTOR_WEIGHT = 0.95;

function shock(def: IndicatorDef, seed: number, day: number, rng: Rng): number {
  const own = rng.normal();
  if (!def.factor) return own;
  const common = new Rng(seed, `factor:${def.factor}:${day}`).normal();
  return FACTOR_WEIGHT * common + Math.sqrt(1 - FACTOR_WEIGHT ** 2) * own;
}

function publishedDays(def: IndicatorDef, asOf: number): number[] {
  return observationDates(def.frequency, toDay(def.start), asOf, {
    country: calendarOf(def.country),
    lagDays: def.lagDays ?? DEFAULT_LAG[def.frequency],
    weekday: def.weekday,
  });
}
