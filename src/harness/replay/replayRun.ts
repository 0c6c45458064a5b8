// Replay: the model's replies and the person's approval answers come from a recorded log; tools,
// policy and gate run live against the work tree (the user's checkout, or a scratch worktree at
// the recorded starting commit with `worktree`). The replay writes its own `…-replay.jsonl`,
// never the progress file, never a commit; each live tool result and gate verdict is compared
// with the recording (DivergenceWatcher) and the first difference stops it (or not).
import { copyFileSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { readLog } from '../events/reader';
import type { ApprovalAnswer, Host } from '../host';
import { ReplayModel } from '../model/replay';
import { runGit } from '../progress/runGit';
import { runFeature, type RunSummary } from '../run';
import type { ProcessRunner } from '../sandbox/types';
import type { Toolbox } from '../tools/types';
import { answerOf, RecordedAnswerHost } from '../loop/recorded';
import { DivergenceWatcher, type DivergenceInfo } from './divergence';
import { RecordedSteer } from '../loop/steer';

export type { DivergenceInfo };

export interface ReplayOptions {
  log: string;
  root: string;
  worktree?: boolean;
  onDivergence: 'stop' | 'continue';
  signal?: AbortSignal;
  runner?: ProcessRunner;
  toolbox?: Toolbox;
  env?: NodeJS.ProcessEnv;
  /** Start the approved MCP servers and call them for each recorded MCP call, comparing their answers. */
  liveMcp?: boolean;
}

export type ReplaySummary = RunSummary & { divergence: DivergenceInfo | null; divergences: number; recordedOutcome: string | null };

export type ReplayErrorCode = 'not_started' | 'no_start_commit' | 'worktree_failed';

export class ReplayError extends Error {
  constructor(
    readonly code: ReplayErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ReplayError';
  }
}

/** Approvals nobody recorded an answer for are refused: a replay asks no one. */
const noAnswerHost: Host = {
  approve: (): Promise<ApprovalAnswer> => Promise.resolve({ decision: 'deny', reason: 'the recording has no answer for this call (replay)' }),
};

/** Through Kite's own git (no hooks, no secrets): `worktree add` would run a planted post-checkout hook. */
function git(cwd: string, args: string[]): string {
  return runGit(cwd, args).trim();
}

export async function replayRun(opts: ReplayOptions, host: Host): Promise<ReplaySummary> {
  const log = resolve(opts.log);
  const { events } = await readLog(log);
  const start = events.find((e) => e.kind === 'session_start');
  if (!start || start.kind !== 'session_start') throw new ReplayError('not_started', `${log} has no session_start event: nothing to replay`);
  const end = [...events].reverse().find((e) => e.kind === 'session_end');

  let root = resolve(opts.root);
  let scratch: string | null = null;
  if (opts.worktree) {
    if (!start.git_head) throw new ReplayError('no_start_commit', `${log} does not record a starting commit, so --worktree cannot check it out`);
    const top = git(root, ['rev-parse', '--show-toplevel']);
    scratch = join(realpathSync(mkdtempSync(join(tmpdir(), 'kite-replay-'))), basename(top));
    try {
      git(root, ['worktree', 'add', '-q', '--detach', scratch, start.git_head]);
    } catch (e) {
      throw new ReplayError('worktree_failed', `git worktree add at ${start.git_head.slice(0, 7)} failed: ${(e as { stderr?: string }).stderr?.trim() || (e as Error).message}`);
    }
    root = join(scratch, relative(top, root));
  }

  const answers = new RecordedAnswerHost({ ...noAnswerHost, onEvent: host.onEvent ? (e) => host.onEvent?.(e) : undefined });
  for (const e of events) if (e.kind === 'approval') answers.record(e.id, answerOf(e));
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort();
  opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const watcher = new DivergenceWatcher(events, () => {
    if (opts.onDivergence === 'stop') controller.abort();
  }, opts.liveMcp === true);
  try {
    const s = await runFeature(
      {
        root,
        featureId: start.feature,
        mode: start.mode,
        model: '',
        limits: start.limits,
        allowDirty: true,
        signal: controller.signal,
        modelOverride: ReplayModel.fromEvents(events, log),
        steer: new RecordedSteer(events), // the person's messages, at the points they were delivered
        replayOf: log,
        replayEvents: events,
        liveMcp: opts.liveMcp === true,
        mcpTrustRoot: resolve(opts.root), // a scratch worktree's servers count as approved only as the person approved them in their checkout
        watch: (e, sink) => watcher.observe(e, sink),
        runner: opts.runner,
        toolbox: opts.toolbox,
        env: opts.env,
      },
      answers,
    );
    let logPath = s.logPath;
    if (scratch) {
      // Keep the replay's log next to the recording; the scratch worktree goes away.
      logPath = join(dirname(log), basename(s.logPath));
      copyFileSync(s.logPath, logPath);
    }
    return { ...s, logPath, divergence: watcher.first, divergences: watcher.count, recordedOutcome: end?.kind === 'session_end' ? end.status : null };
  } finally {
    opts.signal?.removeEventListener('abort', onOuterAbort);
    if (scratch) {
      try {
        git(resolve(opts.root), ['worktree', 'remove', '--force', scratch]);
      } catch {
        // a leftover scratch worktree in the temp folder is harmless; `git worktree prune` clears it
      }
    }
  }
}
