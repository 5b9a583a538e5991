import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Engine } from '../../src/core/engine/engine.js';
import { listen } from '../../src/server/listen.js';
import { QUIET_MS, warmUp } from '../../src/core/services/warm-up.js';
import { openTinyMfStore } from '../helpers/mf-store.js';

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

/**
 * The server's own warm-up (src/core/services/warm-up.ts) shares the one engine with the clients and
 * blocks the event loop for each statement: it must stay out of a client's way. The statements are
 * counted on the real engine (its methods wrapped in place, so the store's per-generation answers stay
 * its own).
 */
describe('the server warm-up (real DuckDB-WASM, tiny MF store synced from the publisher)', () => {
  let engine: Engine;
  let close: () => Promise<void>;
  const ran: string[] = [];

  beforeAll(async () => {
    ({ engine, close } = await openTinyMfStore(mkdtempSync(path.join(tmpdir(), 'almanac-warm-up-'))));
    const e = engine as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    for (const m of ['all', 'columns', 'arrow', 'exec']) {
      const own = e[m].bind(engine);
      e[m] = (...a: unknown[]) => (ran.push(String(a[0])), own(...a));
    }
  });
  afterAll(() => close?.());

  it('runs nothing, its own lookups included, while clients are being served; then the NAV path', async () => {
    ran.length = 0;
    let quiet = false;
    let stop = false;
    const warming = warmUp(engine, () => stop, () => quiet);
    await tick(QUIET_MS * 2);
    expect(ran).toEqual([]);
    quiet = true;
    for (let i = 0; i < 200 && !ran.some((s) => s.includes('FROM mf.nav')); i++) await tick(10);
    expect(ran.some((s) => s.includes('FROM mf.latest'))).toBe(true);
    expect(ran.some((s) => s.includes('FROM mf.nav'))).toBe(true);
    stop = true;
    await warming;
    const after = ran.length;
    await tick(QUIET_MS);
    expect(ran.length).toBe(after);
  });

  it('starts no statement as the server starts listening: whoever started it may ask at once', async () => {
    ran.length = 0;
    const server = await listen({ engine, dataDir: tmpdir() }, { port: 0 });
    try {
      await tick();
      expect(ran).toEqual([]);
      const r = await fetch(`${server.url}/mf/v1/terms`);
      expect(r.status).toBe(200);
      await tick();
      expect(ran).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
