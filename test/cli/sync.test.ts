import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, tempDir } from '../core/sync/fixture.js';
import { cli } from '../helpers/cli.js';
import { startPublisher, type Publisher } from '../../src/publisher/server.js';

describe('cli sync / status / sql', { timeout: 600_000 }, () => {
  let pub: Publisher;
  let data: string;
  beforeAll(async () => {
    const root = tempDir('cli');
    await generate(path.join(root, 'pub'), ['flags']);
    pub = await startPublisher({ dataDir: path.join(root, 'pub'), limits: 'off' });
    data = path.join(root, 'store');
  });
  afterAll(() => pub?.close());

  it('sync --json prints one summary; status and sql read what it stored; a second sync moves no body', async () => {
    const first = await cli('sync', '--source', pub.url, '--data', data, '--only', 'flags', '--json');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const s = JSON.parse(first.stdout);
    expect(s.files).toHaveLength(7);
    expect(s.files.every((f: { status: string; body_bytes: number }) => f.status === 'downloaded' && f.body_bytes > 0)).toBe(true);
    expect(s.body_bytes).toBe(s.files.reduce((n: number, f: { body_bytes: number }) => n + f.body_bytes, 0));
    expect(s.requests).toBe(8);

    const status = JSON.parse((await cli('status', '--data', data, '--json')).stdout);
    expect(status).toHaveLength(1);
    expect(status[0]).toMatchObject({ dataset: 'flags', generation: 1 });
    expect(status[0].etag).toMatch(/^"/);
    // The publisher's files match the contract: nothing to report, and flags publishes no schema version.
    expect(status[0]).toMatchObject({ drift: [], schema_version: null, local_schema_version: null });

    const rows = JSON.parse((await cli('sql', '--data', data, '--json', 'SELECT count(*) AS n FROM flags.credit_ratings')).stdout);
    expect(rows).toEqual([{ n: status[0].tables.credit_ratings.rows }]);
    expect(rows[0].n).toBeGreaterThan(0);
    const csv = (await cli('sql', '--data', data, '--csv', 'SELECT 1 AS a, \'x,y\' AS b')).stdout;
    expect(csv).toBe('a,b\n1,"x,y"\n');

    const second = JSON.parse((await cli('sync', '--data', data, '--only', 'flags', '--json')).stdout);
    expect(second.files.map((f: { status: string }) => f.status)).toEqual(Array(7).fill('not_modified'));
    expect(second.body_bytes).toBe(0);
    expect(second.requests).toBe(1);

    expect((await cli('delete', '--data', data, 'flags')).stdout).toBe('flags: deleted\n');
    expect(JSON.parse((await cli('status', '--data', data, '--json')).stdout)).toEqual([]);
    // The kept changes of the syncs (docs/changes.md) are the store's, not the dataset's: they stay.
    expect(fs.readdirSync(data).sort()).toEqual(['changes.json', 'state.json']);
  });

  it('bad input gets a usage error, not a stack trace', async () => {
    const r = await cli('sync', '--data', data, '--only', 'nope');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--only: unknown dataset nope/);
    const q = await cli('sql', '--data', data, '--json', 'SELECT * FROM flags.no_such_table');
    expect(q.code).toBe(1);
    expect(q.stderr).toMatch(/^error: .*no_such_table/);
  });
});
