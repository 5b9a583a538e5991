/**
 * `npm run cli`: the command line from one bundled file, rebuilt when a source changed.
 *
 * Run through tsx, every start transformed and resolved the CLI's ~120 source modules, and resolved
 * every package they import, through tsx's loader hooks, and that garbage was still being collected
 * when the first requests came in: the local server answered ~0.7 s later and its first NAV request
 * took ~30 ms longer than from this bundle (docs/performance.md, "The reply's bytes, and the CLI from
 * one file"). Packages stay outside the bundle and load as usual; only src/ is bundled (esbuild,
 * ~0.3 s, only when a file under src/ or the lockfile is newer than the bundle). Each module's
 * `import.meta.url`, `dirname` and `filename` keep naming its source file, so paths resolved from them
 * (package files, workers, shared data) are the ones the sources resolve.
 */
import { build } from 'esbuild';
import { readFile, readdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = path.join(root, 'src');
/** Where the bundle is kept: node_modules' cache, or ALMANAC_CLI_CACHE (a test keeps its own there). */
const bundle = path.join(process.env.ALMANAC_CLI_CACHE ?? path.join(root, 'node_modules', '.cache', 'almanac-cli'), 'main.mjs');

/** The latest change under `dir`: files and directories (a deleted file changes its directory). */
async function newest(dir) {
  let latest = (await stat(dir)).mtimeMs;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? await newest(p) : (await stat(p)).mtimeMs);
  }
  return latest;
}

const sourceUrls = {
  name: 'source-urls',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async ({ path: file }) => {
      const text = await readFile(file, 'utf8');
      const contents = text
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(file).href))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(file)))
        .replaceAll('import.meta.filename', JSON.stringify(file));
      return { contents, loader: 'ts' };
    });
  },
};

const inputs = Math.max(await newest(src), (await stat(path.join(root, 'package-lock.json'))).mtimeMs);
const built = await stat(bundle).then((s) => s.mtimeMs, () => 0);
if (built < inputs) {
  // Written aside and renamed: two CLIs starting at once never run a half-written bundle.
  const aside = `${bundle}.${process.pid}.tmp`;
  await build({
    entryPoints: [path.join(src, 'cli', 'main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: aside,
    logLevel: 'warning',
    plugins: [sourceUrls],
  });
  await rename(aside, bundle);
}
await import(pathToFileURL(bundle).href);
