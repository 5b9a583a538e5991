/**
 * The changes a sync records equal an independent diff of two stores, one synced per generation:
 * the store syncs generation 1 (copied aside: the generation-1 store), then generation 2 recording its
 * changes (the generation-2 store). The expected answer is computed here in JavaScript from the two
 * stores' rows, read with plain SELECTs, not with the recorder's SQL.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bench, generate, NO_LIMITS, tempDir, type Bench } from '../sync/fixture.js';
import { SERVICES } from '../../../src/core/sync/datasets.js';
import { readState } from '../../../src/core/sync/metadata.js';
import { openStore } from '../../../src/core/database/node.js';
import { syncRecorded } from '../../../src/core/changes/recorder.js';
import { addWatch, importWatches, readWatches, settleWatches } from '../../../src/core/changes/watches.js';
import { changesSince, readLog, readRevisions } from '../../../src/core/changes/log.js';
import { changePct } from '../../../src/core/changes/diff.js';
import { TABLE_NAMES, FLAGS_TABLES } from '../../../src/core/contract/flags.js';
import { companyScorecard } from '../../../src/core/services/flags/scorecard.js';
import type { Changes, KeptChanges } from '../../../src/core/changes/shape.js';
import type { Engine } from '../../../src/core/engine/engine.js';
import { Cancelled } from '../../../src/core/sync/hooks.js';
import { CHANGES_FILE, REVISIONS_FILE } from '../../../src/core/changes/log.js';
import { loadSchema } from '../../../src/ui/lib/schema.js';

type Rows = Map<string, number>;

/** Everything the expected answer needs from one store, read with plain SELECTs. */
interface Snapshot {
  nav: Rows; // `${code}|${date}` -> nav
  macro: Rows; // `${id}|${date}` -> value
  flags: Record<string, Map<string, number>>; // table -> row as JSON (a snapshot without its date) -> count
  scores: Map<string, number>;
}

async function snapshot(dir: string, symbols: string[]): Promise<Snapshot> {
  const store = await openStore(dir);
  try {
    const e = store.engine;
    const pairs = async (sql: string) => {
      const [a, b, c] = await e.columns(sql);
      return new Map(a.map((k, i) => [`${k}|${b[i]}`, c[i] as number]));
    };
    const flags: Snapshot['flags'] = {};
    for (const t of TABLE_NAMES) {
      const m = new Map<string, number>();
      // A snapshot's own date is not part of what a row says (it is dated anew at each publish).
      const spec = FLAGS_TABLES[t];
      const cols = spec.columns.filter((c) => spec.kind !== 'snapshot' || c.name !== spec.dateColumn);
      for (const r of await e.all(`SELECT ${cols.map((c) => `"${c.name}"`).join(', ')} FROM flags.${t}`)) {
        const k = JSON.stringify(r);
        m.set(k, (m.get(k) ?? 0) + 1);
      }
      flags[t] = m;
    }
    const scores = new Map<string, number>();
    for (const s of symbols) scores.set(s, (await companyScorecard(e, { identifier: s, as_of: null })).score);
    return {
      nav: await pairs('SELECT scheme_code, date, nav FROM mf.nav'),
      macro: await pairs('SELECT indicator_id, date, value FROM indicators.macro_indicators'),
      flags,
      scores,
    };
  } finally {
    await store.close();
  }
}

function pointDiff(a: Rows, b: Rows, watched: string[]) {
  const out = new Map<string, { added: string[]; revised: { date: string; old: number; new: number }[] }>();
  for (const id of watched) out.set(id, { added: [], revised: [] });
  let added = 0;
  let revised = 0;
  for (const [k, v] of b) {
    const [id, date] = k.split('|');
    const old = a.get(k);
    if (old === undefined) added++;
    else if (old !== v) revised++;
    const w = out.get(id);
    if (!w) continue;
    if (old === undefined) w.added.push(date);
    else if (old !== v) w.revised.push({ date, old, new: v });
  }
  return { added, revised, per: out };
}

function latest(rows: Rows, code: string): { date: string; nav: number } | null {
  let best: { date: string; nav: number } | null = null;
  for (const [k, v] of rows) {
    const [c, date] = k.split('|');
    if (c === code && (!best || date > best.date)) best = { date, nav: v };
  }
  return best;
}

/** The watched schemes' changes from store `a` to store `b`, as the recorder lists them. */
function schemeChanges(a: Snapshot, b: Snapshot) {
  const d = pointDiff(a.nav, b.nav, watched.schemes);
  return watched.schemes.flatMap((code) => {
    const w = d.per.get(code)!;
    if (w.added.length + w.revised.length === 0) return [];
    const last = latest(b.nav, code)!;
    return [{
      scheme_code: Number(code),
      new_navs: w.added.length,
      last_date: last.date,
      last_nav: last.nav,
      change_pct: changePct(latest(a.nav, code)?.nav ?? null, last.nav),
      revised_navs: w.revised.length,
      revisions: w.revised.sort((x, y) => x.date.localeCompare(y.date)),
    }];
  });
}

let b: Bench;
let g1: Snapshot;
let g2: Snapshot;
let rec: KeptChanges;
const watched = { schemes: [] as string[], companies: [] as string[], indicators: [] as string[] };

async function pick(e: Engine) {
  const codes = await e.all<{ c: number }>('SELECT scheme_code AS c FROM mf.latest ORDER BY scheme_code LIMIT 4');
  const ids = await e.all<{ id: string }>('SELECT DISTINCT indicator_id AS id FROM indicators.macro_indicators ORDER BY id');
  const syms = await e.all<{ s: string }>('SELECT DISTINCT symbol AS s FROM flags.credit_ratings ORDER BY s LIMIT 3');
  return { codes: codes.map((r) => String(r.c)), ids: ids.map((r) => r.id), syms: syms.map((r) => r.s) };
}

beforeAll(async () => {
  b = await bench(SERVICES);
  const opts = { storage: b.host.storage, host: b.host, source: b.publisher.url, rules: NO_LIMITS, retry: { baseMs: 20 } };
  await syncRecorded(opts, b.host);
  const g1Dir = tempDir('changes-g1');
  fs.cpSync(b.storeDir, g1Dir, { recursive: true });

  // Watches: four schemes, three companies, every indicator (the next generation revises some), and
  // one scheme no store holds, imported (pending).
  const store = await openStore(b.storeDir);
  try {
    const c = await pick(store.engine);
    Object.assign(watched, { schemes: c.codes, companies: c.syms, indicators: c.ids });
    for (const code of watched.schemes) await addWatch(b.host.storage, store.engine, 'scheme', code);
    for (const s of watched.companies) await addWatch(b.host.storage, store.engine, 'company', s);
    for (const i of watched.indicators) await addWatch(b.host.storage, store.engine, 'indicator', i);
    await importWatches(b.host.storage, store.engine, JSON.stringify({ watches: [{ kind: 'scheme', id: '99999999' }] }));
  } finally {
    await store.close();
  }
  g1 = await snapshot(g1Dir, watched.companies);
  await generate(b.pubDir, SERVICES, 2);
  rec = (await syncRecorded(opts, b.host)).changes!;
  // The store synced at generation 2, read back with plain SELECTs (its files, not the recorder's SQL).
  g2 = await snapshot(b.storeDir, watched.companies);
}, 1_500_000);

afterAll(async () => {
  await b?.close();
});

describe('changes at a sync equal an independent diff of two stores', () => {
  it('records from and to: the generations before and after', async () => {
    const state = await readState(b.host.storage);
    for (const s of SERVICES) expect(rec.to.generations[s]).toBe(state.datasets[s]!.generation);
    expect(rec.from.generations.mf).toBe(1);
    expect(rec.errors).toBeUndefined();
  });

  it('schemes: new NAVs, last NAV, % change from the previous latest, revised NAVs with old and new', () => {
    const d = pointDiff(g1.nav, g2.nav, watched.schemes);
    expect(rec.totals.new_navs).toBe(d.added);
    const expected = schemeChanges(g1, g2);
    expect(expected.length).toBeGreaterThan(0);
    expect(rec.watched.schemes).toEqual(expected);
  });

  it('companies: per table the rows present after that were not before, and the score before and after', () => {
    const total: Record<string, number> = {};
    const per = new Map<string, Record<string, number>>();
    for (const t of TABLE_NAMES) {
      total[t] = 0;
      for (const [k, n] of g2.flags[t]) {
        const extra = n - (g1.flags[t].get(k) ?? 0);
        if (extra <= 0) continue;
        total[t] += extra;
        const sym = (JSON.parse(k) as { symbol: string }).symbol;
        if (!watched.companies.includes(sym)) continue;
        per.set(sym, { ...per.get(sym), [t]: (per.get(sym)?.[t] ?? 0) + extra });
      }
    }
    expect(rec.totals.new_flag_rows).toEqual(total);
    expect(Object.values(total).some((n) => n > 0)).toBe(true);
    const expected = watched.companies
      .map((symbol) => ({ symbol, new_rows: per.get(symbol) ?? {}, score_before: g1.scores.get(symbol)!, score_after: g2.scores.get(symbol)! }))
      .filter((c) => Object.keys(c.new_rows).length > 0 || c.score_before !== c.score_after);
    expect(rec.watched.companies).toEqual(expected);
  });

  it('indicators: new and revised points with old and new values; replaced values kept in the revisions table', async () => {
    const d = pointDiff(g1.macro, g2.macro, watched.indicators);
    expect(rec.totals.new_indicator_points).toBe(d.added);
    expect(rec.totals.revised_indicator_points).toBe(d.revised);
    const expected = watched.indicators
      .map((id) => {
        const w = d.per.get(id)!;
        return { indicator_id: id, new_points: w.added.length, revised_points: w.revised.length, revisions: w.revised.sort((x, y) => x.date.localeCompare(y.date)) };
      })
      .filter((i) => i.new_points + i.revised_points > 0)
      .sort((x, y) => x.indicator_id.localeCompare(y.indicator_id));
    expect(rec.watched.indicators).toEqual(expected);
    expect(expected.some((i) => i.revised_points > 0)).toBe(true); // the tiny data revises indicators between generations
    const kept = await readRevisions(b.host.storage);
    expect(kept.length).toBe(d.revised);
    expect(kept.every((r) => r.generation === rec.to.generations.indicators && r.replaced_at === rec.to.synced_at)).toBe(true);
  });

  it('keeps each sync: the first sync, the recorded one; a sync that changed nothing records that', async () => {
    const opts = { storage: b.host.storage, host: b.host, source: b.publisher.url, rules: NO_LIMITS, retry: { baseMs: 20 } };
    const quiet = (await syncRecorded(opts, b.host)).changes!;
    expect(quiet.watched).toEqual({ schemes: [], companies: [], indicators: [] });
    expect(quiet.totals).toEqual({ new_navs: 0, new_flag_rows: {}, new_indicator_points: 0, revised_indicator_points: 0 });
    expect(quiet.from.generations).toEqual(quiet.to.generations);
    const log = await readLog(b.host.storage);
    expect(log.length).toBe(3);
    // The last sync's answer is the quiet one; since the first sync's day, the merge is the recorded one's content.
    const state = await readState(b.host.storage);
    expect((await changesSince(b.host.storage, state)).totals.new_navs).toBe(0);
    const merged: Changes = await changesSince(b.host.storage, state, rec.from.synced_at);
    expect(merged.watched).toEqual(rec.watched);
    expect(merged.to).toEqual(quiet.to);
  });

  it('the kept changes and the revisions table answer SQL in schema almanac, which the workbench lists', async () => {
    const log = await readLog(b.host.storage);
    const kept = await readRevisions(b.host.storage);
    const store = await openStore(b.storeDir);
    try {
      const e = store.engine;
      const revisions = await e.all('SELECT indicator_id, "date", old, new, replaced_at, generation FROM almanac.revisions ORDER BY indicator_id, "date"');
      const want = kept
        .map((r) => ({ indicator_id: r.indicator_id, date: r.date, old: r.old, new: r.new, replaced_at: r.replaced_at, generation: r.generation }))
        .sort((x, y) => x.indicator_id.localeCompare(y.indicator_id) || x.date.localeCompare(y.date));
      expect(want.length).toBeGreaterThan(0);
      expect(revisions).toEqual(want); // replaced_at comes back as the ISO time it was kept as
      // A user's value reaches it bound, like any query.
      const one = want[0].indicator_id;
      const [{ n }] = await e.all<{ n: number }>('SELECT count(*) AS n FROM almanac.revisions WHERE indicator_id = ?', [one]);
      expect(n).toBe(want.filter((r) => r.indicator_id === one).length);
      // One row per kept sync and watched item changed; the schemes' revised NAVs row by row.
      const items = log.flatMap((r) => [
        ...r.watched.schemes.map((x) => `scheme|${x.scheme_code}|${x.new_navs}|${x.revised_navs}|${x.last_nav}`),
        ...r.watched.companies.map((x) => `company|${x.symbol}|${Object.values(x.new_rows).reduce((a, c) => a + c, 0)}|null|null`),
        ...r.watched.indicators.map((x) => `indicator|${x.indicator_id}|${x.new_points}|${x.revised_points}|null`),
      ]);
      const rows = await e.all<Record<string, unknown>>('SELECT kind, id, new_rows, revised, last_nav FROM almanac.changes');
      expect(rows.map((r) => `${r.kind}|${r.id}|${r.new_rows}|${r.revised}|${r.last_nav}`).sort()).toEqual(items.sort());
      const navRevisions = log.flatMap((r) => r.watched.schemes.flatMap((x) => x.revisions.map((v) => ({ scheme_code: x.scheme_code, ...v }))));
      expect(await e.all('SELECT scheme_code, "date", old, new FROM almanac.nav_revisions ORDER BY scheme_code, "date"')).toEqual(
        navRevisions.sort((x, y) => x.scheme_code - y.scheme_code || x.date.localeCompare(y.date)),
      );
      const listed = (await loadSchema(e)) as Record<string, Record<string, string[]>>;
      expect(Object.keys(listed.almanac ?? {}).sort()).toEqual(['changes', 'nav_revisions', 'revisions']);
    } finally {
      await store.close();
    }
  }, 180_000);

  it('a cancelled sync records nothing, though it switched a dataset before it stopped; nor does a failed one', async () => {
    const bytes = (name: string) => fs.readFileSync(path.join(b.storeDir, name), 'utf8');
    const kept = [bytes(CHANGES_FILE), bytes(REVISIONS_FILE)];
    const before = await readState(b.host.storage);
    await generate(b.pubDir, SERVICES, 3);
    const ac = new AbortController();
    const switched: string[] = [];
    const cancelled = syncRecorded(
      {
        storage: b.host.storage, host: b.host, source: b.publisher.url, rules: NO_LIMITS, retry: { baseMs: 20 }, signal: ac.signal,
        // The user cancels as the first dataset switches: its comparison runs, the next step stops.
        onSwitch: async (service) => {
          switched.push(service);
          ac.abort();
        },
      },
      b.host,
    );
    await expect(cancelled).rejects.toBeInstanceOf(Cancelled);
    expect(switched).toEqual([SERVICES[0]]);
    expect((await readState(b.host.storage)).datasets[SERVICES[0]]!.generation).toBe(before.datasets[SERVICES[0]]!.generation + 1);
    expect([bytes(CHANGES_FILE), bytes(REVISIONS_FILE)]).toEqual(kept);

    // Every manifest missing (a wrong source): the sync returns its errors, nothing switched, nothing kept.
    const failed = await syncRecorded({ storage: b.host.storage, host: b.host, source: `${b.publisher.url}/nowhere`, rules: NO_LIMITS, retry: { baseMs: 20 } }, b.host);
    expect(failed.summary.errors.length).toBe(SERVICES.length);
    expect(failed.changes).toBeNull();
    expect([bytes(CHANGES_FILE), bytes(REVISIONS_FILE)]).toEqual(kept);
  }, 300_000);

  it('a day appended to the MF history: its changes, taken from the refresh\'s own keys, equal the diff of the stores', async () => {
    const opts = { storage: b.host.storage, host: b.host, source: b.publisher.url, rules: NO_LIMITS, retry: { baseMs: 20 } };
    // The store on the publish before the day (the cancelled sync left it part way), then the day.
    expect((await syncRecorded(opts, b.host)).summary.errors).toEqual([]);
    await generate(b.pubDir, ['mf'], { publishes: [{}, {}, { step: 'day' }] });
    const before = await snapshot(b.storeDir, []);
    const { summary, changes } = await syncRecorded({ ...opts, only: ['mf'] }, b.host);
    const after = await snapshot(b.storeDir, []);
    // The refresh appended the day from the snapshot: the comparison read neither generation's history whole.
    expect(summary.history?.mf).toMatchObject({ refresh: 'append', revised: [] });
    expect(summary.history!.mf!.appended!.length).toBeGreaterThan(0);
    expect(changes!.errors).toBeUndefined();
    expect(changes!.totals.new_navs).toBe(pointDiff(before.nav, after.nav, []).added);
    const expected = schemeChanges(before, after);
    expect(expected.length).toBeGreaterThan(0);
    expect(changes!.watched.schemes).toEqual(expected);
  }, 900_000);

  it('watches: the imported unknown scheme stays pending and says so; the others are active', async () => {
    const store = await openStore(b.storeDir);
    try {
      const list = await settleWatches(b.host.storage, store.engine);
      const pending = list.filter((w) => w.status === 'pending');
      expect(pending.map((w) => w.id)).toEqual(['99999999']);
      expect(pending[0].note).toMatch(/pending/);
      expect(list.length).toBe(watched.schemes.length + watched.companies.length + watched.indicators.length + 1);
    } finally {
      await store.close();
    }
    expect((await readWatches(b.host.storage)).watches.length).toBe(list0());
  });
});

const list0 = () => watched.schemes.length + watched.companies.length + watched.indicators.length + 1;
