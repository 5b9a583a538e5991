/**
 * The one error every service and front door shares: a deliberate 4xx (or 503) that knows its
 * status and renders its own service's envelope. REST sends `body(request path)`, MCP returns
 * `body(tool name)` as a tool error, the UI shows `message` and `hint`.
 */
export abstract class ApiError extends Error {
  abstract readonly status: number;
  /** What to do next, when the service says (shown by the UI after the message). */
  abstract readonly hint: string | undefined;
  /** Response headers the answer needs (Allow on a 405). */
  headers: Record<string, string> = {};
  /** The body in this service's envelope; `path` is the request path or, over MCP, the tool name. */
  abstract body(path: string, baseUrl: string): object;
}

/**
 * The error envelope the MF, flags and indicators specs share: what failed, where, and where to read
 * more. Each service's body adds its own fields (flags' `hint` and `field`, MF's `code`...).
 */
export interface ErrorEnvelope {
  error: string;
  status: number;
  path: string;
  message: string;
  help: { catalog: string; docs: string };
}

/**
 * The table or schema a query found missing, from DuckDB's catalog error: on a machine that has not
 * synced a dataset yet, its schema and tables are simply not there.
 */
export function missingName(err: unknown): string | null {
  const msg = err instanceof Error ? err.message : '';
  return /Catalog Error: (?:Table|Schema|Catalog) with name "?(\w+)"? does not exist/.exec(msg)?.[1] ?? null;
}

/** What a service says when its dataset is not on this machine: which names are its own, and the 503. */
export interface MissingData {
  names: readonly string[];
  error(): ApiError;
}

/**
 * A query over a dataset that is not there is the machine's state, not a bug: the service's 503 that
 * says what to do. A missing name the service does not own stays an error.
 */
export function asMissingData(err: unknown, data: MissingData): ApiError | null {
  const name = missingName(err);
  return name !== null && data.names.includes(name) ? data.error() : null;
}
