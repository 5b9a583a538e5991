/** A calendar date written YYYY-MM-DD, as every spec's dates are: the shape, and a day that exists (no 2025-02-30). */
export function isIsoDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** Whole days since 1970-01-01 (UTC) of a YYYY-MM-DD date. */
export function toDay(iso: string): number {
  return Math.round(Date.parse(`${iso}T00:00:00Z`) / 86_400_000);
}
