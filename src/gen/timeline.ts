/**
 * Where a generation's data reaches, and what it republishes (issue 20). Time derives from the
 * generations, never the clock, so the same seed and the same sequence of publish options give the
 * same bytes.
 *
 * A generation is written into the directory that holds the previous one (that is how a publisher's
 * history works, and how unchanged files keep their ETags). Its state.json records the as-of date of
 * every generation so far, plus the MF revisions and rebuilds; generation N+1 steps from there:
 * - `week` (the default): seven calendar days;
 * - `day`: to the next MF business day, so the publish after a Friday is Monday's, carrying the
 *   weekend NAVs of liquid and overnight funds (and a holiday's, the same way);
 * - `none`: the same day, for a republish (a correction or a rebuild) with no new day.
 * With no usable state (an empty directory, another seed or scale), generations 1..N-1 are taken to
 * have stepped the same way, so `--generation N` alone gives what N weekly publishes give.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { businessOnOrAfter, dayNumber, isoOf } from './mf-calendar.js';
import type { GenOptions, Scale, Step } from './options.js';

/** Generation 1 publishes data through this Friday. */
export const FIRST_AS_OF = '2026-11-13';
const DAY_MS = 86_400_000;

/** What state.json holds: the generation, seed and scale that made the files, and how they got here. */
export interface GenState {
  generation: number;
  seed: number;
  scale: Scale;
  /** As-of date of generations 1..generation, in order. */
  as_of: string[];
  /** MF: how many past NAVs each generation corrected (only generations that did). */
  revisions: Revision[];
  /** MF: generations that rewrote the history parquet with identical rows. */
  rebuilds: number[];
}

export interface Revision {
  generation: number;
  count: number;
}

export interface Timeline extends Omit<GenState, 'as_of'> {
  /** As-of date of generations 1..N; the last is this generation's. */
  dates: string[];
  asOf: string;
  /** The publish time: the morning after the as-of date, an hour later per republish of that day. */
  generatedAt: string;
}

/** The as-of date one step after `asOf`. */
export function stepFrom(asOf: string, step: Step): string {
  if (step === 'none') return asOf;
  if (step === 'week') return new Date(Date.parse(`${asOf}T00:00:00Z`) + 7 * DAY_MS).toISOString().slice(0, 10);
  return isoOf(businessOnOrAfter(dayNumber(asOf) + 1));
}

/** The as-of date of generation N when every generation stepped a week (the default). */
export function asOfDate(generation: number): string {
  let d = FIRST_AS_OF;
  for (let g = 2; g <= generation; g++) d = stepFrom(d, 'week');
  return d;
}

/** The timeline of `opts.generation` in `opts.dir`, from the state the previous generation left there. */
export async function timeline(opts: GenOptions): Promise<Timeline> {
  const n = opts.generation;
  const step = opts.step ?? 'week';
  const prior = await readGenState(opts.dir);
  const usable = prior !== null && prior.seed === opts.seed && prior.scale === opts.scale && prior.generation >= n - 1;
  const dates = usable && n > 1 ? prior.as_of.slice(0, n - 1) : [FIRST_AS_OF];
  while (dates.length < n) dates.push(stepFrom(dates[dates.length - 1], step));
  const asOf = dates[n - 1];
  const revisions = usable ? prior.revisions.filter((r) => r.generation < n) : [];
  const rebuilds = usable ? prior.rebuilds.filter((g) => g < n) : [];
  if (opts.revise) revisions.push({ generation: n, count: opts.revise });
  if (opts.rebuild) rebuilds.push(n);
  const republishes = dates.filter((d) => d === asOf).length - 1;
  const generatedAt = new Date(Date.parse(`${asOf}T00:00:00Z`) + DAY_MS + (6 + republishes) * 3_600_000).toISOString().replace('.000Z', 'Z');
  return { generation: n, seed: opts.seed, scale: opts.scale, dates, asOf, generatedAt, revisions, rebuilds };
}

export function stateOf(t: Timeline): GenState {
  return { generation: t.generation, seed: t.seed, scale: t.scale, as_of: t.dates, revisions: t.revisions, rebuilds: t.rebuilds };
}

/** The previous generation's state in `dir`, or null when there is none this format can continue from. */
export async function readGenState(dir: string): Promise<GenState | null> {
  let text: string;
  try {
    text = await readFile(path.join(dir, 'state.json'), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  const s = JSON.parse(text) as Partial<GenState>;
  // A state from before issue 20 records no dates: continue as if from an empty directory.
  if (!Array.isArray(s.as_of) || !Array.isArray(s.revisions) || !Array.isArray(s.rebuilds)) return null;
  return s as GenState;
}
