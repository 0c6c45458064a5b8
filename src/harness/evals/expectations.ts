// What a case expects, checked against what its run did: the outcome, the gate verdicts in order,
// files that must / must not change (and their content), a diagnosis finding, and ceilings on
// turns, tokens and dollars. Each unmet expectation is one sentence naming the field.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnosis } from '../events/diagnose';
import type { KiteEvent } from '../protocol/events';
import type { ContractVerdict } from '../policy/contracts';
import type { Expect } from './evalCase';

export interface RunFacts {
  events: readonly KiteEvent[];
  outcome: string;
  turns: number;
  tokens: number;
  cost_usd: number;
  /** Repository-relative paths that differ from the starting commit at the end (committed or not). */
  changed: ReadonlySet<string>;
  root: string;
  diagnosis: Diagnosis;
  /** The run's contracts (its config's and its feature's), checked over its log. */
  contracts: readonly ContractVerdict[];
}

export const gateSequence = (events: readonly KiteEvent[]): ('passed' | 'failed')[] => events.flatMap((e) => (e.kind === 'gate' ? [e.passed ? ('passed' as const) : ('failed' as const)] : []));

export function unmetExpectations(expect: Expect, run: RunFacts): string[] {
  const unmet: string[] = [];
  if (expect.outcome && run.outcome !== expect.outcome) unmet.push(`outcome: expected ${expect.outcome}, got ${run.outcome}`);
  if (expect.gates) {
    const got = gateSequence(run.events);
    if (got.join() !== expect.gates.join()) unmet.push(`gates: expected [${expect.gates.join(', ')}], got [${got.join(', ')}]`);
  }
  for (const f of expect.files ?? []) unmet.push(...fileProblems(f, run));
  if (expect.diagnosis) {
    const re = new RegExp(expect.diagnosis);
    const texts = run.diagnosis.findings.flatMap((f) => [f.message, f.cause ?? '']);
    if (!texts.some((t) => re.test(t))) unmet.push(`diagnosis: no finding matches /${expect.diagnosis}/ (${run.diagnosis.findings.map((f) => f.cause ?? f.message).join('; ') || 'no findings'})`);
  }
  for (const id of expect.contracts ?? []) {
    const v = run.contracts.find((c) => c.id === id);
    if (!v) unmet.push(`contracts: ${id}: no such contract in the case's config or feature (known: ${run.contracts.map((c) => c.id).join(', ') || 'none'})`);
    else if (v.status !== 'held') unmet.push(`contracts: ${id}: ${v.status}: ${v.message}`);
  }
  if (expect.max_turns !== undefined && run.turns > expect.max_turns) unmet.push(`max_turns: ${run.turns} turns, more than ${expect.max_turns}`);
  if (expect.max_tokens !== undefined && run.tokens > expect.max_tokens) unmet.push(`max_tokens: ${run.tokens} tokens, more than ${expect.max_tokens}`);
  if (expect.max_usd !== undefined && run.cost_usd > expect.max_usd) unmet.push(`max_usd: $${run.cost_usd.toFixed(4)}, more than $${expect.max_usd}`);
  return unmet;
}

function fileProblems(f: NonNullable<Expect['files']>[number], run: RunFacts): string[] {
  const out: string[] = [];
  const changed = run.changed.has(f.path);
  if (f.changed === true && !changed) out.push(`files: ${f.path}: expected a change, it was not changed`);
  if (f.changed === false && changed) out.push(`files: ${f.path}: must not change, it changed`);
  if (f.contains === undefined && f.matches === undefined) return out;
  const abs = join(run.root, f.path);
  const text = existsSync(abs) ? readFileSync(abs, 'utf8') : null;
  if (text === null) return [...out, `files: ${f.path}: does not exist at the end`];
  if (f.contains !== undefined && !text.includes(f.contains)) out.push(`files: ${f.path}: does not contain ${JSON.stringify(f.contains)}`);
  if (f.matches !== undefined && !new RegExp(f.matches).test(text)) out.push(`files: ${f.path}: does not match /${f.matches}/`);
  return out;
}
