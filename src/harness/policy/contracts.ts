// Trajectory contracts: invariants over a whole run, declared in .kite/config.json `contracts` (and
// per feature). A contract is one pattern over the run's steps — never P, always P (when W),
// eventually P, before A then B (optionally for the same path) — with an action: forbid (the call
// is refused), warn (logged and told to the model), require (checked when the model claims done).
//
// One compiled form serves the live check and the offline check: each contract is a small
// automaton stepped by the steps of the log's events (stepsOf). Live, the loop folds every event
// it writes into the same automata and asks, before a call runs or a gate passes, what that step
// would do to them (lookahead); offline (`kite check LOG`) folds a finished log. So the live
// verdict at the end of a run and the offline verdict over its log are the same by construction.
import { z } from 'zod';
import type { KiteEvent } from '../protocol/events';

// Predicates: atoms in one object are ANDed; all / any / not compose them.
export type Predicate = {
  tool?: string; // regex over the tool name, whole name (as Claude Code matchers: "write_file|edit_file")
  path?: string; // regex over the call's workspace-relative path
  arg?: Record<string, string>; // regex per argument (strings as they are, other values as JSON)
  text?: string; // regex over a model reply's text
  gate?: 'passed' | 'failed';
  denied?: boolean; // a person denied a call
  all?: Predicate[];
  any?: Predicate[];
  not?: Predicate;
};

const regex = z.string().superRefine((v, ctx) => {
  try {
    new RegExp(v);
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: `not a valid regular expression: ${(e as Error).message}` });
  }
});

export const PredicateSchema: z.ZodType<Predicate> = z.lazy(() =>
  z
    .strictObject({
      tool: regex.optional(),
      path: regex.optional(),
      arg: z.record(z.string(), regex).optional(),
      text: regex.optional(),
      gate: z.enum(['passed', 'failed']).optional(),
      denied: z.boolean().optional(),
      all: z.array(PredicateSchema).optional(),
      any: z.array(PredicateSchema).optional(),
      not: PredicateSchema.optional(),
    })
    .refine((p) => Object.keys(p).length > 0, 'an empty predicate matches nothing; name at least one of tool, path, arg, text, gate, denied, all, any, not'),
);

const base = {
  id: z.string().regex(/^[\w.-]+$/, 'letters, digits, _ . - only'),
  action: z.enum(['forbid', 'warn', 'require']).default('forbid'),
  message: z.string().min(1).optional(), // what the model is told
};

export const ContractSchema = z.union([
  z.strictObject({ ...base, never: PredicateSchema }),
  z.strictObject({ ...base, always: PredicateSchema, when: PredicateSchema.optional() }),
  z.strictObject({ ...base, eventually: PredicateSchema }),
  z.strictObject({ ...base, before: PredicateSchema, then: PredicateSchema, same_path: z.boolean().optional() }),
]);
export type Contract = z.infer<typeof ContractSchema>;
export const ContractsSchema = z.array(ContractSchema).superRefine((cs, ctx) => {
  const seen = new Set<string>();
  cs.forEach((c, i) => {
    if (seen.has(c.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `duplicate contract id "${c.id}"` });
    seen.add(c.id);
  });
});

/** What a contract sees of a run: calls that ran (refused ones did not happen), replies, gates, denials. */
export type Step = { kind: 'tool'; name: string; args: unknown; path: string | null } | { kind: 'text'; text: string } | { kind: 'gate'; passed: boolean } | { kind: 'denied' };

export function stepOf(e: KiteEvent): Step | null {
  // Only these kinds are steps; every other event (proposals, policy, progress…) is bookkeeping.
  if (e.kind === 'tool') return e.error_code === 'denied' ? null : { kind: 'tool', name: e.name, args: e.args, path: e.path ?? pathArg(e.args) };
  if (e.kind === 'model') {
    const text = e.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
    return text ? { kind: 'text', text } : null;
  }
  if (e.kind === 'gate') return { kind: 'gate', passed: e.passed };
  if (e.kind === 'approval') return e.decision === 'deny' ? { kind: 'denied' } : null;
  return null;
}

function pathArg(args: unknown): string | null {
  const p = (args as { path?: unknown } | null)?.path;
  return typeof p === 'string' ? p.replace(/^\.\//, '') : null;
}

const argText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v) ?? '');

export function matches(p: Predicate, s: Step): boolean {
  if (p.tool !== undefined && !(s.kind === 'tool' && new RegExp(`^(?:${p.tool})$`).test(s.name))) return false;
  if (p.path !== undefined && !(s.kind === 'tool' && s.path !== null && new RegExp(p.path).test(s.path))) return false;
  if (p.arg !== undefined) {
    if (s.kind !== 'tool') return false;
    const args = (s.args ?? {}) as Record<string, unknown>;
    for (const [k, re] of Object.entries(p.arg)) if (!(k in args) || !new RegExp(re).test(argText(args[k]))) return false;
  }
  if (p.text !== undefined && !(s.kind === 'text' && new RegExp(p.text).test(s.text))) return false;
  if (p.gate !== undefined && !(s.kind === 'gate' && s.passed === (p.gate === 'passed'))) return false;
  if (p.denied !== undefined && (s.kind === 'denied') !== p.denied) return false;
  if (p.all && !p.all.every((q) => matches(q, s))) return false;
  if (p.any && !p.any.some((q) => matches(q, s))) return false;
  if (p.not && matches(p.not, s)) return false;
  return true;
}

const DEFAULT_WHEN: Predicate = { tool: '.*' }; // `always` without `when`: every tool call

/** The automaton's state: `violated` is absorbing; `seen` is what `eventually` / `before` wait for. */
interface AutomatonState {
  violated: { seq: number | null; why: string } | null;
  seen: boolean;
  seenPaths: Set<string>;
}

/** One step through one contract: the next state (the input is not changed). */
function next(c: Contract, st: AutomatonState, s: Step, seq: number | null): AutomatonState {
  if (st.violated) return st;
  const violate = (why: string): AutomatonState => ({ ...st, violated: { seq, why } });
  if ('never' in c) return matches(c.never, s) ? violate(`${describeStep(s)} happened`) : st;
  if ('always' in c) return matches(c.when ?? DEFAULT_WHEN, s) && !matches(c.always, s) ? violate(`${describeStep(s)} does not satisfy it`) : st;
  if ('eventually' in c) return !st.seen && matches(c.eventually, s) ? { ...st, seen: true } : st;
  // before A then B: every B needs an earlier A (for the same path, with same_path).
  const isA = matches(c.before, s);
  const path = s.kind === 'tool' ? s.path : null;
  if (matches(c.then, s)) {
    const ok = c.same_path ? path !== null && st.seenPaths.has(path) : st.seen;
    if (!ok) return violate(`${describeStep(s)} came first`);
  }
  if (!isA) return st;
  const seenPaths = path !== null && c.same_path ? new Set(st.seenPaths).add(path) : st.seenPaths;
  return { ...st, seen: true, seenPaths };
}

export function describeStep(s: Step): string {
  switch (s.kind) {
    case 'tool':
      return `${s.name}${s.path ? ` ${s.path}` : ''}`;
    case 'text':
      return `a reply saying "${s.text.slice(0, 60)}${s.text.length > 60 ? '…' : ''}"`;
    case 'gate':
      return `the gate ${s.passed ? 'passing' : 'failing'}`;
    case 'denied':
      return 'a person denying a call';
    default: {
      const never: never = s;
      return String(never);
    }
  }
}

export type ContractStatus = 'held' | 'violated' | 'unmet';

export interface ContractVerdict {
  id: string;
  action: Contract['action'];
  status: ContractStatus; // unmet: an `eventually` that has not happened (yet)
  seq: number | null; // the event that violated it
  message: string;
}

export function describeContract(c: Contract): string {
  if (c.message) return c.message;
  if ('never' in c) return `never ${JSON.stringify(c.never)}`;
  if ('always' in c) return `always ${JSON.stringify(c.always)}${c.when ? ` when ${JSON.stringify(c.when)}` : ''}`;
  if ('eventually' in c) return `eventually ${JSON.stringify(c.eventually)}`;
  return `${JSON.stringify(c.before)} before ${JSON.stringify(c.then)}${c.same_path ? ' (same path)' : ''}`;
}

/** The compiled contracts of one run: fold events in, ask what a step would do. */
export class ContractMonitor {
  private readonly states: AutomatonState[];

  constructor(readonly contracts: readonly Contract[]) {
    this.states = contracts.map(() => ({ violated: null, seen: false, seenPaths: new Set<string>() }));
  }

  observe(e: KiteEvent): void {
    const s = stepOf(e);
    if (!s) return;
    this.contracts.forEach((c, i) => (this.states[i] = next(c, this.states[i], s, e.seq ?? null)));
  }

  /** The contracts this step would violate now (not yet violated ones only). */
  wouldViolate(s: Step): { contract: Contract; why: string }[] {
    return this.contracts.flatMap((c, i) => {
      if (this.states[i].violated) return [];
      const after = next(c, this.states[i], s, null);
      return after.violated ? [{ contract: c, why: after.violated.why }] : [];
    });
  }

  verdicts(): ContractVerdict[] {
    return this.contracts.map((c, i) => {
      const st = this.states[i];
      const status: ContractStatus = st.violated ? 'violated' : 'eventually' in c && !st.seen ? 'unmet' : 'held';
      const why = st.violated ? `: ${st.violated.why}` : status === 'unmet' ? ': it never happened' : '';
      return { id: c.id, action: c.action, status, seq: st.violated?.seq ?? null, message: `${describeContract(c)}${why}` };
    });
  }
}

/** The offline check: the verdicts over a finished log. */
export function checkContracts(contracts: readonly Contract[], events: readonly KiteEvent[]): ContractVerdict[] {
  const m = new ContractMonitor(contracts);
  for (const e of events) m.observe(e);
  return m.verdicts();
}
