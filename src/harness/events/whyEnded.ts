// Why a run ended, in one sentence, from its fold: the line the CLI prints on stderr and the VS Code
// notification shows (through RunSummary.why), so both say the same thing. The cause a person can
// act on, not the totals: which check and its exit code, which budget, what the model error was.
// Through @vscode/l10n: VS Code's harness server loads the window's bundle; the CLI stays English.
import * as l10n from '@vscode/l10n';
import { describeStop } from '../budget/budget';
import { assertNever, type CheckResult } from '../protocol/events';
import type { GateRecord, RunState } from '../protocol/reducer';

/** "F1 ended gate_failed: `npm test` (a project check) exited with code 1 at gate attempt 3 of 3." */
export function whyRunEnded(s: RunState): string {
  const feature = s.meta?.feature ?? 'the run';
  const o = s.outcome;
  if (!o) return s.paused ? l10n.t('{0} is paused: {1}', feature, s.paused.reason) : l10n.t('{0} has not ended (its log has no session_end).', feature);
  return l10n.t('{0} ended {1}: {2}', feature, o.status, sentence(causeOf(s, o.status, o)));
}

function causeOf(s: RunState, status: NonNullable<RunState['outcome']>['status'], o: NonNullable<RunState['outcome']>): string {
  const last = s.gates.at(-1);
  switch (status) {
    case 'done':
      return o.commit ? l10n.t('the gate passed; commit {0}', o.commit.slice(0, 7)) : l10n.t('the gate passed');
    case 'gate_failed':
      return last ? gateCause(last, s) : firstLine(o.summary);
    case 'budget_exceeded':
      return s.budgetStop ? describeStop(s.budgetStop) : firstLine(o.summary);
    case 'unverified':
      return last?.unverified ?? firstLine(o.summary);
    case 'error':
      return firstLine(o.error ?? o.summary) || l10n.t('the run stopped with an error the log does not describe');
    case 'cancelled':
      return l10n.t('it was stopped before it finished');
    case 'stuck':
    case 'refused':
    case 'context_exceeded':
      return firstLine(o.summary);
    default:
      return assertNever(status, 'outcome');
  }
}

function gateCause(g: GateRecord, s: RunState): string {
  const max = s.meta?.max_gate_failures;
  const at = max ? l10n.t('at gate attempt {0} of {1}', g.attempt, max) : l10n.t('at gate attempt {0}', g.attempt);
  if (g.noChange) return l10n.t('the run had changed no file {0} (a feature that needs no change says "expects_no_change": true)', at);
  const failed = g.checks.filter((c) => c.exit_code !== 0 || c.timed_out);
  if (failed.length === 0) return l10n.t('the gate did not pass {0}: {1}', at, firstLine(g.feedback) || l10n.t('no failing check was recorded'));
  return `${failed.map(checkFailure).join('; ')} ${at}`;
}

function checkFailure(c: CheckResult): string {
  if (c.source === 'judge') {
    return c.judge?.verdict
      ? l10n.t('the judged check "{0}" was judged "{1}" (passes on "{2}")', c.command, c.judge.verdict, c.judge.pass)
      : l10n.t('the judged check "{0}" got no verdict from its judge', c.command);
  }
  const what = c.source === 'verify' ? l10n.t("the feature's verify command") : l10n.t('a project check');
  const how = c.timed_out ? l10n.t('timed out') : c.exit_code === null ? l10n.t('was killed') : c.exit_code === 127 ? l10n.t('exited with code 127 (command not found)') : l10n.t('exited with code {0}', c.exit_code);
  return `\`${c.command}\` (${what}) ${how}`;
}

/** The check, how it failed and what it said: the line a person reads to know what broke without opening the log. */
function checkFailureSaying(c: CheckResult): string {
  const said = telling(c.output_tail);
  return said ? `${checkFailure(c)} (${JSON.stringify(said)})` : checkFailure(c);
}

/** The first output line that says error/fail/assert (else the first line), clipped: a notification is one glance. */
function telling(output: string): string {
  const lines = output.split('\n').map((l) => l.trim()).filter(Boolean);
  const line = lines.find((l) => /error|fail|assert|expected|not ok|panic|exception/i.test(l)) ?? lines[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.trim() ?? '';
}

function sentence(text: string): string {
  const t = text.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/** A failed gate attempt the run goes on from: "F1: gate attempt 1 of 3 failed: `npm test` (a project check) exited with code 1; …". */
export function gateAttemptSentence(feature: string, g: { attempt: number; checks: CheckResult[]; no_change?: boolean; feedback: string }, maxAttempts: number | null): string {
  const failed = g.checks.filter((c) => c.exit_code !== 0 || c.timed_out);
  const cause = g.no_change ? l10n.t('the run had changed no file') : failed.length ? failed.map(checkFailureSaying).join('; ') : firstLine(g.feedback) || l10n.t('no failing check was recorded');
  return maxAttempts
    ? l10n.t('{0}: gate attempt {1} of {2} failed: {3}; the agent was told and tries again.', feature, g.attempt, maxAttempts, cause)
    : l10n.t('{0}: gate attempt {1} failed: {2}; the agent was told and tries again.', feature, g.attempt, cause);
}
