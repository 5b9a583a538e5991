import { afterAll, describe, it, expect } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');
/**
 * A bundle of this test's own, so the other CLI tests' launches at the same time keep theirs; inside the
 * project, where the bundle's packages resolve.
 */
const caches = path.join(root, 'node_modules', '.cache');
mkdirSync(caches, { recursive: true });
const cache = mkdtempSync(path.join(caches, 'almanac-cli-test-'));
const bundle = path.join(cache, 'main.mjs');
/** `npm run cli` with no command: the usage, exit code 0. */
const usage = () => run(process.execPath, ['scripts/cli.mjs'], { cwd: root, env: { ...process.env, ALMANAC_CLI_CACHE: cache } });

/** scripts/cli.mjs: `npm run cli` runs the CLI from one bundle, rebuilt only when a source is newer. */
describe('the CLI launcher (scripts/cli.mjs)', () => {
  afterAll(() => rmSync(cache, { recursive: true, force: true }));

  it('rebuilds a bundle older than the sources, and keeps a current one', async () => {
    await usage();
    utimesSync(bundle, 0, 0);
    const { stderr } = await usage();
    expect(stderr).toContain('usage: npm run cli -- <command>');
    const rebuilt = statSync(bundle).mtimeMs;
    expect(rebuilt).toBeGreaterThan(statSync(path.join(root, 'src', 'cli', 'main.ts')).mtimeMs);
    await usage();
    expect(statSync(bundle).mtimeMs).toBe(rebuilt);
  });

  it('keeps each module naming its own source file, so paths resolved from it are the sources’', async () => {
    await usage();
    const text = readFileSync(bundle, 'utf8');
    expect(text).not.toMatch(/import\.meta\.(url|dirname|filename)/);
    expect(text).toContain(JSON.stringify(pathToFileURL(path.join(root, 'src', 'core', 'engine', 'node.ts')).href));
  });
});
