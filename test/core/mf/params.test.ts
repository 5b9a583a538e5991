import { describe, it, expect } from 'vitest';
import {
  MfError,
  classifySchemeId,
  mfErrorBody,
  parseDownloadParams,
  parseNavParams,
  parseSchemeNavParams,
  parseSearchParams,
} from '../../../src/core/contract/mf-params.js';

const qs = (s: string) => [...new URLSearchParams(s)];

/** The MfError a parse throws, for asserting its code and field. */
function failure(run: () => unknown): MfError {
  try {
    run();
  } catch (e) {
    if (e instanceof MfError) return e;
    throw e;
  }
  throw new Error('expected an MfError');
}

describe('MF /search parameters', () => {
  it('reads q through its aliases and normalises whitespace', () => {
    expect(parseSearchParams(qs('q=%20hdfc%20%20mid%20')).q).toBe('hdfc mid');
    expect(parseSearchParams(qs('name=sbi')).q).toBe('sbi');
    expect(parseSearchParams(qs('query=sbi')).q).toBe('sbi');
    expect(parseSearchParams(qs('q=sbi')).filtered).toBe(false);
  });

  it('rejects blank q, unknown names, non-numeric or excessive limit, and impossible windows', () => {
    expect(failure(() => parseSearchParams(qs('q=%20'))).spec).toMatchObject({ status: 400, code: 'blank_query', field: 'q' });
    expect(failure(() => parseSearchParams(qs('q=x&colour=red'))).spec).toMatchObject({ code: 'unknown_parameter', field: 'colour' });
    expect(failure(() => parseSearchParams(qs('q=x&limit=ten'))).spec).toMatchObject({ code: 'invalid_integer', field: 'limit' });
    expect(failure(() => parseSearchParams(qs('q=x&limit=101'))).spec).toMatchObject({ code: 'out_of_range', field: 'limit' });
    expect(failure(() => parseSearchParams(qs('q=x&limit=0'))).spec).toMatchObject({ code: 'out_of_range' });
    expect(failure(() => parseSearchParams(qs('amc=x&first_date_from=2020-01-02&first_date_to=2020-01-01'))).spec).toMatchObject({
      code: 'impossible_window',
      field: 'first_date_from',
    });
    expect(failure(() => parseSearchParams(qs('amc=x&last_date_to=2021-02-29'))).spec).toMatchObject({ code: 'invalid_date', field: 'last_date_to' });
    expect(failure(() => parseSearchParams(qs('limit=5'))).spec).toMatchObject({ code: 'missing_query' });
  });

  it('treats a repeated filter as a comma list, and a scalar repeated with different values as an error', () => {
    const a = parseSearchParams(qs('amc=HDFC&amc=sbi,%20Axis'));
    expect(a.filters.amc).toEqual(['hdfc', 'sbi', 'axis']);
    expect(a.filtered).toBe(true);
    expect(parseSearchParams(qs('amc=hdfc,sbi')).filters).toEqual(parseSearchParams(qs('amc=hdfc&amc=sbi')).filters);
    expect(parseSearchParams(qs('q=x&limit=5&limit=5')).limit).toBe(5);
    expect(failure(() => parseSearchParams(qs('q=x&limit=5&limit=6'))).spec).toMatchObject({ code: 'conflicting_values', field: 'limit' });
    expect(failure(() => parseSearchParams(qs('q=x&name=y'))).spec).toMatchObject({ code: 'conflicting_values', field: 'q' });
    expect(parseSearchParams(qs('category_sub=liquid&type=open')).filters).toEqual({ sub_category: ['liquid'], scheme_type: ['open'] });
  });

  it('browses live schemes by default without q, everything with q, and reads active=all', () => {
    expect(parseSearchParams(qs('amc=x')).active).toBe('active');
    expect(parseSearchParams(qs('q=x')).active).toBe('all');
    expect(parseSearchParams(qs('amc=x&active=ALL')).active).toBe('all');
    expect(parseSearchParams(qs('amc=x&active=false')).active).toBe('matured');
    expect(failure(() => parseSearchParams(qs('amc=x&active=maybe'))).spec).toMatchObject({ code: 'invalid_active' });
  });
});

describe('MF /nav parameters', () => {
  it('merges the scheme synonyms and schemes, keeps order, drops repeats', () => {
    const p = parseNavParams(qs('isin=INF209KB1ZL4&scheme_code=145488,145488&isins=x'));
    expect(p.ids).toEqual(['INF209KB1ZL4', '145488', 'x']);
    expect(p.wrapped).toBe(true);
    expect(parseNavParams(qs('scheme=145488')).wrapped).toBe(false);
    expect(parseNavParams(qs('schemes=145488')).wrapped).toBe(true);
  });

  it('reads the window aliases and latest case-insensitively', () => {
    const p = parseNavParams(qs('scheme=1&from=2024-01-01&until=2024-02-01&latest=TRUE'));
    expect(p).toMatchObject({ since: '2024-01-01', to: '2024-02-01', latest: true });
    expect(parseNavParams(qs('scheme=1&start_date=2024-01-01&end=2024-01-01')).latest).toBe(false);
    expect(failure(() => parseNavParams(qs('scheme=1&latest=yes'))).spec).toMatchObject({ code: 'invalid_boolean' });
    expect(failure(() => parseNavParams(qs('scheme=1&since=2024-02-01&to=2024-01-01'))).spec).toMatchObject({ code: 'impossible_window' });
    expect(failure(() => parseNavParams(qs('scheme=1&since=2024-01-01&start=2024-01-02'))).spec).toMatchObject({ code: 'conflicting_values' });
  });

  it('sends category= and amc= to /search, and caps bulk calls at 50', () => {
    for (const name of ['category', 'amc']) {
      const e = failure(() => parseNavParams(qs(`${name}=equity`)));
      expect(e.spec).toMatchObject({ status: 400, code: 'use_search', field: name });
      expect(e.spec.message).toContain('/mf/v1/search');
      expect(e.spec.message).toContain('/mf/v1/nav?schemes=');
    }
    const fifty = Array.from({ length: 50 }, (_, i) => 100000 + i).join(',');
    expect(parseNavParams(qs(`schemes=${fifty}`)).ids).toHaveLength(50);
    expect(failure(() => parseNavParams(qs(`schemes=${fifty},1`))).spec).toMatchObject({ code: 'too_many_schemes', field: 'schemes' });
    expect(failure(() => parseNavParams(qs('scheme=%20,'))).spec).toMatchObject({ code: 'missing_scheme' });
    expect(failure(() => parseSchemeNavParams('1', qs('scheme=2'))).spec).toMatchObject({ code: 'unknown_parameter' });
  });

  it('tells codes, ISINs, corrupted ISINs and junk apart', () => {
    expect(classifySchemeId('145488')).toEqual({ kind: 'code', code: 145488 });
    expect(classifySchemeId(' inf209kb1zl4 ')).toEqual({ kind: 'isin', isin: 'INF209KB1ZL4' });
    expect(classifySchemeId('INF209KB1ZL5')).toEqual({ kind: 'corrupt_isin' });
    expect(classifySchemeId('0')).toEqual({ kind: 'malformed' });
    expect(classifySchemeId('hdfc')).toEqual({ kind: 'malformed' });
  });
});

describe('MF error envelope and download format', () => {
  it('puts code, field and docs_url beside the error slug, with help links', () => {
    const e = failure(() => parseSearchParams(qs('q=x&limit=abc')));
    expect(mfErrorBody(e.spec, '/mf/v1/search?q=x&limit=abc', 'http://127.0.0.1:1')).toEqual({
      error: 'bad_request',
      status: 400,
      path: '/mf/v1/search?q=x&limit=abc',
      message: "Parameter 'limit' must be a whole number; got 'abc'.",
      code: 'invalid_integer',
      field: 'limit',
      docs_url: 'http://127.0.0.1:1/mf/v1/#parameters.limit',
      help: { catalog: 'http://127.0.0.1:1/mf/v1/', docs: 'http://127.0.0.1:1/openapi.json' },
    });
  });

  it('accepts the spec formats, defaulting to parquet', () => {
    expect(parseDownloadParams([])).toBe('parquet');
    expect(parseDownloadParams(qs('format=LATEST'))).toBe('latest');
    expect(failure(() => parseDownloadParams(qs('format=xlsx'))).spec).toMatchObject({ code: 'invalid_format' });
  });
});
