// The house rules that were conventions (docs/architecture.md, "Rules every module follows"), as
// lint: only these, so a failure always means one of them broke. Import cycles are madge's
// (test/lint.test.ts runs both).
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import sql from './eslint/sql-interpolation.js';

/** SQL keywords in a string or template: a statement, not prose (views show prose). */
const SQL = '/\\b(SELECT|INSERT|UPDATE|DELETE|CREATE|ATTACH|COPY|WITH)\\b[\\s\\S]*\\b(FROM|INTO|TABLE|AS|SET)\\b/';

export default [
  { ignores: ['dist/**', 'node_modules/**', '**/*.d.ts'] },
  ...svelte.configs.base,
  { files: ['src/**/*.ts'], languageOptions: { parser: tseslint.parser } },
  { files: ['src/**/*.svelte'], languageOptions: { parserOptions: { parser: tseslint.parser } } },
  {
    // User values reach SQL only as bound parameters or validated identifiers (eslint/sql-interpolation.js).
    files: ['src/**/*.ts', 'src/**/*.svelte'],
    plugins: { sql },
    rules: { 'sql/no-interpolated-sql': 'error' },
  },
  {
    // The browser bundle builds from the same core: Node's modules only in files named for Node.
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/node.ts', 'src/core/**/fs.ts', 'src/core/**/node-*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*'], message: 'src/core runs in the browser too: Node modules only in node.ts, fs.ts or node-*.ts.' }] }],
    },
  },
  {
    // Views call services; the SQL lives beside them in src/core/services. The workbench is the exception: SQL is what it edits.
    files: ['src/ui/views/**/*.svelte'],
    ignores: ['src/ui/views/SqlView.svelte'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: `Literal[value=${SQL}]`, message: 'No SQL in views: move it into a service in src/core/services.' },
        { selector: `TemplateElement[value.raw=${SQL}]`, message: 'No SQL in views: move it into a service in src/core/services.' },
      ],
    },
  },
];
