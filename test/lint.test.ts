/**
 * The house rules as checks (issue #25): ESLint with the rules in eslint.config.js (no node:* in
 * src/core outside Node-named files, no SQL in views but the workbench), and madge for import
 * cycles, type-only imports included.
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

  it('madge: no import cycle in src', async () => {
    const res = await madge('src', { fileExtensions: ['ts', 'svelte'], tsConfig: 'tsconfig.json' });
    expect(res.circular().map((c) => c.join(' > '))).toEqual([]);
  });
});
