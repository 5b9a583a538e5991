export type Scale = 'tiny' | 'demo' | 'full';
export const SCALES: readonly Scale[] = ['tiny', 'demo', 'full'];

/** Schema drifts a generation can publish (issue: publisher layout changes). */
export type Drift = 'rename' | 'insert' | 'retype' | 'drop' | 'silent';

/** How far a generation moves the data on from the previous one (src/gen/timeline.ts). */
export type Step = 'week' | 'day' | 'none';
export const STEPS: readonly Step[] = ['week', 'day', 'none'];

/** How one generation is published after the previous one (issue 20); every field is optional. */
export interface PublishOptions {
  /** Default `week`. */
  step?: Step;
  /** MF: correct this many past NAVs (same rows, new values). */
  revise?: number;
  /** MF: rewrite the history parquet with new bytes but identical rows, row groups and statistics. */
  rebuild?: boolean;
}

export interface GenOptions extends PublishOptions {
  scale: Scale;
  /** The service's own directory, e.g. OUT/mf. */
  dir: string;
  /** 1 is the first publish; N+1 is the next one (new days, revisions, some files unchanged). */
  generation: number;
  seed: number;
  drift?: Drift;
}
