// Shared helpers for the harness-core tests: temp git repos, an in-memory event sink, a scripted
// gate, a host with canned answers, and loop dependencies built like a real run.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { withDefaults, type KiteConfigFile } from '../../../src/harness/config/config';
import type { EventSink } from '../../../src/harness/events/sink';
import type { GateCheckOptions, GateLike, GateVerdict } from '../../../src/harness/gate/gate';
import type { ApprovalAnswer, ApprovalRequest, Host } from '../../../src/harness/host';
import { LoggedGate } from '../../../src/harness/events/loggedGate';
import { assembleLoop } from '../../../src/harness/loop/assemble';
import { sessionStartOf } from '../../../src/harness/loop/sessionStart';
import type { LoopDeps } from '../../../src/harness/loop/session';
import type { Model } from '../../../src/harness/model/model';
import { LOG_VERSION, type EventBody, type EventKind, type KiteEvent, type Mode } from '../../../src/harness/protocol/events';
import type { Feature } from '../../../src/harness/progress/progressFile';
import { initialRunState } from '../../../src/harness/protocol/reducer';

export const SAMPLE = join(__dirname, '..', '..', 'fixtures', 'sample');
export const DEMO_SCRIPT = join(__dirname, '..', '..', 'fixtures', 'scripts', 'demo.json');

const created: string[] = [];
// Temp folders (and worktrees made next to repos inside them) go when the test process ends.
process.once('exit', () => {
  for (const d of created) rmSync(d, { recursive: true, force: true });
});

export function tempDir(prefix = 'kite-unit-'): string {
  const d = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  created.push(d);
  return d;
}

export function git(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** A git repo with the given files (or a copy of the sample project), one initial commit. */
export function tempRepo(files?: Record<string, string>): string {
  const root = join(tempDir(), 'repo');
  mkdirSync(root);
  if (files) {
    for (const [p, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, p)), { recursive: true });
      writeFileSync(join(root, p), text);
    }
  } else {
    cpSync(SAMPLE, root, { recursive: true });
  }
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.name', 'Kite Test');
  git(root, 'config', 'user.email', 'test@kite.invalid');
  git(root, 'config', 'commit.gpgsign', 'false');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'initial');
  return root;
}

export class MemorySink implements EventSink {
  readonly events: KiteEvent[] = [];
  append(body: EventBody): KiteEvent {
    const e = { v: LOG_VERSION, seq: this.events.length, run: 'test', t: 0, ...body } as KiteEvent;
    this.events.push(e);
    return e;
  }
  kinds(): EventKind[] {
    return this.events.map((e) => e.kind);
  }
  of<K extends EventKind>(kind: K): Extract<KiteEvent, { kind: K }>[] {
    return this.events.filter((e): e is Extract<KiteEvent, { kind: K }> => e.kind === kind);
  }
}

/** A gate that answers from a list (the last answer repeats). */
export class ScriptedGate implements GateLike {
  readonly calls: GateCheckOptions[] = [];
  constructor(private readonly verdicts: boolean[]) {}
  check(opts: GateCheckOptions): Promise<GateVerdict> {
    this.calls.push(opts);
    const passed = this.verdicts[Math.min(this.calls.length - 1, this.verdicts.length - 1)];
    const checks = [{ command: 'npm test', source: 'check' as const, exit_code: passed ? 0 : 1, ms: 1, timed_out: false, output_tail: passed ? 'ok' : 'not ok 1 - fees' }];
    return Promise.resolve({ passed, feedback: passed ? '' : `FAILED: \`npm test\` exited with code 1 (attempt ${opts.attempt})`, checks });
  }
}

/** A host that answers approvals from a list and records the requests. */
export class CannedHost implements Host {
  readonly requests: ApprovalRequest[] = [];
  constructor(private readonly answers: ApprovalAnswer[] = []) {}
  approve(req: ApprovalRequest): Promise<ApprovalAnswer> {
    this.requests.push(req);
    const a = this.answers.shift();
    return a ? Promise.resolve(a) : Promise.reject(new Error('no canned answer left'));
  }
}

export const FEATURE: Feature = { id: 'F1', title: 'Fees round half-up', status: 'in_progress', verify: 'node --test test/fees.test.js', notes: '' };

export interface DepsOptions {
  root: string;
  model: Model;
  mode?: Mode;
  config?: KiteConfigFile;
  host?: Host;
  gate?: GateLike;
  sink?: MemorySink;
  feature?: Feature;
  now?: () => number;
}

/** Loop dependencies around a fresh run state that has folded its session_start (as runFeature's). */
export function makeDeps(o: DepsOptions): { deps: LoopDeps; sink: MemorySink } {
  const sink = o.sink ?? new MemorySink();
  const config = withDefaults(o.config ?? { checks: ['npm test'] });
  const feature = o.feature ?? FEATURE;
  const mode = o.mode ?? 'unattended';
  const limits = { turns: config.budget.turns, tokens: config.budget.tokens, usd: config.budget.usd, wall_s: config.budget.wall_s };
  const deps = assembleLoop({ root: o.root, config, feature, mode, limits, model: o.model, state: initialRunState(), log: sink, host: o.host ?? new CannedHost(), now: o.now ?? (() => performance.now()) });
  // The gate's verdict moves the run on through its `gate` event, as in a real run.
  if (o.gate) deps.gate = new LoggedGate(o.gate, deps.log);
  deps.log.append(sessionStartOf({ config, feature, mode, limits, model: o.model.id, root: o.root, gitHead: null, branch: null, replayOf: null, startedAt: new Date(0), progressAtStart: null, deps }));
  return { deps, sink };
}

/** The briefing, written through the loop's sink (so the run state folds it). */
export function brief(deps: LoopDeps, text = 'Briefing: fix F1'): void {
  deps.log.append({ kind: 'user', reason: 'briefing', text });
}
