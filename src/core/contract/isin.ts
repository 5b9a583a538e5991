/**
 * ISO 6166 check digit: letters become two digits (A=10 … Z=35), then the Luhn sum over the digit
 * string, doubling from the rightmost digit. The 12th character is that digit.
 */
export function isinCheckDigit(first11: string): number {
  let digits = '';
  for (const ch of first11.toUpperCase()) {
    const c = ch.charCodeAt(0);
    if (c >= 48 && c <= 57) digits += ch;
    else if (c >= 65 && c <= 90) digits += String(c - 55);
    else throw new Error(`invalid ISIN character '${ch}'`);
  }
  let sum = 0;
  for (let i = digits.length - 1, double = true; i >= 0; i--, double = !double) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** Shape of an ISIN: two letters, nine alphanumerics, one digit. */
export const ISIN_SHAPE = /^[A-Z]{2}[A-Z0-9]{9}[0-9]$/;

export function isWellFormedIsin(s: string): boolean {
  return ISIN_SHAPE.test(s);
}

/** Well formed and the check digit holds. */
export function isValidIsin(s: string): boolean {
  return ISIN_SHAPE.test(s) && isinCheckDigit(s.slice(0, 11)) === s.charCodeAt(11) - 48;
}

export function withCheckDigit(first11: string): string {
  return first11 + String(isinCheckDigit(first11));
}
