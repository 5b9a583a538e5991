/**
 * The house rules as checks (issue #25): ESLint with the rules in eslint.config.js (no node:* in
 * src/core outside Node-named files, no SQL in views but the workbench), and madge for import
 * cycles, type-only imports included.
 */
import madge from 'madge';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * Cycles left, each with why it waits; a new one fails, and removing one means removing it here.
 * - store.ts <> user.ts: src/core/store is being rewritten by the daily-refresh work (#25 says wait).
 * - ui/lib/backend.ts: the backend factory and the interface its two implementations import; split
 *   with the UI's nav()/search() work (slice 2).
 * - publisher/query-worker.ts: the publisher's query endpoints (issue 20) start a publisher in their
 *   worker thread from server.ts, which reaches the worker's types through envelopes.ts and
 *   queries.ts; src/publisher is being reworked by that work's engineer.
 */
const KNOWN = [
  'core/store/store.ts > core/store/user.ts',
  'publisher/server.ts > publisher/envelopes.ts > publisher/queries.ts > publisher/query-worker.ts',
  'ui/lib/backend.ts > ui/lib/browser-backend.ts',
  'ui/lib/backend.ts > ui/lib/browser-backend.ts > ui/lib/config.svelte.ts',
  'ui/lib/backend.ts > ui/lib/browser-backend.ts > ui/lib/sync-protocol.ts',
  'ui/lib/backend.ts > ui/lib/desktop-backend.ts',
  'ui/lib/backend.ts > ui/lib/engine.svelte.ts',
];

describe('house rules', { timeout: 900_000 }, () => {
  it('ESLint: no violation in src', async () => {
    const results = await new ESLint().lintFiles(['src']);
    const problems = results.flatMap((r) => r.messages.map((m) => `${r.filePath.replace(`${process.cwd()}/`, '')}:${m.line} ${m.message}`));
    expect(problems).toEqual([]);
  });

  it('madge: no import cycle in src beyond the known ones', async () => {
    const res = await madge('src', { fileExtensions: ['ts', 'svelte'], tsConfig: 'tsconfig.json' });
    expect(res.circular().map((c) => c.join(' > ')).sort()).toEqual([...KNOWN].sort());
  });
});
