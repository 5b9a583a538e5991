/**
 * The watchlist and the changes through the front doors, as a user runs them: CLI processes (each a
 * restart), syncs, a dataset deleted and rebuilt from scratch; then `changes --json`, GET
 * /almanac/v1/changes and the MCP tool `whats_new` give the same JSON.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { generate, tempDir } from '../core/sync/fixture.js';
import { cli } from '../helpers/cli.js';
import { startPublisher, type Publisher } from '../../src/publisher/server.js';
import { buildServer } from '../../src/server/app.js';
import { NodeEngine } from '../../src/core/engine/node.js';
import { SERVICES } from '../../src/core/sync/datasets.js';

describe('cli watch / changes; REST and MCP answer the same', { timeout: 1_500_000 }, () => {
  let pub: Publisher;
  let pubDir: string;
  let data: string;
  let root: string;
  const ids = { scheme: '', ended: '', company: '', indicator: '' };
  const sql = async (q: string) => JSON.parse((await cli('sql', '--data', data, '--json', q)).stdout) as Record<string, unknown>[];
  const sync = async (...more: string[]) => {
    const r = await cli('sync', '--source', pub.url, '--data', data, '--json', ...more);
    expect(r.code, r.stderr).toBe(0);
    return r;
  };
  const list = async () => JSON.parse((await cli('watch', 'list', '--data', data, '--json')).stdout) as Array<Record<string, unknown>>;

  beforeAll(async () => {
    root = tempDir('watch');
    pubDir = path.join(root, 'pub');
    await generate(pubDir, SERVICES);
    pub = await startPublisher({ dataDir: pubDir, limits: 'off' });
    data = path.join(root, 'store');
    await sync();
    // One CLI process for the four ids: each start opens the store (a DuckDB-WASM engine, seconds of CPU).
    const [found] = await sql(
      `SELECT (SELECT min(scheme_code) FROM mf.latest WHERE is_active) AS scheme,
              (SELECT min(scheme_code) FROM mf.latest WHERE NOT is_active) AS ended,
              (SELECT min(symbol) FROM flags.credit_ratings) AS company,
              (SELECT min(indicator_id) FROM indicators.macro_indicators) AS indicator`,
    );
    Object.assign(ids, { scheme: String(found.scheme), ended: String(found.ended), company: String(found.company), indicator: String(found.indicator) });
  }, 1_500_000);
  afterAll(() => pub?.close());

  it('watch add of something not in the local data names it and saves nothing', async () => {
    const r = await cli('watch', 'add', 'scheme', '99999999', '--data', data);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/unknown scheme '99999999'/);
    const c = await cli('watch', 'add', 'company', 'NOSUCHCO', '--data', data);
    expect(c.stderr).toMatch(/unknown company 'NOSUCHCO'/);
    expect(fs.existsSync(path.join(data, 'watches.json'))).toBe(false);
  });

  it('watches on a scheme, a company and an indicator survive restarts, syncs, a --full verification and a rebuild from scratch', async () => {
    for (const [kind, id] of [['scheme', ids.scheme], ['scheme', ids.ended], ['company', ids.company.toLowerCase()], ['indicator', ids.indicator]]) {
      const r = await cli('watch', 'add', kind, id, '--data', data);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^watching /);
    }
    const before = await list();
    expect(before.map((w) => [w.kind, w.key])).toEqual([['scheme', ids.scheme], ['scheme', ids.ended], ['company', ids.company], ['indicator', ids.indicator]]);
    // An ended scheme stays on the list and says so.
    expect(before[1]).toMatchObject({ status: 'ended' });
    expect(String(before[1].note)).toMatch(/^ended \d{4}-\d{2}-\d{2}: (merged|matured)/);

    await generate(pubDir, SERVICES, 2);
    await sync();
    expect(await list()).toEqual(before);
    // The MF history downloaded whole and rebuilt (issue 20's full verification).
    const full = JSON.parse((await sync('--full', '--only', 'mf')).stdout) as { files: Array<{ name: string; refresh?: string }> };
    expect(full.files.find((f) => f.name === 'mf_nav_master.parquet')).toMatchObject({ refresh: 'full' });
    // status says when the history was last verified in full, and how.
    const status = await cli('status', '--data', data);
    expect(status.stdout).toMatch(/^ {2}NAV history verified in full \d{4}-\d{2}-\d{2}T[\d:.]+Z · 0 refreshes since · last change: downloaded whole: /m);
    const mf = (JSON.parse((await cli('status', '--data', data, '--json')).stdout) as { dataset: string; history: unknown }[]).find((d) => d.dataset === 'mf');
    expect(mf?.history).toMatchObject({ refreshes: 0, refresh: 'full' });
    expect(await list()).toEqual(before);
    for (const s of SERVICES) expect((await cli('delete', '--data', data, s)).code).toBe(0);
    await sync();
    expect(await list()).toEqual(before);
  });

  it('changes --json, GET /almanac/v1/changes and whats_new give the same JSON; bad input is a 400', async () => {
    // Generation 3 against the rebuilt generation 2: a sync with changes, recorded.
    await generate(pubDir, SERVICES, 3);
    await sync();
    const out = await cli('changes', '--data', data, '--json');
    expect(out.code, out.stderr).toBe(0);
    const viaCli = JSON.parse(out.stdout);
    expect(Object.keys(viaCli)).toEqual(['from', 'to', 'watched', 'totals']);
    expect(viaCli.totals.new_navs).toBeGreaterThan(0);
    expect(viaCli.watched.schemes.map((s: { scheme_code: number }) => s.scheme_code)).toContain(Number(ids.scheme));
    const since = (await cli('changes', '--data', data, '--json', '--since', '2000-01-01')).stdout;

    const engine = await NodeEngine.open();
    let app: FastifyInstance | undefined;
    try {
      app = await buildServer({ engine, baseUrl: 'http://127.0.0.1', dataDir: data });
      const base = await app.listen({ host: '127.0.0.1', port: 0 });
      expect(await (await fetch(`${base}/almanac/v1/changes`)).json()).toEqual(viaCli);
      expect(await (await fetch(`${base}/almanac/v1/changes?since=2000-01-01`)).json()).toEqual(JSON.parse(since));
      const bad = await fetch(`${base}/almanac/v1/changes?since=yesterday`);
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ error: 'bad_request', message: "since must be a date (YYYY-MM-DD) or an ISO time, got 'yesterday'" });
      expect((await fetch(`${base}/almanac/v1/changes?sinse=2026-01-01`)).status).toBe(400);

      const client = new Client({ name: 'changes-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
      try {
        const text = (r: Awaited<ReturnType<typeof client.callTool>>) => JSON.parse((r.content as { text: string }[])[0].text);
        expect(text(await client.callTool({ name: 'whats_new', arguments: {} }))).toEqual(viaCli);
        expect(text(await client.callTool({ name: 'whats_new', arguments: { since: '2000-01-01' } }))).toEqual(JSON.parse(since));
        const err = await client.callTool({ name: 'whats_new', arguments: { since: '2026-02-30x' } });
        expect(err.isError).toBe(true);
      } finally {
        await client.close();
      }
    } finally {
      await app?.close();
      await engine.close();
    }
    const badCli = await cli('changes', '--data', data, '--since', 'yesterday');
    expect(badCli.code).toBe(2);
    expect(badCli.stderr).toMatch(/since must be a date/);
  });

  it('export and import: an imported list keeps entries this store does not hold as pending, and says so', async () => {
    const exported = (await cli('watch', 'export', '--data', data)).stdout;
    const file = path.join(root, 'watches-export.json');
    fs.writeFileSync(file, exported);
    const empty = path.join(root, 'empty-store');
    fs.mkdirSync(empty);
    const r = await cli('watch', 'import', file, '--data', empty);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/imported 0 watches/);
    expect(r.stdout.match(/^pending: /gm)?.length).toBe(4);
    const listed = JSON.parse((await cli('watch', 'list', '--data', empty, '--json')).stdout) as Array<{ status: string }>;
    expect(listed.map((w) => w.status)).toEqual(['pending', 'pending', 'pending', 'pending']);
    // Back into the synced store: everything already there.
    expect((await cli('watch', 'import', file, '--data', data)).stdout).toMatch(/imported 0 watches, 4 already on the list/);
    expect((await cli('watch', 'remove', 'scheme', ids.ended, '--data', data)).code).toBe(0);
    expect((await list()).length).toBe(3);
  });
});
