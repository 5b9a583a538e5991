/**
 * HTTP conditional requests and byte ranges as one pure decision (RFC 9110), shared by the publisher
 * (files on disk) and the local server (answers built from the store): given what the client sent
 * and what the server holds, which status to answer with.
 */
import rangeParser from 'range-parser';

/** The request headers that decide. */
export interface Conditions {
  'if-none-match'?: string;
  'if-modified-since'?: string;
  range?: string;
  'if-range'?: string | string[];
}

/** What the server holds: its validators and, for a byte-addressable body, its size. */
export interface Representation {
  etag?: string;
  /** Whole seconds: HTTP dates carry no more. */
  lastModifiedSeconds: number;
  /** Absent: ranges do not apply (the body is not served in parts). */
  size?: number;
}

export type ResponsePlan = { status: 200 } | { status: 206; start: number; end: number } | { status: 304 } | { status: 416 };

/**
 * RFC 9110 evaluation order for GET/HEAD: If-None-Match (weak comparison) or, without it,
 * If-Modified-Since; then Range, which If-Range (strong comparison, or an exact date) can veto.
 * Several ranges are answered with the whole body (200), which RFC 9110 permits.
 */
export function planResponse(h: Conditions, r: Representation): ResponsePlan {
  const inm = h['if-none-match'];
  if (inm !== undefined) {
    if (r.etag !== undefined && etagListMatches(inm, r.etag)) return { status: 304 };
  } else {
    const ims = parseHttpDate(h['if-modified-since']);
    if (ims !== null && r.lastModifiedSeconds * 1000 <= ims) return { status: 304 };
  }
  const ifRange = h['if-range'];
  if (h.range === undefined || r.size === undefined || !ifRangeHolds(typeof ifRange === 'string' ? ifRange : undefined, r)) return { status: 200 };
  const parsed = rangeParser(r.size, h.range, { combine: true });
  if (parsed === -1) return { status: 416 };
  if (parsed === -2 || parsed.type !== 'bytes' || parsed.length !== 1) return { status: 200 };
  return { status: 206, start: parsed[0].start, end: parsed[0].end };
}

function etagListMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const weak = (t: string): string => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => weak(t) === weak(etag));
}

function ifRangeHolds(header: string | undefined, r: Representation): boolean {
  if (header === undefined) return true;
  const h = header.trim();
  if (h.startsWith('"') || h.startsWith('W/')) return h === r.etag;
  const date = parseHttpDate(h);
  return date !== null && date === r.lastModifiedSeconds * 1000;
}

function parseHttpDate(v: string | undefined): number | null {
  if (v === undefined) return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : t;
}
