import { describe, expect, it } from 'vitest';
import { formatNav, formatPercent, formatTicks } from '../../../src/ui/lib/format.js';

describe('display formatting (src/ui/lib/format.ts)', () => {
  it("a chart's ticks carry the decimals their step needs: a liquid fund's NAV reads 10.0005, not 10.001 twice", () => {
    expect(formatTicks([9.9995, 10, 10.0005, 10.001], 0.0005)).toEqual(['9.9995', '10.0000', '10.0005', '10.0010']);
    expect(formatTicks([10.00025, 10.0005], 0.00025)).toEqual(['10.00025', '10.00050']);
    expect(formatTicks([0, 2.5, 5], 2.5)).toEqual(['0.0', '2.5', '5.0']);
    // Floating-point steps (0.1 is 0.1000000000000000055…) still read as tenths.
    expect(formatTicks([0.1, 0.2, 0.30000000000000004], 0.1)).toEqual(['0.1', '0.2', '0.3']);
    expect(formatTicks([1000, 1200, 1400], 200)).toEqual(['1,000', '1,200', '1,400']);
    expect(formatTicks([10.024], 0)).toEqual(['10.024']);
  });

  it('a NAV shows its four decimals, as AMFI publishes it', () => {
    expect(formatNav(10)).toBe('10.0000');
    expect(formatNav(10.024)).toBe('10.0240');
    expect(formatNav(3575.2438)).toBe('3,575.2438');
    expect(formatNav(0)).toBe('0.0000');
    expect(formatNav(null)).toBe('—');
  });

  it('a percentage that rounds to zero has no sign', () => {
    expect(formatPercent(-0.0000001)).toBe('0.00%');
    expect(formatPercent(-0.05)).toBe('-5.00%');
    expect(formatPercent(0.012345)).toBe('1.23%');
    expect(formatPercent(null)).toBe('—');
  });
});
