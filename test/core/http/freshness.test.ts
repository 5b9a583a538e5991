import { describe, expect, it } from 'vitest';
import { planResponse } from '../../../src/core/http/freshness.js';

const file = { etag: '"abc"', lastModifiedSeconds: 1_700_000_000, size: 1000 };
const date = (s: number) => new Date(s * 1000).toUTCString();

describe('planResponse: RFC 9110 conditionals and ranges', () => {
  it('If-None-Match compares weakly, * matches, and wins over If-Modified-Since', () => {
    expect(planResponse({ 'if-none-match': '"abc"' }, file)).toEqual({ status: 304 });
    expect(planResponse({ 'if-none-match': '"x", W/"abc"' }, file)).toEqual({ status: 304 });
    expect(planResponse({ 'if-none-match': '*' }, file)).toEqual({ status: 304 });
    expect(planResponse({ 'if-none-match': '"x"', 'if-modified-since': date(file.lastModifiedSeconds) }, file)).toEqual({ status: 200 });
  });

  it('If-Modified-Since: 304 when the client copy is at least as new, whole seconds', () => {
    expect(planResponse({ 'if-modified-since': date(file.lastModifiedSeconds) }, file)).toEqual({ status: 304 });
    expect(planResponse({ 'if-modified-since': date(file.lastModifiedSeconds - 1) }, file)).toEqual({ status: 200 });
    expect(planResponse({ 'if-modified-since': 'yesterday' }, file)).toEqual({ status: 200 });
  });

  it('one range is a 206, an unsatisfiable one a 416, several or a malformed header the whole body', () => {
    expect(planResponse({ range: 'bytes=0-99' }, file)).toEqual({ status: 206, start: 0, end: 99 });
    expect(planResponse({ range: 'bytes=-10' }, file)).toEqual({ status: 206, start: 990, end: 999 });
    expect(planResponse({ range: 'bytes=5000-' }, file)).toEqual({ status: 416 });
    expect(planResponse({ range: 'bytes=0-9,500-509' }, file)).toEqual({ status: 200 });
    expect(planResponse({ range: 'lines=1-2' }, file)).toEqual({ status: 200 });
    expect(planResponse({ range: 'bytes=0-9' }, { lastModifiedSeconds: 1 })).toEqual({ status: 200 });
  });

  it('If-Range: the same strong ETag or the exact date keeps the range, anything else gets the whole body', () => {
    expect(planResponse({ range: 'bytes=0-9', 'if-range': '"abc"' }, file)).toEqual({ status: 206, start: 0, end: 9 });
    expect(planResponse({ range: 'bytes=0-9', 'if-range': 'W/"abc"' }, file)).toEqual({ status: 200 });
    expect(planResponse({ range: 'bytes=0-9', 'if-range': '"old"' }, file)).toEqual({ status: 200 });
    expect(planResponse({ range: 'bytes=0-9', 'if-range': date(file.lastModifiedSeconds) }, file)).toEqual({ status: 206, start: 0, end: 9 });
    expect(planResponse({ range: 'bytes=0-9', 'if-range': date(file.lastModifiedSeconds - 60) }, file)).toEqual({ status: 200 });
  });
});
