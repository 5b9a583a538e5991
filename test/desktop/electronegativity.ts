import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export interface Finding {
  /** The scanner's check id, e.g. CONTEXT_ISOLATION_JS_CHECK. */
  issue: string;
  severity: 'INFORMATIONAL' | 'LOW' | 'MEDIUM' | 'HIGH';
  confidence: string;
  file: string;
  sample: string | null;
  description: string;
}

const SCANNER = fileURLToPath(new URL('electronegativity.cjs', import.meta.url));
const ELECTRON = (createRequire(import.meta.url)('../../package.json') as { devDependencies: Record<string, string> }).devDependencies.electron;

/** electronegativity's findings on `dir` (electronegativity.cjs runs it offline, for the Electron in package.json). */
export async function scan(dir: string): Promise<{ findings: Finding[]; errors: string[] }> {
  const { stdout } = await promisify(execFile)(process.execPath, [SCANNER, dir, ELECTRON], { timeout: 120_000, maxBuffer: 16 * 2 ** 20 });
  return JSON.parse(stdout);
}
