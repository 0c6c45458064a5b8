// Breakpoint kinds of the replay debugger and how an event matches them: transcript lines
// (with condition, hit condition, log message), tool names (function breakpoints) and
// "exceptions" — the things that go wrong in a run.
import type { KiteEvent } from '../protocol/events';
import { ExpressionError, parseExpression, parseTemplate, type Expr, type Template } from './expressions';
import { callTarget, oneLine } from './eventSummary';
import { SCOPE_ROOTS } from './scope';

export const EXCEPTION_FILTERS = [
  { filter: 'gate_failure', label: 'Gate failure', description: 'A verification gate attempt failed', default: true },
  { filter: 'tool_error', label: 'Tool error', description: 'A tool call returned an error (other than a refusal)', default: false },
  { filter: 'policy_refusal', label: 'Policy refusal', description: 'Policy or a person denied a tool call', default: false },
  { filter: 'budget_stop', label: 'Budget stop', description: 'A turn, token, dollar or time budget stopped the run', default: false },
  { filter: 'unusual_stop', label: 'Unusual stop reason', description: 'The model stopped with max_tokens, refusal, pause_turn or model_context_window_exceeded', default: false },
  { filter: 'divergence', label: 'Replay divergence', description: 'A replay did something other than the recording', default: false },
] as const;
export type ExceptionFilterId = (typeof EXCEPTION_FILTERS)[number]['filter'];
export const DEFAULT_EXCEPTION_FILTERS: ExceptionFilterId[] = EXCEPTION_FILTERS.filter((f) => f.default).map((f) => f.filter);
export function isExceptionFilterId(s: string): s is ExceptionFilterId {
  return EXCEPTION_FILTERS.some((f) => f.filter === s);
}

export const UNUSUAL_STOPS: ReadonlySet<string> = new Set(['max_tokens', 'refusal', 'pause_turn', 'model_context_window_exceeded']);

export interface ExceptionHit {
  filter: ExceptionFilterId;
  description: string; // short, for the stopped event
  details: string; // longer, for exceptionInfo
}

/** The "exception" an event represents, if any, and whether its filter is enabled. */
export function exceptionAt(e: KiteEvent, enabled: ReadonlySet<ExceptionFilterId>): ExceptionHit | null {
  const hit = classify(e);
  return hit && enabled.has(hit.filter) ? hit : null;
}

export function classify(e: KiteEvent): ExceptionHit | null {
  switch (e.kind) {
    case 'gate':
      if (e.passed) return null;
      return {
        filter: 'gate_failure',
        description: `Gate failed (attempt ${e.attempt}): ${e.checks.filter((c) => c.timed_out || c.exit_code !== 0).map((c) => `${oneLine(c.command, 50)} → ${c.timed_out ? 'timeout' : `exit ${String(c.exit_code)}`}`).join('; ') || oneLine(e.feedback, 80)}`,
        details: e.feedback,
      };
    case 'tool':
      if (!e.is_error || e.error_code === 'denied') return null;
      return { filter: 'tool_error', description: `Tool error: ${callTarget(e.name, e.args)} ✗ ${e.error_code ?? 'error'}`, details: e.output };
    case 'policy':
      if (e.decision !== 'deny') return null;
      return { filter: 'policy_refusal', description: `Policy refused ${e.name} (${e.rule})`, details: e.reason };
    case 'approval':
      if (e.decision !== 'deny') return null;
      return { filter: 'policy_refusal', description: `Person denied the call ${e.id}${e.reason ? `: ${oneLine(e.reason, 60)}` : ''}`, details: e.reason ?? '' };
    case 'budget_stop':
      return { filter: 'budget_stop', description: `Budget stop: ${e.limit} ${e.used} of ${e.max}`, details: `The ${e.limit} budget was exhausted: used ${e.used}, limit ${e.max}.` };
    case 'model':
      if (!UNUSUAL_STOPS.has(e.stop)) return null;
      return { filter: 'unusual_stop', description: `Model stopped with ${e.stop} (turn ${e.turn})`, details: `stop_reason ${e.stop} at turn ${e.turn}` };
    case 'divergence':
      return { filter: 'divergence', description: `Replay diverged at seq ${e.at_seq}: ${oneLine(e.what, 80)}`, details: `${e.what}\nrecorded: ${JSON.stringify(e.recorded)}\nlive: ${JSON.stringify(e.live)}` };
    case 'approval_request':
    case 'intent':
    case 'model_retry':
    case 'paused':
    case 'progress':
    case 'proposed':
    case 'resumed':
    case 'session_end':
    case 'session_start':
    case 'user':
    case 'warning':
    case 'hook':
    case 'person_edit':
    case 'restore':
    case 'compaction':
    default:
      return null;
  }
}

export type HitCondition = { op: '==' | '>=' | '>' | '<' | '<=' | '%'; n: number };

/** `N` (the Nth hit), `>= N`, `> N`, `< N`, `<= N`, `== N`, `% N` (every Nth hit). */
export function parseHitCondition(src: string): HitCondition | string {
  const m = /^\s*(==|>=|<=|>|<|%)?\s*(\d+)\s*$/.exec(src);
  if (!m) return `hit condition "${src}" is not a number or an operator and a number (e.g. 3, >= 3, % 2)`;
  return { op: (m[1] ?? '==') as HitCondition['op'], n: Number(m[2]) };
}

export function hitMatches(h: HitCondition, hits: number): boolean {
  switch (h.op) {
    case '==':
      return hits === h.n;
    case '>=':
      return hits >= h.n;
    case '>':
      return hits > h.n;
    case '<':
      return hits < h.n;
    case '<=':
      return hits <= h.n;
    case '%':
      return h.n > 0 && hits % h.n === 0;
  }
}

export interface BreakpointSpec {
  condition?: string;
  hitCondition?: string;
  logMessage?: string;
}

/** A parsed line or function breakpoint. `error` is set when it cannot be verified. */
export interface Breakpoint {
  id: number;
  condition: Expr | null;
  hit: HitCondition | null;
  log: Template | null;
  hits: number;
  error: string | null;
}

export function compileBreakpoint(id: number, spec: BreakpointSpec): Breakpoint {
  const bp: Breakpoint = { id, condition: null, hit: null, log: null, hits: 0, error: null };
  const parse = <T>(what: string, f: () => T): T | null => {
    try {
      return f();
    } catch (e) {
      if (!(e instanceof ExpressionError)) throw e;
      bp.error ??= `${what}: ${e.message}`;
      return null;
    }
  };
  const cond = spec.condition?.trim();
  if (cond) bp.condition = parse('condition', () => parseExpression(cond, SCOPE_ROOTS));
  if (spec.logMessage) {
    const msg = spec.logMessage;
    bp.log = parse('log message', () => parseTemplate(msg, SCOPE_ROOTS));
  }
  if (spec.hitCondition?.trim()) {
    const h = parseHitCondition(spec.hitCondition);
    if (typeof h === 'string') bp.error ??= h;
    else bp.hit = h;
  }
  return bp;
}
