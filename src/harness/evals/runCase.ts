// One case, one model: a scratch workspace, one real `kite run` in it (runFeature: the same
// policy, sandbox, budgets and gate; unattended, since nobody answers in an eval), its log kept in
// the eval's log folder, its expectations checked, the scratch removed.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { loadConfig } from '../config/config';
import { diagnose, type Diagnosis } from '../events/diagnose';
import { checkContracts } from '../policy/contracts';
import { readLog } from '../events/reader';
import { createModel } from '../model/index';
import { runGit } from '../progress/runGit';
import type { KiteEvent } from '../protocol/events';
import { RunError, runFeature, type RunOptions } from '../run';
import { UnattendedHost } from '../cli/unattendedHost';
import type { EvalCase } from './evalCase';
import { unmetExpectations } from './expectations';
import { makeScratch } from './scratch';
import { judgeAgreement, type JudgeAgreement } from './judgeAgreement';

export type CaseStatus = 'pass' | 'fail' | 'error';

export interface CaseResult {
  case: string;
  model: string; // the spec the case ran with
  status: CaseStatus; // error: the case could not be run (setup, model spec)
  outcome: string;
  turns: number;
  tokens: number;
  cost_usd: number;
  ms: number;
  unmet: string[];
  notes: string; // why it went the way it did, in one line
  log: string | null;
  error: string | null;
  /** Each judge's agreement with the case's labelled examples (judge_examples). */
  judges?: JudgeAgreement[];
}

export interface RunCaseOptions {
  model: string | null; // a --model spec, or null for the case's own
  logDir: string; // where the case's log is kept
  logName: string; // file name without .jsonl
  cwd: string; // relative --model script paths fall back to here
  signal?: AbortSignal;
  /** Test seams passed to runFeature (runner, env, clock). */
  extra?: Partial<RunOptions>;
}

/** A relative script path is the case's own file when the case folder has it, else relative to the shell. */
export function caseModelSpec(c: EvalCase, cliSpec: string | null, cwd: string): { spec: string; cwd: string } {
  const spec = cliSpec ?? c.spec.model;
  if (!spec) return { spec: '', cwd: c.dir };
  if (cliSpec === null) return { spec, cwd: c.dir };
  const m = /^script:(.+)$/.exec(spec);
  if (m && !isAbsolute(m[1]) && existsSync(resolve(c.dir, m[1]))) return { spec, cwd: c.dir };
  return { spec, cwd };
}

export async function runCase(c: EvalCase, o: RunCaseOptions): Promise<CaseResult> {
  const t0 = Date.now();
  const { spec, cwd } = caseModelSpec(c, o.model, o.cwd);
  const base = { case: c.name, model: spec || '(config)', turns: 0, tokens: 0, cost_usd: 0, unmet: [], log: null };
  let scratch;
  let judges: { judges?: JudgeAgreement[] } = {};
  try {
    const agreement = await judgeAgreement(c, o.signal);
    if (agreement.length) judges = { judges: agreement };
  } catch (e) {
    return { ...base, status: 'error', outcome: 'not run', ms: Date.now() - t0, notes: `the judge examples could not be judged: ${(e as Error).message}`, error: (e as Error).message };
  }
  try {
    scratch = makeScratch(c);
  } catch (e) {
    return { ...base, status: 'error', outcome: 'not run', ms: Date.now() - t0, notes: (e as Error).message, error: (e as Error).message };
  }
  try {
    const limits = c.spec.limits;
    const summary = await runFeature(
      {
        root: scratch.root,
        featureId: c.spec.feature.id,
        mode: 'unattended',
        model: '',
        // An empty spec: the start's config model, as `kite run` would pick it.
        modelOverride: spec ? createModel(spec, { cwd }) : undefined,
        limits: { turns: limits?.turns, tokens: limits?.tokens, usd: limits?.usd, wall_s: limits?.wall_s },
        signal: o.signal,
        ...o.extra,
      },
      new UnattendedHost(),
    );
    const { events } = await readLog(summary.logPath);
    mkdirSync(o.logDir, { recursive: true });
    const log = join(o.logDir, `${o.logName}.jsonl`);
    copyFileSync(summary.logPath, log);
    const diagnosis = diagnose(events);
    const unmet = unmetExpectations(c.spec.expect, {
      events,
      outcome: summary.outcome,
      turns: summary.turns,
      tokens: summary.tokens,
      cost_usd: summary.cost_usd,
      changed: changedPaths(scratch.root, scratch.startCommit),
      root: scratch.root,
      diagnosis,
      contracts: checkContracts([...loadConfig(scratch.root).contracts, ...(c.spec.feature.contracts ?? [])], events),
    });
    return {
      ...base,
      status: unmet.length ? 'fail' : 'pass',
      outcome: summary.outcome,
      turns: summary.turns,
      tokens: summary.tokens,
      cost_usd: summary.cost_usd,
      ms: Date.now() - t0,
      unmet,
      notes: notesOf(diagnosis, events, summary.error ?? null),
      log,
      error: null,
      ...judges,
    };
  } catch (e) {
    // The scratch is gone once the case ends, so `kite trust <scratch>` would help nobody.
    const untrusted = e instanceof RunError && e.code === 'untrusted_hooks';
    const msg = untrusted ? "the case's starting state has hooks in .kite/config.json, and kite eval does not approve hooks for a scratch workspace; the case did not run" : ((e as Error).message ?? String(e));
    return { ...base, status: 'error', outcome: 'not run', ms: Date.now() - t0, notes: msg, error: msg };
  } finally {
    scratch.remove();
  }
}

/** Paths that differ from the starting commit at the end: committed by the run, modified, or new. */
function changedPaths(root: string, start: string): Set<string> {
  const diff = runGit(root, ['diff', '--no-ext-diff', '--no-renames', '--name-only', '-z', start]);
  const untracked = runGit(root, ['ls-files', '--others', '--exclude-standard', '-z']);
  return new Set([...diff.split('\0'), ...untracked.split('\0')].filter(Boolean));
}

/** The notes column: the diagnosis' most telling finding (its cause when it names one). */
export function notesOf(d: Diagnosis, events: readonly KiteEvent[], error: string | null): string {
  if (error) return error;
  const order = { error: 0, warning: 1, info: 2 } as const;
  const top = [...d.findings].sort((a, b) => order[a.severity] - order[b.severity])[0];
  if (top) return top.cause ?? top.message;
  const end = [...events].reverse().find((e) => e.kind === 'session_end');
  return end?.kind === 'session_end' && end.status !== 'done' ? end.summary.split('\n')[0] : '';
}
