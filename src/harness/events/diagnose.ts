// `kite diagnose LOG`: why a run went the way it did, the way the original Kite's diagnosis script
// read a log — repeated identical gate failures and their common cause (a missing binary in the
// output, a missing module, a timeout), refusals (policy, the person, the model), budget stops,
// stuck loops, replay divergences, a run that never finished.
import type { CheckResult, EventOf, KiteEvent } from '../protocol/events';
import { foldEvents } from '../protocol/reducer';

export type FindingKind = 'unfinished' | 'repeated_gate_failure' | 'gate_failure' | 'policy_denied' | 'person_denied' | 'model_refused' | 'budget_stop' | 'stuck' | 'repeated_tool_error' | 'divergence' | 'tool_errors';

export interface Finding {
  kind: FindingKind;
  severity: 'error' | 'warning' | 'info';
  message: string;
  cause: string | null;
  seqs: number[]; // where to look in the log
}

export interface Diagnosis {
  headline: string;
  findings: Finding[];
}

const CAUSES: { re: RegExp; cause: (m: RegExpMatchArray) => string }[] = [
  { re: /command not found: ([^\s'"]+)/, cause: (m) => `command not found: ${m[1]} (a missing binary where the checks run)` },
  { re: /([^\s:'"]+): (?:command )?not found/, cause: (m) => `command not found: ${m[1]} (a missing binary where the checks run)` },
  { re: /No module named '([^']+)'/, cause: (m) => `Python module missing: ${m[1]}` },
  { re: /Cannot find module '([^']+)'/, cause: (m) => `Node module missing: ${m[1]}` },
  { re: /(?:ENOTFOUND|Could not resolve host|ECONNREFUSED|Network is unreachable)/, cause: () => 'no network where the checks run' },
  { re: /(?:EACCES|Permission denied)/, cause: () => 'permission denied' },
  { re: /(?:No such file or directory|ENOENT|file or directory not found)[^\n]*/, cause: (m) => `missing file: ${m[0].trim().slice(0, 120)}` },
];

/** The common cause named by a check's output, if one is recognizable. */
export function causeOf(text: string): string | null {
  for (const { re, cause } of CAUSES) {
    const m = text.match(re);
    if (m) return cause(m);
  }
  return null;
}

function failing(checks: readonly CheckResult[]): CheckResult[] {
  return checks.filter((c) => c.exit_code !== 0 || c.timed_out);
}

function checkLabel(c: CheckResult): string {
  return `\`${c.command}\` ${c.timed_out ? 'timed out' : `exit ${c.exit_code ?? 'killed'}`}`;
}

function gateFindings(gates: EventOf<'gate'>[]): Finding[] {
  const out: Finding[] = [];
  let i = 0;
  const failed = (g: EventOf<'gate'>) => !g.passed;
  while (i < gates.length) {
    if (!failed(gates[i])) {
      i++;
      continue;
    }
    const sig = (g: EventOf<'gate'>) => JSON.stringify(failing(g.checks).map((c) => [c.command, c.exit_code, c.timed_out, causeOf(c.output_tail)]));
    let j = i + 1;
    while (j < gates.length && failed(gates[j]) && sig(gates[j]) === sig(gates[i])) j++;
    const run = gates.slice(i, j);
    const checks = failing(gates[i].checks);
    const cause = checks.map((c) => (c.timed_out ? `timeout: \`${c.command}\` ran out of time` : causeOf(c.output_tail))).find((c) => c !== null) ?? null;
    // No check ran (a contract refused done first): the feedback's first line says why.
    const what = checks.length ? checks.map(checkLabel).join(', ') : gates[i].feedback.split('\n')[0].replace(/\.$/, '') || 'no check output recorded';
    out.push(
      run.length > 1
        ? { kind: 'repeated_gate_failure', severity: 'error', message: `The gate failed ${run.length} times in a row with the same failure: ${what}.`, cause, seqs: run.map((g) => g.seq) }
        : { kind: 'gate_failure', severity: 'warning', message: `The gate failed (attempt ${gates[i].attempt}): ${what}.`, cause, seqs: [gates[i].seq] },
    );
    i = j;
  }
  return out;
}

function countBy<T>(items: T[], key: (t: T) => string): [string, number][] {
  const m = new Map<string, number>();
  for (const it of items) m.set(key(it), (m.get(key(it)) ?? 0) + 1);
  return [...m.entries()].sort((a, b) => b[1] - a[1]);
}

export function diagnose(events: readonly KiteEvent[]): Diagnosis {
  const s = foldEvents(events, { conversation: false });
  const findings: Finding[] = [];
  const of = <K extends KiteEvent['kind']>(k: K) => events.filter((e): e is EventOf<K> => e.kind === k);

  if (!s.outcome) {
    const where = s.paused ? `paused waiting for approval of ${s.paused.pending.join(', ')}` : `stopped after seq ${s.lastSeq} (${s.phase.replace('_', ' ')}) without an outcome — a crash or a kill`;
    findings.push({ kind: 'unfinished', severity: 'error', message: `The run ${where}. Continue it with \`kite resume ${s.meta?.run ?? '<run>'}\`.`, cause: null, seqs: [s.lastSeq] });
  }
  findings.push(...gateFindings(of('gate')));
  if (s.budgetStop) {
    const b = s.budgetStop;
    findings.push({ kind: 'budget_stop', severity: 'error', message: `The run was stopped by its ${b.limit} budget: ${b.used} used of ${b.max}.`, cause: null, seqs: [b.seq] });
  }
  const denied = of('policy').filter((p) => p.decision === 'deny');
  if (denied.length) {
    const rules = countBy(denied, (p) => p.rule).map(([r, c]) => (c > 1 ? `${r} ×${c}` : r));
    const unattended = denied.some((p) => p.rule.startsWith('unattended'));
    findings.push({
      kind: 'policy_denied',
      severity: 'warning',
      message: `The policy refused ${denied.length} call${denied.length === 1 ? '' : 's'} (${rules.join(', ')}).${unattended ? ' In unattended mode anything that would ask is refused: add an allow rule to .kite/config.json if it is safe.' : ''}`,
      cause: null,
      seqs: denied.map((p) => p.seq),
    });
  }
  const personDenied = of('approval').filter((a) => a.decision === 'deny');
  if (personDenied.length) {
    findings.push({ kind: 'person_denied', severity: 'info', message: `The person denied ${personDenied.length} call${personDenied.length === 1 ? '' : 's'}${personDenied[0].reason ? `: "${personDenied[0].reason}"` : ''}.`, cause: null, seqs: personDenied.map((a) => a.seq) });
  }
  const refusals = of('model').filter((m) => m.stop === 'refusal');
  if (refusals.length) findings.push({ kind: 'model_refused', severity: 'error', message: `The model declined to continue (stop_reason refusal) at turn ${refusals[0].turn}.`, cause: null, seqs: refusals.map((m) => m.seq) });
  const reps = s.warnings.filter((w) => w.code === 'repetition');
  if (reps.length || s.outcome?.status === 'stuck') {
    findings.push({ kind: 'stuck', severity: s.outcome?.status === 'stuck' ? 'error' : 'warning', message: `The agent repeated identical calls: ${reps.at(-1)?.message ?? 'the run ended stuck'}.`, cause: null, seqs: reps.map((w) => w.seq) });
  }
  findings.push(...repeatedToolErrors(of('tool')));
  for (const d of s.divergences) findings.push({ kind: 'divergence', severity: 'warning', message: `Replay diverged at recorded seq ${d.at_seq}: ${d.what}.`, cause: null, seqs: [d.seq] });
  const errors = of('tool').filter((t) => t.is_error && t.error_code !== 'denied');
  if (errors.length) {
    const byCode = countBy(errors, (t) => `${t.name} ${t.error_code ?? 'error'}`).map(([k, c]) => `${k} ×${c}`);
    findings.push({ kind: 'tool_errors', severity: 'info', message: `${errors.length} tool call${errors.length === 1 ? '' : 's'} failed: ${byCode.join(', ')}.`, cause: null, seqs: errors.map((t) => t.seq) });
  }
  const meta = s.meta;
  const status = s.outcome ? s.outcome.status : s.paused ? 'paused' : 'unfinished';
  const headline = `Run ${meta?.run ?? events[0]?.run ?? '?'} (${meta?.feature ?? '?'}${meta?.title && meta.title !== meta.feature ? ` "${meta.title}"` : ''}): ${status} after ${s.turns} turns, ${s.tokens.total.toLocaleString('en-US')} tokens.`;
  return { headline, findings };
}

/** The same call failing the same way 3+ times in a row: the agent is not learning from the error. */
function repeatedToolErrors(tools: EventOf<'tool'>[]): Finding[] {
  const out: Finding[] = [];
  let i = 0;
  const key = (t: EventOf<'tool'>) => `${t.name} ${JSON.stringify(t.args)} ${t.output.slice(0, 500)}`;
  while (i < tools.length) {
    let j = i + 1;
    if (tools[i].is_error) while (j < tools.length && tools[j].is_error && key(tools[j]) === key(tools[i])) j++;
    if (j - i >= 3) {
      const cause = causeOf(tools[i].output);
      out.push({ kind: 'repeated_tool_error', severity: 'warning', message: `${tools[i].name} failed ${j - i} times in a row with the same error: ${tools[i].output.split('\n')[0].slice(0, 160)}`, cause, seqs: tools.slice(i, j).map((t) => t.seq) });
    }
    i = j;
  }
  return out;
}

const MARK = { error: '✗', warning: '!', info: '·' } as const;

export function formatDiagnosis(d: Diagnosis): string {
  const lines = [d.headline];
  if (!d.findings.length) lines.push('Nothing stands out: no gate failures, refusals, budget stops or loops.');
  for (const f of d.findings) {
    lines.push(`${MARK[f.severity]} ${f.message}`);
    if (f.cause) lines.push(`  Common cause: ${f.cause}`);
    lines.push(`  (log seq ${f.seqs.slice(0, 8).join(', ')}${f.seqs.length > 8 ? ', …' : ''})`);
  }
  return lines.join('\n');
}
