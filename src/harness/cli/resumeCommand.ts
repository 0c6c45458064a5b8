// `kite resume <run id | log path> …` — continue a run that crashed or paused for approval, from
// its log alone. Mode and limits come from the log's session_start; the flags of `kite run` override them.
// Pending approvals are asked on a terminal, or answered with --approve CALL_ID / --deny REASON; with
// neither (no terminal, attended run) the run pauses again and says how to continue.
import { basename, resolve } from 'node:path';
import { resolveRunLog } from '../events/logFiles';
import { LogReadError, readLog } from '../events/reader';
import type { ApprovalAnswer, ApprovalRequest, Host } from '../host';
import type { KiteEvent, Limits, Mode } from '../protocol/events';
import { resumeRun, ResumeError, type ResumeOptions } from '../resume';
import { formatFlags, parseArgs, UsageError, type FlagSpec } from './args';
import { approvedIds, takeApprove } from './approveFlag';
import { requestText } from './approvalText';
import { stdio, type Out } from './output';
import { reportFailure } from './reportFailure';
import { pendingCalls } from './pendingCalls';
import { report } from './runCommand';
import { TtyHost } from './ttyHost';
import { UnattendedHost } from './unattendedHost';

const FLAGS: FlagSpec[] = [
  { name: 'unattended', type: 'bool', help: 'continue unattended (overrides the mode recorded in the log)' },
  { name: 'attended', type: 'bool', help: 'continue attended (overrides the mode recorded in the log)' },
  { name: 'max-turns', type: 'int', value: 'N', help: 'stop after N model turns (overrides the recorded limit)' },
  { name: 'max-tokens', type: 'int', value: 'N', help: 'stop after N tokens' },
  { name: 'max-usd', type: 'number', value: 'X', help: 'stop after X dollars' },
  { name: 'max-observation-tokens', type: 'int', value: 'N', help: 'stop before tool results would put more than N tokens into the conversation' },
  { name: 'approve', type: 'string', value: 'IDS', help: 'approve these waiting calls (ids from the pause message; comma-separated or repeated; bare only when one call waits)' },
  { name: 'deny', type: 'string', value: 'REASON', help: 'deny the calls that were waiting for approval (the agent is told REASON)' },
  { name: 'dir', type: 'string', value: 'DIR', help: 'project folder to look for a run id in (default: the current folder)' },
  { name: 'accept-damaged-log', type: 'bool', help: "continue although the log's hash chain is broken (an edited or forged line); kite resume without it names the lines, and the run logs a warning" },
];

const USAGE = `usage: kite resume <run id | log path> [options]\n\nContinues a run that stopped (crash, kill, or a pause for approval) from its log.\n\n${formatFlags(FLAGS)}`;

/** Nobody is at a terminal: the approval cannot be answered here, so the run pauses. */
class NoTerminalHost implements Host {
  approve(): Promise<ApprovalAnswer> {
    return Promise.reject(new Error('no terminal to ask on (answer with `kite resume <run> --approve <call id>` or `--deny REASON`, or resume on a terminal)'));
  }
}

/** Answers the given call ids from the command line; the rest go to `inner`. */
class PresetHost implements Host {
  onEvent?: (event: KiteEvent) => void;

  constructor(
    private readonly ids: Set<string>,
    private readonly answer: ApprovalAnswer,
    private readonly inner: Host,
    private readonly out?: Out,
  ) {
    if (inner.onEvent) this.onEvent = (e) => inner.onEvent?.(e); // live rows on a terminal
  }

  approve(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    if (this.ids.delete(req.id)) {
      // What is approved (or denied) is shown in full as it is answered, never approved unseen.
      this.out?.out(`\n${requestText(req)}\n${this.answer.decision === 'approve' ? 'approved' : 'denied'} by --${this.answer.decision === 'approve' ? 'approve' : 'deny'}`);
      return Promise.resolve(this.answer);
    }
    return this.inner.approve(req, signal);
  }
}

export interface ResumeCommandDeps {
  out?: Out;
  isTty?: boolean;
  host?: Host;
  extra?: Partial<ResumeOptions>;
}

export async function resumeMain(argv: string[], deps: ResumeCommandDeps = {}): Promise<number> {
  const out = deps.out ?? stdio;
  let tty: TtyHost | null = null;
  try {
    const { rest, approve } = takeApprove(argv, FLAGS);
    const args = parseArgs(rest, FLAGS, 1);
    if (args.help) {
      out.out(USAGE);
      return 0;
    }
    const f = args.flags;
    const target = args.positionals[0];
    if (!target) throw new UsageError('which run? give a run id (e.g. 20260301-101500-F4) or a log path');
    if (f.unattended && f.attended) throw new UsageError('--unattended and --attended cannot be combined');
    if (approve && typeof f.deny === 'string') throw new UsageError('--approve and --deny cannot be combined');
    const log = resolveRunLog(target, resolve(typeof f.dir === 'string' ? f.dir : '.'));
    const mode: Mode | undefined = f.unattended ? 'unattended' : f.attended ? 'attended' : undefined;
    const limits: Partial<Limits> = {};
    if (typeof f['max-turns'] === 'number') limits.turns = f['max-turns'];
    if (typeof f['max-tokens'] === 'number') limits.tokens = f['max-tokens'];
    if (typeof f['max-usd'] === 'number') limits.usd = f['max-usd'];
    if (typeof f['max-observation-tokens'] === 'number') limits.observation_tokens = f['max-observation-tokens'];

    const isTty = deps.isTty ?? Boolean(process.stdin.isTTY && process.stdout.isTTY);
    let host: Host = deps.host ?? (mode === 'unattended' ? new UnattendedHost() : isTty ? (tty = new TtyHost()) : new NoTerminalHost());
    if (approve || typeof f.deny === 'string') {
      const { events } = await readLog(log);
      const pending = pendingCalls(events, log);
      // --approve only the calls it names; --deny (harmless) answers every waiting call.
      const ids = approve ? approvedIds(approve, pending, basename(log, '.jsonl')) : pending.map((c) => c.id);
      const answer: ApprovalAnswer = approve ? { decision: 'approve' } : { decision: 'deny', reason: String(f.deny) };
      host = new PresetHost(new Set(ids), answer, host, out);
    }
    const controller = new AbortController();
    const onSigint = () => controller.abort();
    process.once('SIGINT', onSigint);
    try {
      const s = await resumeRun({ log, mode, limits, acceptDamagedLog: f['accept-damaged-log'] === true, signal: controller.signal, ...deps.extra }, host);
      return await report(s, out);
    } finally {
      process.off('SIGINT', onSigint);
    }
  } catch (e) {
    if (e instanceof LogReadError) {
      out.err(`kite: ${e.message}`);
      return 2;
    }
    if (e instanceof ResumeError) {
      out.err(`kite: ${e.message}`);
      return e.code === 'already_finished' ? 1 : 2;
    }
    return reportFailure(e, out, USAGE);
  } finally {
    tty?.close();
  }
}
