import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/**
 * Defines `__ALMANAC_BUILD__`: a hash of every file under src/, so it changes with any change of the
 * code and only then (the same sources build the same id). The answers the app keeps per data
 * generation (src/ui/lib/answer-cache.ts) are kept per build too: another build may shape them
 * differently.
 */
export function buildId(root = fileURLToPath(new URL('.', import.meta.url))): Plugin {
  const src = path.join(root, 'src');
  const h = createHash('sha256');
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((f) => statSync(path.join(src, f)).isFile())
    .sort();
  for (const f of files) h.update(`${f}\0`).update(readFileSync(path.join(src, f))).update('\0');
  const id = h.digest('hex').slice(0, 16);
  return { name: 'almanac-build-id', config: () => ({ define: { __ALMANAC_BUILD__: JSON.stringify(id) } }) };
}
