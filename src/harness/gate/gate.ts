// The verification gate: when the model claims done, run the configured checks plus the
// feature's verify command. All must exit 0. On failure the model is told which command failed,
// its exit code and the clipped tail of its output — specific feedback, not "try again".
import type { CheckResult } from '../protocol/events';
import type { ProcessRunner } from '../sandbox/types';
import type { JudgeCheck } from './judgeCheck';
import type { JudgeLike } from './judge';

export const DEFAULT_TAIL_CHARS = 2_000;

export interface GateVerdict {
  passed: boolean;
  feedback: string; // what the model is told ('' when passed)
  checks: CheckResult[];
  /** Gate-defining files (package.json, Makefile, test configs, verify files…) this run changed. */
  changed_gate_files?: string[];
  /** Nothing could verify the claim (no gate command): why, and how to add a check. */
  unverified?: string;
  /** The run had changed no file (and the feature expects a change). */
  no_change?: boolean;
  /** `"verify": "none"`: a person confirmed done without a check. */
  confirmed_by_person?: boolean;
}

export interface GateCheckOptions {
  attempt: number; // 1-based
  maxAttempts: number;
  signal?: AbortSignal;
}

/** What the loop needs from a gate (the logged wrapper has the same shape). */
export interface GateLike {
  check(opts: GateCheckOptions): Promise<GateVerdict>;
}

export interface GateOptions {
  root: string;
  checks: string[];
  verify: string | null;
  timeoutS: number;
  runner: ProcessRunner;
  tailChars?: number;
  /** The gate-defining files changed since the run's starting commit (see policy/protect.ts). */
  changedGateFiles?: () => string[];
  /** Unattended: nobody reviewed those changes, so a gate that passes with them does not pass. */
  refuseChangedGateFiles?: boolean;
  /** The feature (named in the unverified message). */
  featureId?: string;
  /** The feature says `"verify": "none"`: with no check configured, a person may confirm done. */
  verifyNone?: boolean;
  /** Asks the person (attended runs); absent or false: the run ends unverified. */
  confirmWithoutCheck?: (signal?: AbortSignal) => Promise<boolean>;
  /** Files the run changed (null: cannot tell). An empty list fails the gate unless expectsNoChange. */
  changedFiles?: () => string[] | null;
  /** The feature's `"expects_no_change": true`. */
  expectsNoChange?: boolean;
  /** Judged checks (config `checks` rubrics, then the feature's `judges`): asked once every command passed. */
  judges?: JudgeCheck[];
  judge?: JudgeLike;
}

export class Gate implements GateLike {
  constructor(private readonly opts: GateOptions) {}

  /** The commands in the order they run. */
  get commands(): { command: string; source: CheckResult['source'] }[] {
    const list: { command: string; source: CheckResult['source'] }[] = this.opts.checks.map((command) => ({ command, source: 'check' }));
    if (this.opts.verify) list.push({ command: this.opts.verify, source: 'verify' });
    return list;
  }

  async check(opts: GateCheckOptions): Promise<GateVerdict> {
    // A run that changed nothing did not do the feature (its one edit may have failed): say so
    // before running checks that would pass on the untouched code.
    if (!this.opts.expectsNoChange && this.opts.changedFiles?.()?.length === 0) {
      return { passed: false, no_change: true, feedback: noChangeFeedback(opts), checks: [] };
    }
    // No command at all: the gate would pass vacuously. Never done on the agent's word alone.
    const judges = this.opts.judges ?? [];
    if (this.commands.length === 0 && judges.length === 0) return this.withoutCommands(opts);
    const results: CheckResult[] = [];
    // Every command runs (not stop-at-first) so the model sees all that is wrong at once.
    for (const { command, source } of this.commands) {
      if (opts.signal?.aborted) break;
      const r = await this.opts.runner.run({ command, cwd: this.opts.root, timeout_s: this.opts.timeoutS, signal: opts.signal });
      results.push({
        command,
        source,
        exit_code: r.exit_code,
        ms: Math.round(r.ms),
        timed_out: r.timed_out,
        output_tail: tail(joinOutput(r.stdout, r.stderr), this.opts.tailChars ?? DEFAULT_TAIL_CHARS),
        sandbox: r.sandbox,
      });
    }
    const commandsPassed = results.length === this.commands.length && results.every(checkPassed);
    // A judge is a paid model call: it is asked only about work the commands already accept.
    const judgesSkipped = judges.length > 0 && !commandsPassed;
    if (commandsPassed) for (const j of judges) {
      if (opts.signal?.aborted) break;
      results.push(this.opts.judge ? await this.opts.judge.run(j, opts.signal) : noJudge(j));
    }
    const checksPassed = commandsPassed && results.length === this.commands.length + judges.length && results.every(checkPassed);
    const feedbackOf = () => gateFeedback(results, opts, this.opts.timeoutS) + (judgesSkipped ? `\n\n${skippedJudgesLine(judges)}` : '');
    const changed = this.opts.changedGateFiles?.();
    if (changed === undefined || changed.length === 0) {
      const feedback = checksPassed ? '' : feedbackOf();
      return changed === undefined ? { passed: checksPassed, feedback, checks: results } : { passed: checksPassed, feedback, checks: results, changed_gate_files: [] };
    }
    // A check that passes only because its definition was rewritten proves nothing.
    const passed = checksPassed && !this.opts.refuseChangedGateFiles;
    const note = changedGateFilesNote(changed, this.opts.refuseChangedGateFiles === true);
    const feedback = checksPassed ? (passed ? note : `${note}\n\n${retryLine(opts)}`) : `${feedbackOf()}\n\n${note}`;
    return { passed, feedback, checks: results, changed_gate_files: changed };
  }

  private async withoutCommands(opts: GateCheckOptions): Promise<GateVerdict> {
    const id = this.opts.featureId ? `feature ${this.opts.featureId}` : 'the feature';
    if (this.opts.verifyNone) {
      if ((await this.opts.confirmWithoutCheck?.(opts.signal).catch(() => false)) === true) return { passed: true, feedback: '', checks: [], confirmed_by_person: true };
      return {
        passed: false,
        feedback: '',
        checks: [],
        unverified: `${id} says "verify": "none" and no check is configured, so only a person can mark it done, and nobody confirmed (an unattended run never does); nothing was committed. Review the changes, then commit them yourself and reset the feature, or run it attended and confirm.`,
      };
    }
    return {
      passed: false,
      feedback: '',
      checks: [],
      unverified:
        `nothing verified this work: .kite/config.json has no "checks" and ${id} has no "verify" command, so Kite did not mark it done and committed nothing. ` +
        `Add a check (e.g. "checks": ["npm test"] in .kite/config.json) or a "verify" command to the feature, then run it again; a feature no command can check says "verify": "none" and is confirmed by a person in an attended run.`,
    };
  }
}

const checkPassed = (c: CheckResult): boolean => c.exit_code === 0 && !c.timed_out;

/** Judged checks with no judge to ask fail closed (never pass unasked). */
function noJudge(j: JudgeCheck): CheckResult {
  const reasons = 'no judge could be asked (Kite has no model for judged checks here); the check fails closed';
  return { command: j.judge, source: 'judge', exit_code: 1, ms: 0, timed_out: false, output_tail: `no verdict\n${reasons}` };
}

function skippedJudgesLine(judges: JudgeCheck[]): string {
  return `The judged check${judges.length === 1 ? '' : 's'} (${judges.map((j) => `"${j.judge}"`).join(', ')}) ${judges.length === 1 ? 'was' : 'were'} not asked: judges run once every command passes.`;
}

function noChangeFeedback(opts: GateCheckOptions): string {
  return (
    `Kite ran the gate (attempt ${opts.attempt} of ${opts.maxAttempts}) and it did NOT pass: this run has not changed any file in the workspace ` +
    `(a failed edit_file or write_file changes nothing), so the feature is not done and nothing was committed. ` +
    `Check the results of your edits, make the change the feature asks for, then reply without a tool call to claim done again. ${retryLine(opts)}`
  );
}

function joinOutput(stdout: string, stderr: string): string {
  const a = stdout.trimEnd();
  const b = stderr.trimEnd();
  return a && b ? `${a}\n${b}` : a || b;
}

/** The last `max` characters, starting at a line boundary, with a marker saying what was cut. */
export function tail(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.length - max;
  const nl = text.indexOf('\n', cut);
  if (nl !== -1 && nl - cut < 200) cut = nl + 1;
  return `[… ${cut} earlier characters cut …]\n${text.slice(cut)}`;
}

function changedGateFilesNote(files: string[], refused: boolean): string {
  const list = files.map((f) => `\`${f}\``).join(', ');
  if (!refused) return `Note: this run changed files that define the gate (${list}); a person reviews them before relying on the result.`;
  return (
    `The gate's commands are defined by files this run changed (${list}). This run is unattended, so nobody reviewed those changes: ` +
    `the gate does NOT pass and nothing was committed. Restore them to their state at the start of the run (the feature's may_change lists files it is meant to change).`
  );
}

function retryLine(opts: GateCheckOptions): string {
  const left = opts.maxAttempts - opts.attempt;
  return left <= 0 ? 'This was the last gate attempt.' : `${left === 1 ? 'One more failed gate ends' : `${left} more failed gates end`} this session as gate_failed.`;
}

export function gateFeedback(results: CheckResult[], opts: GateCheckOptions, timeoutS: number): string {
  const failed = results.filter((c) => c.exit_code !== 0 || c.timed_out);
  const passed = results.filter((c) => !failed.includes(c));
  const lines: string[] = [];
  lines.push(`Kite ran the gate (attempt ${opts.attempt} of ${opts.maxAttempts}) and it did NOT pass, so the feature is not done and nothing was committed.`);
  for (const c of failed) {
    if (c.source === 'judge') {
      lines.push(`\nFAILED: a judged check: "${c.command}". ${judgeSaid(c)}`);
      continue;
    }
    const what = c.timed_out ? `timed out after ${timeoutS} s and was killed` : c.exit_code === null ? 'was killed before it finished' : `exited with code ${c.exit_code}`;
    const label = c.source === 'verify' ? "the feature's verify command" : 'a project check';
    lines.push(`\nFAILED: \`${c.command}\` (${label}) ${what}.`);
    lines.push(c.output_tail ? `End of its output:\n\`\`\`\n${c.output_tail}\n\`\`\`` : 'It printed nothing.');
  }
  if (passed.length) lines.push(`\nPassed: ${passed.map((c) => (c.source === 'judge' ? `judged "${c.command}"` : `\`${c.command}\``)).join(', ')}.`);
  const left = opts.maxAttempts - opts.attempt;
  lines.push(
    `\nFix the cause${failed.some((c) => c.source === 'judge') ? ' (for a judged check: what its reasons say is missing)' : ''}, run the failing command yourself with the run tool to confirm it passes, then reply without a tool call to claim done again. ` +
      (left === 1 ? 'One more failed gate ends this session as gate_failed.' : `${left} more failed gates end this session as gate_failed.`),
  );
  return lines.join('\n');
}

/** What a judge said, for the model: its verdict against the passing one, and its reasons. */
function judgeSaid(c: CheckResult): string {
  const j = c.judge;
  if (!j || j.verdict === null) return `It has no verdict: ${j?.reasons ?? c.output_tail}.`;
  return `The judge answered "${j.verdict}" (it passes on "${j.pass}"). Its reasons:\n\`\`\`\n${j.reasons}\n\`\`\``;
}
