import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { isValidIsin, withCheckDigit, isinCheckDigit } from '../../src/core/contract/isin.js';

describe('ISIN check digit (ISO 6166)', () => {
  it('accepts every ISIN in the real AMFI files and rejects each with one digit changed', () => {
    const isins = new Set<string>();
    for (const f of ['2006-04-03.csv', '2025-06-28.csv']) {
      const text = readFileSync(`../shared/data/real-amfi/${f}`, 'utf8');
      for (const line of text.split(/\r?\n/)) {
        const parts = line.split(';');
        for (const p of [parts[2], parts[3]]) if (p && /^IN/.test(p.trim())) isins.add(p.trim());
      }
    }
    expect(isins.size).toBeGreaterThan(2000);
    for (const isin of isins) {
      expect(isValidIsin(isin), isin).toBe(true);
      const wrong = isin.slice(0, 11) + String((Number(isin[11]) + 1) % 10);
      expect(isValidIsin(wrong), wrong).toBe(false);
    }
  });

  it('computes known digits', () => {
    expect(withCheckDigit('US037833100')).toBe('US0378331005'); // Apple
    expect(isinCheckDigit('INE002A0101')).toBe(8); // Reliance: INE002A01018
    expect(isValidIsin('INE002A01018')).toBe(true);
    expect(isValidIsin('INE002A0101X')).toBe(false);
  });
});
