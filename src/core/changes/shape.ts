/**
 * What one sync changed, as `changes --json`, GET /almanac/v1/changes and the MCP tool `whats_new`
 * give it (issue 21). The field names are the issue's; docs/changes.md says what each counts.
 */
import type { Service } from '../sync/datasets.js';

export interface SyncPoint {
  /** When that sync ended (ISO time); null before any sync. */
  synced_at: string | null;
  /** The generation of each dataset then; null where it was not synced yet. */
  generations: Record<Service, number | null>;
}

export interface Revision {
  date: string;
  old: number;
  new: number;
}

export interface SchemeChange {
  scheme_code: number;
  new_navs: number;
  last_date: string | null;
  last_nav: number | null;
  /** From the latest NAV held before the sync to `last_nav`, in percent (4 places); null without both. */
  change_pct: number | null;
  revised_navs: number;
  revisions: Revision[];
}

export interface CompanyChange {
  symbol: string;
  new_rows: Record<string, number>;
  score_before: number | null;
  score_after: number | null;
}

export interface IndicatorChange {
  indicator_id: string;
  new_points: number;
  revised_points: number;
  revisions: Revision[];
}

export interface Totals {
  new_navs: number;
  new_flag_rows: Record<string, number>;
  new_indicator_points: number;
  revised_indicator_points: number;
}

export interface Changes {
  from: SyncPoint;
  to: SyncPoint;
  watched: { schemes: SchemeChange[]; companies: CompanyChange[]; indicators: IndicatorChange[] };
  totals: Totals;
}

/**
 * A change as the log keeps it: the answer plus, per scheme, the latest NAV before the sync, so
 * that merging several syncs (`--since`) can take the percentage from the earliest one's base.
 */
export interface KeptChanges extends Changes {
  base_navs: Record<string, number | null>;
  /** Datasets whose comparison failed (their data switched all the same). */
  errors?: string[];
}

export function emptyTotals(): Totals {
  return { new_navs: 0, new_flag_rows: {}, new_indicator_points: 0, revised_indicator_points: 0 };
}
