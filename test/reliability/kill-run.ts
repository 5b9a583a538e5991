/**
 * The kill campaigns' runs (kill.test.ts: the ingest paths; kill-mf.test.ts: the MF history's refresh):
 * a sync in a child process (kill-child.ts) SIGKILLed at a point, and the next sync in another.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Service } from '../../src/core/sync/datasets.js';
import type { SyncStep } from '../../src/core/sync/hooks.js';
import { expect } from 'vitest';
import type { checksums } from './store-check.js';

const CHILD = path.resolve('test/reliability/kill-child.ts');
type Sums = Awaited<ReturnType<typeof checksums>>;

export interface Point {
  label: string;
  step?: SyncStep;
  nth?: number;
  /** 'largest': the biggest file of the plan (several body chunks). */
  file?: 'largest';
  /** Killed by the parent as soon as a store file matching this appears. */
  watch?: RegExp;
  /** Only on paths that unpack an archive. */
  unpacks?: boolean;
}

export type Outcome = 'killed' | 'not reached';

/** `kill-child.ts ARGS` in its own process: the process, and its exit with everything it printed. */
export function child(args: string[]): { proc: ReturnType<typeof spawn>; done: Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }> } {
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (c) => (out += c));
  proc.stderr!.on('data', (c) => (err += c));
  return { proc, done: new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal, out, err }))) };
}

/**
 * Runs the child sync; SIGKILLs it at a hook (it kills itself) or as soon as the store directory
 * reports a file matching `watch` (an inotify event, not a polling timer).
 */
export async function killRun(store: string, source: string, p: Point, largest: string, service: Service): Promise<Outcome> {
  const c = child(['kill', store, source, service, p.step ?? 'none', String(p.nth ?? 0), ...(p.file ? [largest] : [])]);
  const watcher = p.watch
    ? fs.watch(store, (_event, name) => {
        if (name && p.watch!.test(name)) c.proc.kill('SIGKILL');
      })
    : undefined;
  const r = await c.done;
  watcher?.close();
  if (r.signal === 'SIGKILL') return 'killed';
  if (r.code === 0) return 'not reached';
  throw new Error(`child sync exited ${r.code}: ${r.err}`);
}

export type Resync = { mid: Sums; errors: string[]; after: Sums; leftovers: string[] };

export async function resync(store: string, source: string, service: Service): Promise<Resync> {
  const r = await child(['resync', store, source, service]).done;
  if (r.code !== 0) throw new Error(`resync exited ${r.code}: ${r.err}`);
  return JSON.parse(r.out) as Resync;
}

/**
 * What every kill run checks, given the template's answers before and a clean sync's after: the store
 * answers exactly one of them (the old one unless the kill came at or after the switch), and the next
 * sync finished without errors, answers the new generation and left nothing behind.
 */
export function expectRecovered(r: Resync, t: { before: Sums; after: Sums }, outcome: Outcome, point: Point): void {
  expect(r.mid).toEqual(r.mid.generation === t.before.generation ? t.before : t.after);
  if (outcome === 'killed' && point.step && !['switch:after', 'cleanup'].includes(point.step)) expect(r.mid.generation).toBe(t.before.generation);
  expect(r.errors).toEqual([]);
  expect(r.after).toEqual(t.after);
  expect(r.leftovers).toEqual([]);
}
