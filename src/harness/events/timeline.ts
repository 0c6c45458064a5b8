// The run as text, one row per model turn, tool call and gate — the view of the original Kite's
// `timeline`, plus the rows a dependable harness adds (policy denials, budget stops, the end).
import { relative } from 'node:path';
import { compactionLine } from '../protocol/compaction';
import { hookLabel } from '../protocol/hookLabel';
import { showControlChars } from '../protocol/controlChars';
import { describeSandbox } from '../protocol/sandboxInfo';
import type { EventKind, KiteEvent } from '../protocol/events';
import { checkExitText } from '../protocol/checkExit';
import { thousands } from '../protocol/thousands';
import { allowsOrAsks, approvesCall, KindBytes } from './envelopePeek';

const ARGS_WIDTH = 60;

function secs(t: number): string {
  return `${t.toFixed(1)}s`.padStart(8);
}

/** Compact one-line view of tool arguments: the path or command when there is one. */
export function argsPreview(args: unknown): string {
  if (args && typeof args === 'object' && !Array.isArray(args)) {
    const a = args as Record<string, unknown>;
    if (typeof a.command === 'string') return clip(a.command);
    if (typeof a.path === 'string') {
      const extra = Object.keys(a).filter((k) => k !== 'path' && k !== 'content' && k !== 'old_string' && k !== 'new_string');
      const more = typeof a.content === 'string' ? ` (${thousands(a.content.length)} chars)` : typeof a.old_string === 'string' ? ' (edit)' : '';
      return clip(a.path + more + (extra.length ? ` ${JSON.stringify(Object.fromEntries(extra.map((k) => [k, a[k]])))}` : ''));
    }
  }
  return clip(JSON.stringify(args) ?? '');
}

/** Whitespace that one-line text folds: a run of two, or any but a plain space (tested before replacing: most text has none). */
const FOLDABLE = /\s\s|[^\S ]/;

function clip(s: string, w = ARGS_WIDTH): string {
  // Escapes first: model text and commands must not drive the terminal (\r would hide what runs).
  const safe = showControlChars(s);
  const one = FOLDABLE.test(safe) ? safe.replace(/\s+/g, ' ') : safe;
  return one.length > w ? `${one.slice(0, w - 1)}…` : one;
}

export interface TimelineOptions {
  color?: boolean; // ANSI colors for a terminal
  /** Show the first line of what the agent said in each turn (a row under the turn). */
  says?: boolean;
}

/**
 * Kinds that never have a row of their own (the formatter returns null and remembers nothing of
 * them): `kite timeline` reads their lines for the envelope only (SKIPPED_BY_TIMELINE below).
 */
export const ROWLESS_KINDS: ReadonlySet<EventKind> = new Set<EventKind>(['approval_request', 'intent', 'model_retry', 'proposed']);

/**
 * The lines `kite timeline` reads for their envelope only: the rowless kinds, an approval that
 * approves and a policy decision that allows or asks — no row, and the formatter remembers nothing
 * of them (a denial names the call's refusal on its row; an edit's arguments are referred to later).
 */
export const SKIPPED_BY_TIMELINE = new KindBytes(ROWLESS_KINDS, { approval: approvesCall, policy: allowsOrAsks });

const paint = (on: boolean, code: number, s: string) => (on ? `\x1b[${code}m${s}\x1b[0m` : s);

/** Turns events into timeline rows one at a time (live output) — remembers who refused each call in flight. */
export class TimelineFormatter {
  /** Who refused a call not yet ended, by its id: the policy rule that denied it, the person, a hook. */
  private readonly refusedBy = new Map<string, string>();
  private maxGateFailures: number | null = null;
  constructor(private readonly opts: TimelineOptions = {}) {}

  /** The row for this event, or null when the event has no row of its own. */
  row(e: KiteEvent): string | null {
    const c = Boolean(this.opts.color);
    switch (e.kind) {
      case 'session_start':
        this.maxGateFailures = e.max_gate_failures;
        return e.sandbox ? `${secs(e.t)}  ${paint(c, e.sandbox.kind === 'none' ? 33 : 2, `commands run ${describeSandbox(e.sandbox)}`)}` : null;
      case 'model': {
        const cache = e.cache_read_input_tokens || e.cache_creation_input_tokens ? ` cache r=${thousands(e.cache_read_input_tokens)} w=${thousands(e.cache_creation_input_tokens)}` : '';
        const est = e.estimated ? '~' : ''; // counted by Kite (vscode-lm), not reported
        // A reply without tool calls is the agent saying "done": the gate row follows.
        const claims = (e.stop === 'end_turn' || e.stop === 'stop_sequence') && !e.content.some((b) => b.type === 'tool_use') ? '  (claims done)' : '';
        const row = `${secs(e.t)}  ${paint(c, 1, `turn ${String(e.turn).padEnd(3)}`)} ${e.stop.padEnd(9)} in=${est}${thousands(e.input_tokens)} out=${est}${thousands(e.output_tokens)}${cache}${claims}`;
        const said = this.opts.says ? saysLine(e.content) : null;
        return said ? `${row}\n${' '.repeat(12)}${paint(c, 2, `“${said}”`)}` : row;
      }
      case 'policy':
        if (e.decision === 'deny') this.refusedBy.set(e.id, e.rule);
        return null;
      case 'tool': {
        // Who refused it: a rule that denied it, the person, a hook (a rule that allowed it is no reason).
        const rule = this.refusedBy.get(e.id);
        this.refusedBy.delete(e.id); // a call ends once: what is kept stays the calls in flight
        const flag = e.error_code === 'denied' ? 'DENY' : e.is_error ? 'ERROR' : 'ok';
        const why = e.error_code === 'denied' && rule ? `  [${rule}]` : e.is_error && e.error_code ? `  [${e.error_code}]` : '';
        const exit = e.exit_code !== undefined && e.exit_code !== null && e.exit_code !== 0 ? ` → exit ${e.exit_code}` : '';
        const shown = paint(c, flag === 'ok' ? 2 : flag === 'DENY' ? 31 : 33, flag.padEnd(5));
        const recovered = e.recovered ? '  (recovered on resume)' : '';
        return `${secs(e.t)}    ${shown} ${showControlChars(e.name, { oneLine: true })} ${argsPreview(e.args)}${exit}${why}${recovered}`;
      }
      case 'gate': {
        const checks = e.checks
          .map((x) => [x, showControlChars(x.command, { oneLine: true })] as const)
          .map(([x, cmd]) => (x.exit_code === 0 && !x.timed_out ? `✓ ${cmd}` : `✗ ${cmd} (${checkExitText(x)})`))
          .join('  ');
        // Issue 18: nothing to run is not a failed attempt; no change is one, and says so.
        if (e.unverified !== undefined && !e.passed) return `${secs(e.t)}  gate ${paint(c, 33, 'UNVERIFIED')}  no check to run`;
        if (e.confirmed_by_person && e.passed) return `${secs(e.t)}  gate ${paint(c, 32, 'PASSED')}  no check ("verify": "none"): confirmed by a person`;
        const attempt = e.passed ? '' : ` (${this.maxGateFailures ? `${e.attempt} of ${this.maxGateFailures}` : `attempt ${e.attempt}`})`;
        const what = e.no_change && !e.passed ? 'the run changed no file' : checks;
        return `${secs(e.t)}  gate ${e.passed ? paint(c, 32, 'PASSED') : paint(c, 31, 'FAILED')}${attempt}  ${what}`;
      }
      case 'compaction':
        return `${secs(e.t)}  ${paint(c, 33, 'compaction')}: ${compactionLine(e)}`;
      case 'budget_stop':
        return `${secs(e.t)}  ${paint(c, 31, 'budget stop')}: ${e.limit} ${e.limit === 'usd' ? `$${e.used.toFixed(4)} of $${e.max}` : `${thousands(Math.round(e.used))} of ${thousands(e.max)}`}`;
      case 'warning':
        if (e.code === 'gate_cancelled') return `${secs(e.t)}  gate ${paint(c, 33, 'STOPPED')}  ${clip(e.message, 100)}`;
        // Which MCP servers started, were not approved or were withdrawn: the person must see it at the start.
        if (e.code.startsWith('mcp_')) return `${secs(e.t)}    ${paint(c, e.code === 'mcp_started' ? 32 : 33, 'mcp  ')} ${clip(e.message, 240)}`;
        // A message of the person's that a PromptSubmit hook kept from the agent: they must hear it.
        if (e.code === 'steer_blocked') return `${secs(e.t)}  ${paint(c, 33, 'not delivered')}: ${clip(e.message, 200)}`;
        return e.code === 'repetition' || e.code === 'max_tokens' ? `${secs(e.t)}    ${paint(c, 33, 'warn ')} ${clip(e.message, 80)}` : null;
      case 'approval':
        if (e.decision === 'deny') this.refusedBy.set(e.id, 'denied by the person');
        return e.decision === 'approve' ? null : `${secs(e.t)}    ${e.decision === 'deny' ? 'user deny' : 'user edit'}${e.reason ? `: ${clip(e.reason)}` : ''}`;
      case 'progress': {
        // The closing progress event lists the QUEUE proposals the run added as features.
        if (!e.proposals.length) return null;
        const titled = e.proposals.map((id) => `${id} "${e.features.find((f) => f.id === id)?.title ?? '?'}"`);
        return `${secs(e.t)}  queue  ${clip(`proposed ${titled.join(', ')}`, 100)}`;
      }
      case 'session_end': {
        // Why a run did not end done is the first thing a person asks; done needs no reason.
        const why = e.status === 'done' ? '' : (e.error ?? e.summary).trim();
        return `${secs(e.t)}  end  ${e.status === 'done' ? paint(c, 32, e.status) : paint(c, 31, e.status)}${why ? ` — ${clip(why, 240)}` : ''}`;
      }
      case 'paused':
        return `${secs(e.t)}  ${paint(c, 33, 'paused')} — ${clip(e.reason, 120)}`;
      case 'resumed':
        return `${secs(e.t)}  ${paint(c, 36, 'resumed')} after seq ${e.after_seq} (${e.mode})`;
      case 'divergence':
        return `${secs(e.t)}  ${paint(c, 31, 'DIVERGED')} from the recording at seq ${e.at_seq}: ${clip(e.what, 100)}`;
      case 'person_edit':
        return `${secs(e.t)}    ${paint(c, 36, 'YOU  ')} ${e.hash === null ? 'removed' : 'saved'} ${e.path} in the editor`;
      case 'restore':
        return `${secs(e.t)}  ${paint(c, 33, 'RESTORE')} ${e.files.length} file(s) put back to after seq ${e.to_seq}${e.kept.length ? `; kept as they were: ${clip(e.kept.map((k) => k.path).join(', '), 100)}` : ''}`;
      case 'hook':
        if (e.decision === 'block' && e.id !== null) this.refusedBy.set(e.id, `blocked by the ${hookLabel(e)} hook`);
        if (e.decision === 'block') return `${secs(e.t)}    ${paint(c, 33, 'HOOK ')} ${hookLabel(e)} blocked: ${clip(e.reason, 100)}  [${clip(e.command, 40)}]`;
        // What a SessionStart / PromptSubmit hook told the model is part of the story too.
        return e.context ? `${secs(e.t)}    ${paint(c, 36, 'HOOK ')} ${hookLabel(e)} said: ${clip(e.context, 100)}  [${clip(e.command, 40)}]` : null;
      case 'user':
        // What the person told the agent is part of the story; Kite's own texts are not.
        return e.reason === 'steer' ? `${secs(e.t)}  ${paint(c, 36, 'you said')}: ${clip(e.text, 120)}` : null;
      case 'approval_request': // ROWLESS_KINDS
      case 'intent':
      case 'model_retry':
      case 'proposed':
      default:
        return null; // other kinds have no row of their own
    }
  }
}

/** The first line of the agent's text in a reply, clipped (null when it said nothing). */
function saysLine(content: readonly { type: string; text?: unknown }[]): string | null {
  const text = content
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n')
    .trim();
  if (!text) return null;
  const first = text.split('\n')[0].trim();
  return clip(first + (text.includes('\n') ? ' …' : ''), 100);
}

export function formatTimeline(events: readonly KiteEvent[], opts: TimelineOptions = {}): string {
  const f = new TimelineFormatter(opts);
  const rows: string[] = [];
  for (const e of events) {
    const r = f.row(e);
    if (r !== null) rows.push(r);
  }
  return rows.join('\n');
}

export interface SummaryLine {
  feature: string;
  outcome: string;
  turns: number;
  tokens: number;
  cost_usd: number;
  commit: string | null;
  logPath: string;
  proposals?: string[];
}

/** `F1: done in 7 turns, 9,350 tokens, $0.0412. Commit 1a2b3c4. Log .kite/runs/….jsonl` */
export function formatSummary(s: SummaryLine, cwd = process.cwd()): string {
  const rel = relative(cwd, s.logPath);
  const log = rel && !rel.startsWith('..') ? rel : s.logPath;
  const proposals = s.proposals?.length ? ` Proposed: ${s.proposals.join(', ')}.` : '';
  const commit = s.commit ? `Commit ${s.commit.slice(0, 7)}.` : 'Nothing committed.';
  return `${s.feature}: ${s.outcome} in ${s.turns} turn${s.turns === 1 ? '' : 's'}, ${thousands(s.tokens)} tokens, $${s.cost_usd.toFixed(4)}. ${commit}${proposals} Log ${log}`;
}
