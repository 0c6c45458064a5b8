// Helpers for the resume/replay tests: a private build of the CLI, a sample project whose script
// has reads, an edit, a side-effect command (appends a line to side.txt), a false "done", a new
// test file and a real "done", plus small log utilities.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { readLog } from '../../../src/harness/events/reader';
import type { Reply } from '../../../src/harness/protocol/content';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import { say, use } from '../../../src/harness/model/scripted';
import { git, tempDir, tempRepo } from '../../unit/loop/kit';

const ROOT = join(__dirname, '..', '..', '..');
export const SIDE_COMMAND = 'echo ran >> side.txt';

let built: string | null = null;

/** The CLI bundled once per test process into a temp dir (independent of dist/). */
export async function buildCli(): Promise<string> {
  if (built) return built;
  const out = tempDir('kite-cli-');
  await esbuild.build({ entryPoints: { cli: join(ROOT, 'src/harness/cli.ts') }, bundle: true, platform: 'node', format: 'cjs', target: 'node20', outdir: out, logLevel: 'error' });
  built = join(out, 'cli.js');
  return built;
}

let builtDriver: string | null = null;

/** test/helpers/attendedDriver.ts bundled for plain node. */
export async function buildAttendedDriver(): Promise<string> {
  if (builtDriver) return builtDriver;
  const out = tempDir('kite-driver-');
  await esbuild.build({ entryPoints: { driver: join(__dirname, '..', '..', 'helpers', 'attendedDriver.ts') }, bundle: true, platform: 'node', format: 'cjs', target: 'node20', outdir: out, logLevel: 'error' });
  builtDriver = join(out, 'driver.js');
  return builtDriver;
}

export interface Exit {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `node <script> args` and resolves when it exits (event-driven, no polling). */
export function nodeAsync(script: string, cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Exit> {
  const clean = { ...process.env };
  delete clean.KITE_TEST_CRASH_AFTER_SEQ;
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd, env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status, signal) => resolvePromise({ status, signal, stdout, stderr }));
  });
}

/** Runs f over items with at most n at a time; collects every failure instead of stopping early. */
export async function pool<T>(items: readonly T[], n: number, f: (item: T) => Promise<void>): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++];
      try {
        await f(item);
      } catch (e) {
        failures.push(e instanceof Error ? e.message : String(e));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return failures;
}

export function kite(cli: string, cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  const clean = { ...process.env };
  delete clean.KITE_TEST_CRASH_AFTER_SEQ;
  return spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8', env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

function demoReplies(): Reply[] {
  const raw = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/scripts/demo.json'), 'utf8')) as Reply[] | { replies: Reply[] };
  return Array.isArray(raw) ? raw : raw.replies;
}

export interface Project {
  repo: string;
  script: string; // absolute path of the scripted model's replies
  head: string;
}

/**
 * The sample ledger project. Unattended runs may write and may run SIDE_COMMAND (allow-listed);
 * with `askCommands`, writes are allowed by a rule and the command needs approval (attended);
 * with `askAll`, the default policy: every write and the command need approval (attended).
 */
export function makeProject(opts: { askCommands?: boolean; askAll?: boolean } = {}): Project {
  const repo = tempRepo();
  const policy = opts.askAll ? {} : opts.askCommands ? { rules: [{ id: 'allow:writes-in-test', decision: 'allow', tool: ['write_file', 'edit_file'] }] } : { allow: ['echo ran >> side\\.txt'] };
  writeFileSync(join(repo, '.kite', 'config.json'), JSON.stringify({ checks: [], command_timeout: 30, budget: { turns: 20 }, policy }, null, 2));
  git(repo, 'commit', '-qam', 'config for the test');
  const d = demoReplies();
  const script: Reply[] = [use('read_file', 'c1', { path: 'src/ledger.js' }), d[1], use('run', 'c3', { command: SIDE_COMMAND }), say('Done.'), d[3], say('Fees now round half-up.\nQUEUE: Reject negative fee rates')];
  const path = join(repo, '..', 'script.json');
  writeFileSync(path, JSON.stringify(script, null, 1));
  return { repo, script: path, head: git(repo, 'rev-parse', 'HEAD') };
}

export function onlyLog(repo: string): string {
  const dir = join(repo, '.kite', 'runs');
  const logs = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  assert.equal(logs.length, 1, `expected one log, found ${logs.join(', ')}`);
  return join(dir, logs[0]);
}

export async function eventsOf(log: string): Promise<KiteEvent[]> {
  const r = await readLog(log);
  assert.deepEqual(r.problems, [], `log problems: ${JSON.stringify(r.problems)}`);
  return r.events;
}

export function sideLines(repo: string): number {
  try {
    return readFileSync(join(repo, 'side.txt'), 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}

export function gatesOf(events: readonly KiteEvent[]): boolean[] {
  return events.flatMap((e) => (e.kind === 'gate' ? [e.passed] : []));
}
