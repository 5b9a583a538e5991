/**
 * The kill campaigns' runs (kill.test.ts: the ingest paths; kill-mf.test.ts: the MF history's refresh):
 * a sync in a child process (kill-child.ts) SIGKILLed at a point, and the next sync in another.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'vite';
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

let bundled: Promise<string> | null = null;

/**
 * kill-child.ts and the sources it imports as one plain ES module, built once per test process: a
 * campaign starts about a hundred children, and each one started under tsx's loader paid ~1.5 s of
 * CPU more to resolve and load the same TypeScript (docs/testing.md, "Time"). Packages stay imports,
 * resolved from the repository as before; the build is the same code, not a stand-in.
 */
function childModule(): Promise<string> {
  bundled ??= (async () => {
    fs.mkdirSync(path.resolve('test-results'), { recursive: true });
    const outDir = fs.mkdtempSync(path.resolve('test-results/kill-child-'));
    process.once('exit', () => fs.rmSync(outDir, { recursive: true, force: true }));
    await build({ configFile: false, publicDir: false, logLevel: 'warn', build: { ssr: CHILD, outDir, minify: false, target: 'node20' } });
    return path.join(outDir, 'kill-child.js');
  })();
  return bundled;
}

/** `kill-child.ts ARGS` in its own process: a way to SIGKILL it, and its exit with everything it printed. */
export function child(args: string[]): { kill(): void; done: Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }> } {
  let proc: ChildProcess | undefined;
  const done = childModule().then(
    (module) =>
      new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>((resolve) => {
        proc = spawn(process.execPath, [module, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        proc.stdout!.on('data', (c) => (out += c));
        proc.stderr!.on('data', (c) => (err += c));
        proc.on('exit', (code, signal) => resolve({ code, signal, out, err }));
      }),
  );
  return { kill: () => proc?.kill('SIGKILL'), done };
}

/**
 * Runs the child sync; SIGKILLs it at a hook (it kills itself) or as soon as the store directory
 * reports a file matching `watch` (an inotify event, not a polling timer).
 */
export async function killRun(store: string, source: string, p: Point, largest: string, service: Service): Promise<Outcome> {
  const c = child(['kill', store, source, service, p.step ?? 'none', String(p.nth ?? 0), ...(p.file ? [largest] : [])]);
  const watcher = p.watch
    ? fs.watch(store, (_event, name) => {
        if (name && p.watch!.test(name)) c.kill();
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
