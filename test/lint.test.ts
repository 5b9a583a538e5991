/**
 * The house rules as checks (issue #25): ESLint with the rules in eslint.config.js (no node:* in
 * src/core outside Node-named files, no SQL in views but the workbench, no user value interpolated
 * into SQL), and madge for import cycles, type-only imports included.
 */
import madge from 'madge';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

describe('house rules', { timeout: 900_000 }, () => {
  it('ESLint: no violation in src', async () => {
    const results = await new ESLint().lintFiles(['src']);
    const problems = results.flatMap((r) => r.messages.map((m) => `${r.filePath.replace(`${process.cwd()}/`, '')}:${m.line} ${m.message}`));
    expect(problems).toEqual([]);
  });

  it('the SQL rule flags a user value interpolated into SQL and lets constants and quoted identifiers pass', async () => {
    const sample = [
      "import type { Engine } from '../../engine/engine.js';",
      "import { quoteIdent } from '../../sync/names.js';",
      "const TABLE = 'mf.latest';",
      'export const BAD_SQL = `SELECT * FROM t WHERE name = ${process.argv[2]}`;',
      'export const GOOD_SQL = `SELECT * FROM ${TABLE} WHERE scheme_code = ?`;',
      'export async function q(engine: Engine, name: string, codes: number[]) {',
      '  await engine.all(`SELECT * FROM mf.latest WHERE scheme_name = \'${name}\'`);',
      '  const target = quoteIdent(name);',
      "  await engine.all(`SELECT * FROM ${target} WHERE scheme_code IN (${codes.map(() => '?').join(', ')})`, codes);",
      '  await engine.exec(`DROP TABLE ${name}`);',
      '}',
    ].join('\n');
    const [r] = await new ESLint().lintText(sample, { filePath: 'src/core/services/mf/sample.ts' });
    const flagged = r.messages.filter((m) => m.ruleId === 'sql/no-interpolated-sql').map((m) => [m.line, m.message.match(/`([^`]*)`/)?.[1]]);
    expect(flagged).toEqual([
      [4, 'process.argv[2]'],
      [7, 'name'],
      [10, 'name'],
    ]);
  });

  it('madge: no import cycle in src', async () => {
    const res = await madge('src', { fileExtensions: ['ts', 'svelte'], tsConfig: 'tsconfig.json' });
    expect(res.circular().map((c) => c.join(' > '))).toEqual([]);
  });
});
