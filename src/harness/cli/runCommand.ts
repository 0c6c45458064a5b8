// `kite run [DIR] …` — work on the current feature (or --feature ID, or --all of them), print the
// timeline and a summary line. Exit 0 only when the run ends done.
import { basename, join, resolve } from 'node:path';
import { LogReadError, readLog } from '../events/reader';
import { formatSummary, formatTimeline, TimelineFormatter } from '../events/timeline';
import { showControlChars } from '../protocol/controlChars';
import type { Host } from '../host';
import type { KiteEvent, Limits, Mode } from '../protocol/events';
import { ProgressError, PROGRESS_FILE } from '../progress/progressFile';
import { runFeature, type RunOptions, type RunSummary } from '../run';
import { killAllCommandGroups } from '../sandbox/runner';
import { formatFlags, parseArgs, UsageError, type FlagSpec } from './args';
import { stdio, type Out } from './output';
import { reportFailure } from './reportFailure';
import { nextStep } from './nextStep';
import { pendingCalls, pendingCallsText } from './pendingCalls';
import { starterProblem } from './initCommand';
import { replayMain } from './replayCommand';
import { TtyHost } from './ttyHost';
import { UnattendedHost } from './unattendedHost';

export const RUN_FLAGS: FlagSpec[] = [
  { name: 'feature', type: 'string', value: 'ID', help: 'work on this feature (default: the first in_progress, else the first todo)' },
  { name: 'unattended', type: 'bool', help: 'nobody approves: writes in the workspace allowed, only checks/verify/allow-listed commands run' },
  { name: 'model', type: 'string', value: 'SPEC', help: 'anthropic:<id>, openai:<id>, ollama:|lmstudio:|vllm:|llamacpp:<model> or script:<file.json> (default: config "model", else the default Claude model)' },
  { name: 'max-turns', type: 'int', value: 'N', help: 'stop after N model turns' },
  { name: 'max-tokens', type: 'int', value: 'N', help: 'stop after N tokens (input + output + cache reads/writes)' },
  { name: 'max-usd', type: 'number', value: 'X', help: 'stop after X dollars' },
  { name: 'max-observation-tokens', type: 'int', value: 'N', help: 'stop before tool results would put more than N tokens into the conversation' },
  { name: 'allow-dirty', type: 'bool', help: 'start even if the work tree has uncommitted changes (kept out of the commit unless the run changes them too)' },
  { name: 'worktree', type: 'bool', help: 'work in a new git worktree on branch kite/<feature id>' },
  { name: 'all', type: 'bool', help: 'keep going feature by feature until none is left or one does not end done' },
];

/** Signals that cancel a run cleanly (Windows only knows SIGINT; the others are harmless there). */
const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export const RUN_USAGE = [
  'usage: kite run [DIR] [options]',
  '       kite run --replay LOG [DIR] [--worktree] [--live-mcp] [--on-divergence stop|continue]   (see kite run --replay LOG --help)',
  '',
  'Runs the agent on one feature of the project in DIR (default: the current folder): the feature',
  'from kite-progress.json, the checks from .kite/config.json (`kite init` writes both). On a terminal',
  'you approve writes and commands as they come; otherwise the run is unattended. The work is',
  'committed as "<id>: <title>" only when the gate passes.',
  '',
  formatFlags(RUN_FLAGS),
  '',
  'Examples:',
  '  kite run                                  the next feature, asking before writes and commands',
  '  kite run --unattended --all --max-usd 2   every todo feature, no questions, on a budget',
  '  kite run --model script:replies.json      a scripted model (tests, demos; no API key needed)',
  '  kite run --model ollama:qwen2.5-coder      a local model through Ollama (no API key)',
  '',
  'Exit status: 0 the feature is done (committed), 1 it is not (the last timeline row says why),',
  '2 the command or the project setup is wrong (nothing was started).',
  'Environment: ANTHROPIC_API_KEY (required for Claude models), ANTHROPIC_BASE_URL, OPENAI_API_KEY',
  '(required for openai: models), OPENAI_BASE_URL, NO_COLOR, KITE_DEBUG=1 (stack traces for internal errors).',
].join('\n');

/** How a usage error ends: one line naming the problem, one pointing at the help. */
export const RUN_HELP_HINT = 'Run `kite run --help` for the options.';

export interface RunCommandDeps {
  out?: Out;
  isTty?: boolean;
  /** Print timeline rows as they happen (default: yes; false prints the timeline at the end). */
  live?: boolean;
  host?: Host;
  /** Test seam: runFeature options merged in (runner, clock, …). */
  extra?: Partial<RunOptions>;
}

/**
 * The run's events for the timeline printed at the end, through the one reader: a line that does not
 * parse is named on stderr (file and line) and skipped, never dropped silently. A log that cannot be
 * read at all costs the timeline, not the summary line and the exit status.
 */
export async function readEvents(path: string, out: Out): Promise<KiteEvent[]> {
  try {
    const r = await readLog(path);
    for (const p of r.problems) out.err(`kite: warning: ${path}: ${p.message}`);
    return r.events;
  } catch (e) {
    if (!(e instanceof LogReadError)) throw e;
    out.err(`kite: warning: no timeline: ${e.message}`);
    return [];
  }
}

export async function runMain(argv: string[], deps: RunCommandDeps = {}): Promise<number> {
  const out = deps.out ?? stdio;
  if (argv.some((a) => a === '--replay' || a.startsWith('--replay='))) return replayMain(argv, out); // cli/replayCommand.ts
  let host: Host;
  try {
    const args = parseArgs(argv, RUN_FLAGS, 1);
    if (args.help) {
      out.out(RUN_USAGE);
      return 0;
    }
    const f = args.flags;
    if (f.all && f.feature) throw new UsageError('--all and --feature cannot be combined');
    // Each feature would get its own branch while the main progress file never changes.
    if (f.all && f.worktree) throw new UsageError('--all and --worktree cannot be combined: create one worktree (git worktree add) and run --all inside it');
    // Prompts are read from stdin and shown on stderr: `kite run | tee run.txt` is still attended.
    const isTty = deps.isTty ?? Boolean(process.stdin.isTTY && process.stderr.isTTY);
    const mode: Mode = f.unattended || !isTty ? 'unattended' : 'attended';
    const limits: Partial<Limits> = {};
    if (typeof f['max-turns'] === 'number') limits.turns = f['max-turns'];
    if (typeof f['max-tokens'] === 'number') limits.tokens = f['max-tokens'];
    if (typeof f['max-usd'] === 'number') limits.usd = f['max-usd'];
    if (typeof f['max-observation-tokens'] === 'number') limits.observation_tokens = f['max-observation-tokens'];
    // Rows as they happen, also into a pipe or a CI log: progress is visible while the run works.
    const live = deps.live ?? true;
    const color = live && Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
    let rows = new TimelineFormatter({ color, says: true });
    const onEvent = live
      ? (e: KiteEvent) => {
          if (e.kind === 'session_start') {
            rows = new TimelineFormatter({ color, says: true });
            // With --worktree the work happens elsewhere: say where, once, at the top.
            const where = f.worktree ? `; working in ${e.root} on branch ${e.branch ?? '?'}` : '';
            out.out(`${e.feature}: ${e.title}  (${e.mode}, ${e.model.replace(/^script:.*[/\\]/, 'script:')}${where})`);
            if (!e.checks.length && !e.verify) {
              out.err(`kite: warning: no checks in .kite/config.json and ${e.feature} has no verify command, so this run cannot end done: it ends unverified (nothing committed) unless a person confirms a feature marked "verify": "none"`);
            }
          }
          const r = rows.row(e);
          if (r !== null) out.out(r);
        }
      : undefined;
    const tty = mode === 'attended' && !deps.host ? new TtyHost(process.stdin, process.stderr, onEvent) : null;
    host = deps.host ? withRows(deps.host, onEvent) : (tty ?? new UnattendedHost(onEvent));

    const controller = new AbortController();
    // Ctrl-C, `kill` and a closed terminal all end the run the same way: cancelled, commands
    // killed, log closed with session_end, progress saved. A second signal forces the exit at once,
    // taking the running command's process group along (it is detached, it would outlive kite).
    const onForce = () => {
      out.err('kite: forced stop; the running command was killed, the log has no session_end (kite resume can close it)');
      killAllCommandGroups();
      process.exit(130);
    };
    const onSignal = (sig: NodeJS.Signals) => {
      out.err(sig === 'SIGINT' ? 'kite: stopping (Ctrl-C again to force)…' : `kite: ${sig} received, stopping…`);
      controller.abort();
      for (const s of STOP_SIGNALS) {
        process.off(s, onSignal);
        process.once(s, onForce);
      }
    };
    for (const s of STOP_SIGNALS) process.on(s, onSignal);
    try {
      const base: RunOptions = {
        root: resolve(args.positionals[0] ?? '.'),
        featureId: typeof f.feature === 'string' ? f.feature : undefined,
        mode,
        model: typeof f.model === 'string' ? f.model : '',
        limits,
        allowDirty: f['allow-dirty'] === true,
        worktree: f.worktree === true,
        signal: controller.signal,
        ...deps.extra,
      };
      const starter = base.featureId ? null : starterProblem(join(base.root, PROGRESS_FILE));
      if (starter) throw new ProgressError('invalid_progress', starter);
      const dir = args.positionals[0];
      if (!f.all) return await report(await runFeature(base, host), out, live, dir);
      let ran = 0;
      for (;;) {
        let s: RunSummary;
        try {
          s = await runFeature(base, host);
        } catch (e) {
          if (ran > 0 && e instanceof ProgressError && e.code === 'no_feature') {
            out.out(`kite: all done — ${ran} feature(s) finished, none left.`);
            return 0;
          }
          throw e;
        }
        ran++;
        const code = await report(s, out, live, dir);
        if (code !== 0) return code;
        if (controller.signal.aborted) return 1;
        // the next feature's run starts from the commit this one made (its progress entry included: the tree is clean).
      }
    } finally {
      for (const s of STOP_SIGNALS) {
        process.off(s, onSignal);
        process.off(s, onForce);
      }
      tty?.close();
    }
  } catch (e) {
    return reportFailure(e, out, RUN_HELP_HINT);
  }
}

/** A given host that also prints the live rows (otherwise they would be lost: report() skips them). */
function withRows(inner: Host, onEvent: ((e: KiteEvent) => void) | undefined): Host {
  if (!onEvent) return inner;
  return {
    approve: (req, signal) => inner.approve(req, signal),
    ...(inner.confirmDoneWithoutCheck ? { confirmDoneWithoutCheck: (q, signal) => inner.confirmDoneWithoutCheck?.(q, signal) ?? Promise.resolve(false) } : {}),
    onEvent: (e) => {
      inner.onEvent?.(e);
      onEvent(e);
    },
  };
}

/** The timeline (unless it was already shown live) and the one summary line. */
export async function report(s: RunSummary, out: Out, live = false, dir?: string): Promise<number> {
  if (!live) out.out(formatTimeline(await readEvents(s.logPath, out), { says: true }));
  if (s.paused) {
    const run = basename(s.logPath).replace(/\.jsonl$/, '');
    // Each waiting call in full, so whoever answers with --approve has seen what it approves.
    const pending = pendingCalls(await readEvents(s.logPath, out), s.logPath);
    if (pending.length) out.out(`\n${pendingCallsText(pending)}\n`);
    const ids = showControlChars(pending.map((c) => c.id).join(','), { oneLine: true });
    const how = pending.length ? `; approve with kite resume ${run} --approve ${ids}, or deny with --deny REASON` : '';
    out.out(`${s.feature}: paused, resume with kite resume ${run} (${showControlChars(s.summary ?? 'waiting for approval', { oneLine: true })}${how})`);
    return 1;
  }
  out.out(formatSummary(s));
  // The reason must reach stderr too: a CI log or a script reading stderr sees it without the timeline.
  // One sentence, the same the VS Code notification shows (events/whyEnded.ts).
  if (s.outcome !== 'done') out.err(`kite: ${s.why ?? s.error ?? `${s.feature} ended ${s.outcome}`}`);
  if (s.outcome === 'error' && s.error?.includes('\n')) out.err(s.error); // the full error under its sentence
  const next = nextStep(s, dir);
  if (next) out.err(next);
  return s.outcome === 'done' ? 0 : 1;
}
