export type Scale = 'tiny' | 'demo' | 'full';
export const SCALES: readonly Scale[] = ['tiny', 'demo', 'full'];

/** Schema drifts a generation can publish (issue: publisher layout changes). */
export type Drift = 'rename' | 'insert' | 'retype' | 'drop' | 'silent';

export interface GenOptions {
  scale: Scale;
  /** The service's own directory, e.g. OUT/mf. */
  dir: string;
  /** 1 is the first publish; N+1 is the next one (new days, revisions, some files unchanged). */
  generation: number;
  seed: number;
  drift?: Drift;
}

/**
 * Time derives from the generation, never the clock, so the same seed and generation give the same
 * bytes. Generation 1 publishes data through FIRST_AS_OF; each next generation adds one week.
 */
const FIRST_AS_OF = Date.UTC(2026, 10, 13); // 2026-11-13, a Friday
const DAY = 86_400_000;

export function asOfDate(generation: number): string {
  return new Date(FIRST_AS_OF + (generation - 1) * 7 * DAY).toISOString().slice(0, 10);
}

/** The publish timestamp of a generation: the morning after its last data day. */
export function generatedAt(generation: number): string {
  return new Date(FIRST_AS_OF + (generation - 1) * 7 * DAY + DAY + 6 * 3_600_000).toISOString().replace('.000Z', 'Z');
}
