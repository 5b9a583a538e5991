/**
 * The one map between download routes and published file names, for the three services. The
 * publisher resolves requests with it; the sync engine builds download URLs with it. Names and
 * format values come from each service's contract; this module only joins them to URL paths.
 */
import * as flags from './flags.js';
import * as indicators from './indicators.js';
import { DATA_QUALITY_FILE_BASE, DETAILS_FILE_BASE, LATEST_FILE_BASE, NAV_FILE_BASE } from './mf.js';
import { DOWNLOAD_FORMATS as MF_DOWNLOAD_FORMATS, MF_BASE, MfError, parseDownloadParams } from './mf-params.js';

export type Service = 'indicators' | 'mf' | 'flags';
export const SERVICES: readonly Service[] = ['indicators', 'mf', 'flags'];

export const SERVICE_BASE: Readonly<Record<Service, string>> = {
  indicators: '/v1',
  mf: MF_BASE,
  flags: flags.FLAGS_BASE,
};

/** Manifest route of each service (relative to the host). */
export function manifestPath(service: Service): string {
  return `${SERVICE_BASE[service]}/downloads/manifest`;
}

/** What a download request names; `error` is service-neutral and each front door dresses it in its envelope. */
export type DownloadResolution = { file: string; contentType: string } | { error: DownloadError };

export interface DownloadError {
  status: 400 | 404 | 422;
  /** The parameter at fault: `format`, or the path segment (`table_name`, `dataset`). */
  field: string;
  where: 'query' | 'path';
  /** Stable machine code: invalid_format, unknown_table, unknown_dataset, unknown_parameter, not_published. */
  code: string;
  message: string;
  input: string;
  /** Accepted values, when the error is "not one of these". */
  allowed?: string[];
}

type Query = Iterable<readonly [string, string]>;

/** MF datasets at /mf/v1/download/{dataset}: format value → suffix, the first is the default. */
const MF_DATASETS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  [DETAILS_FILE_BASE]: { parquet: 'parquet', 'csv.gz': 'csv.gz' },
  [DATA_QUALITY_FILE_BASE]: { csv: 'csv', json: 'json' },
};

/** /mf/v1/download `format` → file name (`sqlite` is an alias of sqlite.gz, `latest` of latest.csv). */
const MF_MAIN: Readonly<Record<(typeof MF_DOWNLOAD_FORMATS)[number], string>> = {
  parquet: `${NAV_FILE_BASE}.parquet`,
  'csv.gz': `${NAV_FILE_BASE}.csv.gz`,
  'csv.zip': `${NAV_FILE_BASE}.csv.zip`,
  'tsv.gz': `${NAV_FILE_BASE}.tsv.gz`,
  'tsv.zip': `${NAV_FILE_BASE}.tsv.zip`,
  sqlite: `${NAV_FILE_BASE}.db.gz`,
  'sqlite.gz': `${NAV_FILE_BASE}.db.gz`,
  'sqlite.zip': `${NAV_FILE_BASE}.db.zip`,
  latest: `${LATEST_FILE_BASE}.csv`,
  'latest.csv': `${LATEST_FILE_BASE}.csv`,
  'latest.csv.gz': `${LATEST_FILE_BASE}.csv.gz`,
  'latest.csv.zip': `${LATEST_FILE_BASE}.csv.zip`,
  'latest.parquet': `${LATEST_FILE_BASE}.parquet`,
};

/** A table or dataset segment: a lower-case identifier, never a path. */
const SEGMENT = /^[a-z][a-z0-9_]{0,62}$/;

/**
 * Resolves a download route. `tail` is the path after `/download` without its slash ('' for
 * /mf/v1/download, 'all', a table or dataset name). With `published` (the manifest's file names),
 * tables the manifest adds are accepted too, and a name the manifest does not list is 404.
 */
export function resolveDownload(service: Service, tail: string, query: Query, published?: readonly string[]): DownloadResolution {
  const r = resolveName(service, tail, [...query], published);
  if ('error' in r) return r;
  if (published && !published.includes(r.file)) {
    return {
      error: {
        status: 404,
        field: 'format',
        where: 'query',
        code: 'not_published',
        message: `${r.file} is not published in the current generation; see ${manifestPath(service)}.`,
        input: r.file,
      },
    };
  }
  return { file: r.file, contentType: contentType(r.file) };
}

function resolveName(service: Service, tail: string, query: (readonly [string, string])[], published?: readonly string[]): { file: string } | { error: DownloadError } {
  const format = query.find(([k]) => k === 'format')?.[1];
  switch (service) {
    case 'indicators': {
      if (tail === 'all') return pick(indicators.ALL_DOWNLOAD_FORMATS, format, 'sqlite', indicators.ALL_BASENAME, 422);
      const tables = withPublished(indicators.TABLE_NAMES, published, [indicators.ALL_BASENAME]);
      if (!tables.includes(tail)) return { error: unknownSegment(tail, 'table_name', 'unknown_table', 422, tables) };
      return pick(indicators.TABLE_DOWNLOAD_FORMATS, format, 'parquet', tail, 422);
    }
    case 'flags': {
      if (tail === 'all') return pick(flags.ALL_DOWNLOAD_FORMATS, format, 'sqlite', flags.ALL_BASENAME, 422);
      const tables = withPublished(flags.TABLE_NAMES, published, [flags.ALL_BASENAME]);
      if (!tables.includes(tail)) return { error: unknownSegment(tail, 'table_name', 'unknown_table', 404, tables) };
      return pick(flags.TABLE_DOWNLOAD_FORMATS, format, 'parquet', tail, 422);
    }
    case 'mf': {
      if (tail === '') {
        try {
          return { file: MF_MAIN[parseDownloadParams(query)] };
        } catch (e) {
          if (!(e instanceof MfError)) throw e;
          const s = e.spec;
          return { error: { status: 400, field: s.field ?? 'format', where: 'query', code: s.code ?? 'bad_request', message: s.message, input: format ?? '', allowed: s.code === 'invalid_format' ? [...MF_DOWNLOAD_FORMATS] : undefined } };
        }
      }
      const datasets = Object.keys(MF_DATASETS);
      if (!datasets.includes(tail)) return { error: unknownSegment(tail, 'dataset', 'unknown_dataset', 404, datasets) };
      const formats = MF_DATASETS[tail];
      return pick(formats, format?.trim().toLowerCase(), Object.keys(formats)[0], tail, 400);
    }
  }
}

/** The contract's tables plus any stem the manifest publishes (new tables appear automatically). */
function withPublished(known: readonly string[], published: readonly string[] | undefined, exclude: string[]): string[] {
  const stems = (published ?? []).map((n) => splitFileName(n).stem).filter((s) => SEGMENT.test(s) && !exclude.includes(s));
  return [...new Set([...known, ...stems])];
}

function pick(
  formats: Readonly<Record<string, string>>,
  value: string | undefined,
  dflt: string,
  stem: string,
  status: 400 | 422,
): { file: string } | { error: DownloadError } {
  const key = value ?? dflt;
  const suffix = Object.hasOwn(formats, key) ? formats[key] : undefined;
  if (suffix) return { file: `${stem}.${suffix}` };
  const allowed = Object.keys(formats);
  return {
    error: {
      status,
      field: 'format',
      where: 'query',
      code: 'invalid_format',
      message: `Unknown format '${key}'. Formats: ${allowed.join(', ')}.`,
      input: key,
      allowed,
    },
  };
}

function unknownSegment(input: string, field: string, code: string, status: 404 | 422, allowed: string[]): DownloadError {
  const what = field === 'dataset' ? 'dataset' : 'table';
  return { status, field, where: 'path', code, message: `Unknown ${what} '${input}'. Valid: ${allowed.join(', ')}.`, input, allowed };
}

/**
 * The canonical URL path (with its query) of a manifest file name, or null when the name fits no
 * route of the service. Tables the contract does not know map by their stem, as the publisher serves them.
 */
export function downloadPath(service: Service, fileName: string): string | null {
  const { stem, suffix } = splitFileName(fileName);
  if (!SEGMENT.test(stem)) return null;
  const base = SERVICE_BASE[service];
  const withFormat = (path: string, formats: Readonly<Record<string, string>>): string | null => {
    const value = Object.keys(formats).find((k) => formats[k] === suffix);
    return value === undefined ? null : `${path}?format=${encodeURIComponent(value)}`;
  };
  switch (service) {
    case 'indicators':
      return stem === indicators.ALL_BASENAME
        ? withFormat(`${base}/download/all`, indicators.ALL_DOWNLOAD_FORMATS)
        : withFormat(`${base}/download/${stem}`, indicators.TABLE_DOWNLOAD_FORMATS);
    case 'flags':
      return stem === flags.ALL_BASENAME
        ? withFormat(`${base}/download/all`, flags.ALL_DOWNLOAD_FORMATS)
        : withFormat(`${base}/download/${stem}`, flags.TABLE_DOWNLOAD_FORMATS);
    case 'mf': {
      if (Object.hasOwn(MF_DATASETS, stem)) return withFormat(`${base}/download/${stem}`, MF_DATASETS[stem]);
      // Canonical values: the first key naming the file (parquet before aliases, `sqlite.gz` over `sqlite`).
      const canonical = MF_DOWNLOAD_FORMATS.filter((f) => f !== 'sqlite' && f !== 'latest.csv');
      const value = canonical.find((f) => MF_MAIN[f] === fileName);
      return value === undefined ? null : `${base}/download?format=${encodeURIComponent(value)}`;
    }
  }
}

/** Content-Type by suffix, per the flags spec's table (zip, gzip, parquet) and MF's raw text/csv. */
export function contentType(fileName: string): string {
  const { suffix } = splitFileName(fileName);
  if (suffix.endsWith('zip')) return 'application/zip';
  if (suffix.endsWith('gz')) return 'application/gzip';
  if (suffix === 'csv') return 'text/csv; charset=utf-8';
  if (suffix === 'json') return 'application/json';
  return 'application/octet-stream';
}

/** `mf_nav_master.csv.gz` → stem `mf_nav_master`, suffix `csv.gz`. */
export function splitFileName(name: string): { stem: string; suffix: string } {
  const dot = name.indexOf('.');
  return dot < 0 ? { stem: name, suffix: '' } : { stem: name.slice(0, dot), suffix: name.slice(dot + 1) };
}
