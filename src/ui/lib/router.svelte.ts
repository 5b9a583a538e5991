/** Hash routes (`#/funds/119551?window=1y`), so every view is deep-linkable and works offline. */
export interface Route {
  /** Path segments after `#/`, e.g. ['funds', '119551']. */
  parts: string[];
  query: URLSearchParams;
}

function parse(hash: string): Route {
  const raw = hash.replace(/^#\/?/, '');
  const [path, qs] = raw.split('?', 2);
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  return { parts: parts.length ? parts : ['data'], query: new URLSearchParams(qs ?? '') };
}

export const route = $state<Route>(parse(location.hash));

window.addEventListener('hashchange', () => {
  const next = parse(location.hash);
  route.parts = next.parts;
  route.query = next.query;
});

/** Builds a hash link; `query` entries that are empty are left out. */
export function href(parts: (string | number)[], query: Record<string, string | number | undefined> = {}): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') qs.set(k, String(v));
  const q = qs.toString();
  return `#/${parts.map((p) => encodeURIComponent(String(p))).join('/')}${q ? `?${q}` : ''}`;
}

export function go(parts: (string | number)[], query: Record<string, string | number | undefined> = {}): void {
  location.hash = href(parts, query);
}

/** Updates the query of the current route without adding a history entry. */
export function setQuery(query: Record<string, string | number | undefined>): void {
  const url = href(route.parts, query);
  history.replaceState(null, '', url);
  route.query = parse(url).query;
}
