// Runs Doyensec's electronegativity on the directory given, as its CLI does, and prints its findings as
// JSON. Run as a child process: the scanner registers its translation function as a global.
//
// Offline: it fetches updated translations and Electron's release list (got, with retries: ~20 s
// without a network); here every such request fails at once, so it uses the translations it ships.
// The Electron version is passed in (the shell's own package.json names none, and the scanner would
// assume v0.1.0); AvailableSecurityFixesGlobalCheck, which needs the release list, is left out:
// Electron upgrades are kept by the lock file.
const Module = require('node:module');
const path = require('node:path');

const runner = require.resolve('@doyensec/electronegativity');
const got = require.resolve('got', { paths: [path.join(path.dirname(runner), 'locales')] });
const offline = new Module(got);
offline.loaded = true;
offline.exports = Object.assign(() => Promise.reject(new Error('offline')), { head: () => Promise.reject(new Error('offline')) });
require.cache[got] = offline;

const [dir, electronVersion] = process.argv.slice(2);
const print = (text) => process.stdout.write(text);
console.log = () => {}; // its banner and "Could not retrieve updated translations": stdout is the findings only
require(runner)({
  input: path.resolve(dir),
  isRelative: true,
  customScan: [],
  excludeFromScan: ['AvailableSecurityFixesGlobalCheck'],
  electronVersionOverride: electronVersion,
  parserPlugins: [],
}).then(({ issues, errors }) => {
  const findings = issues.map((i) => ({
    issue: i.id,
    severity: i.severity.name,
    confidence: i.confidence.name,
    file: i.file,
    sample: i.sample ?? null,
    description: i.description,
  }));
  print(JSON.stringify({ findings, errors: errors.map((e) => `${e.file}: ${e.message}`) }));
});
