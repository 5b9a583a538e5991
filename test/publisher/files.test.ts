import { describe, expect, it } from 'vitest';
import { contentType, downloadPath, resolveDownload, type Service } from '../../src/core/contract/files.js';
import * as flags from '../../src/core/contract/flags.js';
import * as ind from '../../src/core/contract/indicators.js';

const q = (s: string): [string, string][] => [...new URLSearchParams(s).entries()];

/** Every file name docs/architecture.md fixes, per service. */
const NAMES: Record<Service, string[]> = {
  indicators: [
    ...ind.TABLE_NAMES.flatMap((t) => ind.TABLE_FILE_FORMATS.map((f) => `${t}.${f}`)),
    ...ind.ALL_FILE_FORMATS.map((f) => `indicators_all.${f}`),
  ],
  mf: [
    ...['parquet', 'csv.gz', 'csv.zip', 'tsv.gz', 'tsv.zip', 'db.gz', 'db.zip'].map((f) => `mf_nav_master.${f}`),
    ...['csv', 'csv.gz', 'csv.zip', 'parquet'].map((f) => `mf_nav_master_latest.${f}`),
    'scheme_details_latest.parquet',
    'scheme_details_latest.csv.gz',
    'data_quality.csv',
    'data_quality.json',
  ],
  flags: flags.allFileNames(),
};

describe('contract/files: download routes ↔ file names', () => {
  it('maps every published file name to a route that resolves back to it', () => {
    for (const service of ['indicators', 'mf', 'flags'] as const) {
      for (const name of NAMES[service]) {
        const p = downloadPath(service, name);
        expect(p, name).not.toBeNull();
        const url = new URL(p!, 'http://x');
        const prefix = service === 'indicators' ? '/v1/download' : `/${service}/v1/download`;
        expect(url.pathname.startsWith(prefix), p!).toBe(true);
        const tail = url.pathname.slice(prefix.length).replace(/^\//, '');
        expect(resolveDownload(service, tail, url.searchParams.entries(), NAMES[service]), p!).toEqual({ file: name, contentType: contentType(name) });
      }
    }
  });

  it('resolves the spec examples, defaults and aliases', () => {
    const file = (s: Service, tail: string, query = '') => {
      const r = resolveDownload(s, tail, q(query));
      return 'file' in r ? r.file : r.error.code;
    };
    expect(file('mf', '', 'format=sqlite')).toBe('mf_nav_master.db.gz');
    expect(file('mf', '', '')).toBe('mf_nav_master.parquet');
    expect(file('mf', '', 'format=latest')).toBe('mf_nav_master_latest.csv');
    expect(file('mf', '', 'format=latest.csv')).toBe('mf_nav_master_latest.csv');
    expect(file('mf', '', 'format=sqlite.zip')).toBe('mf_nav_master.db.zip');
    expect(file('mf', 'scheme_details_latest', 'format=csv.gz')).toBe('scheme_details_latest.csv.gz');
    expect(file('mf', 'data_quality', 'format=json')).toBe('data_quality.json');
    expect(file('indicators', 'all', 'format=duckdb')).toBe('indicators_all.duckdb.zip');
    expect(file('indicators', 'all', '')).toBe('indicators_all.db.zip');
    expect(file('indicators', 'stock_prices', '')).toBe('stock_prices.parquet');
    expect(file('indicators', 'stock_prices', 'format=tsv')).toBe('stock_prices.tsv.zip');
    expect(file('flags', 'credit_ratings', 'format=csv')).toBe('credit_ratings.csv.zip');
    expect(file('flags', 'all', 'format=sqlite.gz')).toBe('flags_all.db.gz');
  });

  it('refuses unknown formats, tables and datasets with the status each spec names', () => {
    const err = (s: Service, tail: string, query = '') => {
      const r = resolveDownload(s, tail, q(query));
      return 'error' in r ? [r.error.status, r.error.code, r.error.field] : null;
    };
    expect(err('indicators', 'macro_indicators', 'format=xlsx')).toEqual([422, 'invalid_format', 'format']);
    expect(err('indicators', 'nope')).toEqual([422, 'unknown_table', 'table_name']);
    expect(err('indicators', 'all', 'format=parquet')).toEqual([422, 'invalid_format', 'format']);
    expect(err('mf', '', 'format=xlsx')).toEqual([400, 'invalid_format', 'format']);
    expect(err('mf', '', 'colour=red')).toEqual([400, 'unknown_parameter', 'colour']);
    expect(err('mf', 'nope')).toEqual([404, 'unknown_dataset', 'dataset']);
    expect(err('mf', 'data_quality', 'format=parquet')).toEqual([400, 'invalid_format', 'format']);
    expect(err('flags', 'nope', 'format=csv')).toEqual([404, 'unknown_table', 'table_name']);
    expect(err('flags', 'all', 'format=duckdb')).toEqual([422, 'invalid_format', 'format']);
    expect(err('flags', '..%2Fetc', 'format=csv')).toEqual([404, 'unknown_table', 'table_name']);
  });

  it('accepts a table the manifest adds, and 404s a name the manifest does not list', () => {
    const published = [...NAMES.indicators, 'bond_yields.parquet'];
    expect(resolveDownload('indicators', 'bond_yields', q(''), published)).toEqual({ file: 'bond_yields.parquet', contentType: 'application/octet-stream' });
    expect(downloadPath('indicators', 'bond_yields.parquet')).toBe('/v1/download/bond_yields?format=parquet');
    const missing = resolveDownload('indicators', 'bond_yields', q('format=csv'), published);
    expect('error' in missing && missing.error.status).toBe(404);
    // A manifest name that is not a plain table identifier never becomes a route.
    expect(downloadPath('indicators', '../x.parquet')).toBeNull();
  });

  it('gives each format the Content-Type of the specs', () => {
    expect(contentType('a.csv.zip')).toBe('application/zip');
    expect(contentType('a.db.gz')).toBe('application/gzip');
    expect(contentType('a.parquet')).toBe('application/octet-stream');
    expect(contentType('mf_nav_master_latest.csv')).toBe('text/csv; charset=utf-8');
    expect(contentType('data_quality.json')).toBe('application/json');
  });
});
