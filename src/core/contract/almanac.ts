/**
 * Almanac's own surface, beside the three mirrored services: its endpoints under `/almanac/v1` and
 * the envelope of every error that belongs to no service (an unknown path, a refused Host or Origin,
 * a request refused before routing outside the services' prefixes). The shape is the services' common
 * core: `{error, status, path, message}`, plus `hint` and `help` where there is something to say.
 */
import { ApiError } from './api-error.js';

export const ALMANAC_BASE = '/almanac/v1';

const SLUGS: Record<number, string> = {
  400: 'bad_request',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  431: 'request_header_fields_too_large',
  503: 'service_unavailable',
};

export interface AlmanacErrorBody {
  error: string;
  status: number;
  path: string;
  message: string;
  hint?: string;
  help?: Record<string, string>;
}

/** Where each API lives: the `help` of a 404 outside every service. */
export const API_MAP = {
  almanac: `${ALMANAC_BASE}/`,
  catalog: '/v1/',
  docs: '/openapi.json',
  indicators: '/v1/',
  mutual_funds: '/mf/v1/',
  red_flags: '/flags/v1/',
  compare: '/v1/compare',
  mcp: 'POST /mcp',
  openapi: '/openapi.json',
} as const;

export class AlmanacError extends ApiError {
  constructor(
    readonly status: number,
    message: string,
    readonly hint: string | undefined = undefined,
    readonly help?: Record<string, string>,
  ) {
    super(message);
  }

  body(path: string): AlmanacErrorBody {
    return {
      error: SLUGS[this.status] ?? (this.status >= 500 ? 'internal_error' : 'bad_request'),
      status: this.status,
      path,
      message: this.message,
      ...(this.hint ? { hint: this.hint } : {}),
      ...(this.help ? { help: this.help } : {}),
    };
  }
}
