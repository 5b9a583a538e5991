import { describe, expect, it } from 'vitest';
import { gapBatches } from '../../../src/core/sync/refresh/gaps.js';
import { MF_LIMITS } from '../../../src/core/contract/mf-params.js';

describe('the NAV endpoint requests for the history gaps', () => {
  it('batches only schemes with the same local last day, so no scheme is asked for days it holds', () => {
    const friday = (n: number) => ({ scheme_code: n, after: '2026-11-20', before: '2026-11-23' });
    const gaps = [
      ...Array.from({ length: 60 }, (_, i) => friday(100 + i)),
      { scheme_code: 900, after: '0000-01-01', before: '2026-11-23' }, // new: its whole history
      { scheme_code: 901, after: '2026-08-14', before: '2026-11-23' }, // silent since August
      friday(160),
    ];
    const batches = gapBatches(gaps);
    for (const b of batches) {
      expect(new Set(b.map((g) => g.after)).size).toBe(1);
      expect(b.length).toBeLessThanOrEqual(MF_LIMITS.bulkSchemesMax);
    }
    expect(batches.map((b) => b.length)).toEqual([MF_LIMITS.bulkSchemesMax, 61 - MF_LIMITS.bulkSchemesMax, 1, 1]);
    // Every gap asked once, in the order given within its day.
    expect(batches.flat().map((g) => g.scheme_code).sort((a, b) => a - b)).toEqual(gaps.map((g) => g.scheme_code).sort((a, b) => a - b));
    expect(batches[0][0].scheme_code).toBe(100);
    expect(batches[1].at(-1)!.scheme_code).toBe(160);
  });
});
