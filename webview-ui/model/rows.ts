// One row per event: the few strings and numbers the list shows, computed once when the event
// arrives (O(1) per event), so scrolling never formats anything but the visible window.
import { assertNever, type KiteEvent } from '../../src/harness/protocol/events';
import { ROW_ARG_SHOWN_WHOLE, ROW_NAMED_ARGS, fullLengthOf } from '../../src/harness/protocol/webviewMessages';
import { compactionLine } from '../../src/harness/protocol/compaction';
import { hookLabel } from '../../src/harness/protocol/hookLabel';
import { compactNumber, firstLine, formatUsd } from './format';
import { checkExitText } from '../../src/harness/protocol/checkExit';

export type RowLevel = 'info' | 'ok' | 'warn' | 'error';

/** Actions a row offers (bit flags, so a row stays a small object). */
export const ACTION_DIFF = 1;
export const ACTION_OUTPUT = 2;
export const ACTION_RAW = 4;
export const ACTION_REPLAY = 8;
export const ACTION_RESTORE = 16;

export interface Tokens {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  /** Counted by Kite with the model's tokenizer, not reported by the provider (vscode-lm): shown with "~". */
  estimated: boolean;
}
export type TokenKind = Exclude<keyof Tokens, 'estimated'>;

export interface Row {
  /** Position in the store's rows (and events) arrays. */
  index: number;
  seq: number;
  kind: KiteEvent['kind'];
  t: number;
  /** Index of the group (model turn) this row belongs to; group 0 holds what precedes turn 1. */
  group: number;
  /** Turn number shown (0 before the first model reply). */
  turn: number;
  /** The first row of its group (the model reply, or the session start for group 0). */
  head: boolean;
  level: RowLevel;
  /** Short label: the tool name, "Turn 3", "Gate failed", … */
  title: string;
  /** One line: argument summary, stop reason, the failing check, the rule, … */
  summary: string;
  /** Short status word shown in its own column: ok, error, deny, approved, … */
  status: string;
  tool: string | null;
  ms: number | null;
  tokens: Tokens | null;
  cost: number | null;
  actions: number;
}

/** Context a row needs from earlier events (tool names by tool_use id, current group). */
export interface RowContext {
  group: number;
  turn: number;
  head: boolean;
  toolNameOf(id: string): string | null;
}


/** "src/a.ts (1.2k chars)", "npm test", "pattern=foo path=src" — never longer than `max`. */
export function summarizeArgs(args: unknown, max = 140): string {
  if (args === null || args === undefined) return '';
  if (typeof args !== 'object') return clip(String(args), max);
  if (Array.isArray(args)) return clip(JSON.stringify(args), max);
  const obj = args as Record<string, unknown>;
  const parts: string[] = [];
  for (const k of ROW_NAMED_ARGS) {
    const v = obj[k];
    if (typeof v === 'string') parts.push(k === 'command' || k === 'path' ? v : `${k}=${v}`);
  }
  for (const [k, v] of Object.entries(obj)) {
    if (ROW_NAMED_ARGS.includes(k)) continue;
    if (typeof v === 'string') {
      // By its length once over ROW_ARG_SHOWN_WHOLE (a preview's marker holds the full length).
      const length = fullLengthOf(v);
      parts.push(length > ROW_ARG_SHOWN_WHOLE || v.includes('\n') ? `${k}: ${compactNumber(length)} chars` : `${k}=${JSON.stringify(v)}`);
    } else if (v !== undefined) parts.push(`${k}=${clip(JSON.stringify(v), 30)}`);
    if (parts.join(' ').length > max) break;
  }
  return clip(parts.join(' · '), max);
}

function clip(s: string, max: number): string {
  const one = s.replace(/\s+/g, ' ');
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

function modelSummary(e: Extract<KiteEvent, { kind: 'model' }>): string {
  const names: string[] = [];
  let text = '';
  for (const b of e.content) {
    if (b.type === 'tool_use') names.push(b.name);
    else if (b.type === 'text' && !text) text = b.text;
  }
  const calls = names.length ? `→ ${names.join(', ')}` : '';
  const said = text ? firstLine(text, 120) : '';
  return [said, calls].filter(Boolean).join('  ');
}

const USER_TITLES: Record<Extract<KiteEvent, { kind: 'user' }>['reason'], string> = {
  briefing: 'Briefing',
  gate_feedback: 'Gate feedback',
  notice: 'Notice',
  steer: 'You told the agent',
  hook_context: 'Hook said',
};

const BAD_STOPS = new Set(['max_tokens', 'refusal', 'model_context_window_exceeded']);

/** Builds the row of one event. Pure; O(size of the event's short fields). */
export function rowFromEvent(e: KiteEvent, index: number, ctx: RowContext): Row {
  const row: Row = {
    index,
    seq: e.seq,
    kind: e.kind,
    t: e.t,
    group: ctx.group,
    turn: ctx.turn,
    head: ctx.head,
    level: 'info',
    title: '',
    summary: '',
    status: '',
    tool: null,
    ms: null,
    tokens: null,
    cost: null,
    actions: ACTION_RAW | ACTION_REPLAY | ACTION_RESTORE,
  };
  switch (e.kind) {
    case 'session_start':
      row.title = 'Session start';
      row.summary = `${e.feature} — ${e.title} · ${e.model} · ${e.mode}${e.replay_of ? ' · replay' : ''}`;
      break;
    case 'user':
      row.title = USER_TITLES[e.reason];
      row.summary = firstLine(e.text);
      if (e.reason === 'gate_feedback') row.level = 'warn';
      break;
    case 'model':
      row.title = `Turn ${e.turn}`;
      row.status = e.stop;
      row.summary = modelSummary(e);
      row.ms = e.ms;
      row.tokens = {
        input: e.input_tokens,
        cacheRead: e.cache_read_input_tokens,
        cacheWrite: e.cache_creation_input_tokens,
        output: e.output_tokens,
        estimated: e.estimated === true,
      };
      row.cost = e.cost_usd;
      row.level = BAD_STOPS.has(e.stop) ? 'warn' : 'info';
      break;
    case 'model_retry':
      row.title = 'Model retry';
      row.status = `#${e.attempt}`;
      row.summary = `${e.reason} — waited ${e.wait_ms} ms`;
      row.level = 'warn';
      break;
    case 'proposed':
      row.title = e.name;
      row.tool = e.name;
      row.status = 'proposed';
      row.summary = summarizeArgs(e.args);
      break;
    case 'policy':
      row.title = `Policy: ${e.decision}`;
      row.tool = e.name;
      row.status = e.decision;
      row.summary = `${e.name} · ${e.rule}${e.reason ? ` — ${e.reason}` : ''}`;
      row.level = e.decision === 'deny' ? 'error' : e.decision === 'ask' ? 'warn' : 'ok';
      break;
    case 'approval_request':
      row.title = 'Approval asked';
      row.tool = e.name;
      row.status = 'asked';
      row.summary = `${e.name} · ${e.command ?? e.path ?? summarizeArgs(e.args)}`;
      row.level = 'warn';
      break;
    case 'approval': {
      const name = ctx.toolNameOf(e.id);
      row.tool = name;
      row.title = e.decision === 'approve' ? 'Approved' : e.decision === 'deny' ? 'Denied' : 'Edited';
      row.status = e.decision === 'approve' ? 'approved' : e.decision === 'deny' ? 'denied' : 'edited';
      const always = e.always ? ' · always allow' : '';
      if (e.decision === 'deny') row.summary = `${name ?? e.id}${e.reason ? ` — ${e.reason}` : ''}`;
      else if (e.decision === 'edit') row.summary = `${name ?? e.id} — edited by you${e.diff ? ` (${countDiffLines(e.diff)} lines changed)` : ''}${always}`;
      else row.summary = `${name ?? e.id}${always}`;
      row.level = e.decision === 'deny' ? 'error' : e.decision === 'edit' ? 'warn' : 'ok';
      if (e.decision === 'edit') row.actions |= ACTION_DIFF;
      break;
    }
    case 'intent':
      row.title = 'Intent';
      row.tool = e.name;
      row.status = e.effect;
      row.summary = `${e.name} · ${e.path ?? summarizeArgs(e.args)}`;
      if (e.effect === 'write') row.actions |= ACTION_DIFF;
      break;
    case 'tool': {
      row.title = e.name;
      row.tool = e.name;
      row.ms = e.ms;
      row.level = e.is_error ? 'error' : 'ok';
      row.status = e.is_error ? (e.error_code ?? 'error') : e.exit_code !== undefined && e.exit_code !== null ? `exit ${e.exit_code}` : 'ok';
      const args = summarizeArgs(e.args, 100);
      row.summary = e.is_error ? `${args} — ${firstLine(e.output, 120)}` : args;
      if (e.recovered) row.summary += ' (recovered on resume)';
      row.actions |= ACTION_OUTPUT;
      if (e.post_hash || isWriteTool(e.name)) row.actions |= ACTION_DIFF;
      break;
    }
    case 'gate': {
      const failing = e.checks.find((c) => c.exit_code !== 0 || c.timed_out);
      row.title = e.passed ? 'Gate passed' : 'Gate failed';
      row.status = e.passed ? 'passed' : 'failed';
      row.level = e.passed ? 'ok' : 'error';
      row.ms = e.checks.reduce((s, c) => s + c.ms, 0);
      row.summary = failing
        ? `attempt ${e.attempt} · ${failing.command} ${checkExitText(failing)}${failing.output_tail ? ` — ${lastLine(failing.output_tail)}` : ''}`
        : `attempt ${e.attempt} · ${e.checks.length} check${e.checks.length === 1 ? '' : 's'} passed`;
      row.actions |= ACTION_OUTPUT;
      break;
    }
    case 'budget_stop':
      row.title = 'Budget stop';
      row.status = e.limit;
      row.summary = e.limit === 'usd' ? `spent ${formatUsd(e.used)} of ${formatUsd(e.max)}` : `${e.limit}: used ${compactNumber(e.used)} of ${compactNumber(e.max)}`;
      row.level = 'error';
      break;
    case 'compaction':
      // Tokens before → after and what was kept: the cached prefix is rebuilt once, here.
      row.title = 'Compaction';
      row.status = e.summary ? 'summarized' : 'stubbed';
      row.summary = `${compactionLine(e)}${e.summary ? ` · summary ${formatUsd(e.summary.cost_usd)}` : ''}`;
      row.level = 'warn';
      break;
    case 'warning':
      row.title = 'Warning';
      row.status = e.code;
      row.summary = firstLine(e.message);
      row.level = 'warn';
      break;
    case 'paused':
      row.title = 'Paused';
      row.summary = `${e.reason}${e.pending.length ? ` · ${e.pending.length} pending approval${e.pending.length === 1 ? '' : 's'}` : ''}`;
      row.level = 'warn';
      break;
    case 'resumed':
      row.title = 'Resumed';
      row.summary = `after seq ${e.after_seq} · ${e.mode}${e.note ? ` · ${firstLine(e.note, 80)}` : ''}`;
      break;
    case 'divergence':
      row.title = 'Divergence';
      row.status = 'diverged';
      row.summary = `at seq ${e.at_seq}: ${firstLine(e.what)}`;
      row.level = 'error';
      break;
    case 'progress': {
      const counts = new Map<string, number>();
      for (const f of e.features) counts.set(f.status, (counts.get(f.status) ?? 0) + 1);
      row.title = 'Progress';
      row.summary = [...counts].map(([s, n]) => `${n} ${s.replace('_', ' ')}`).join(', ') + (e.proposals.length ? ` · ${e.proposals.length} proposed` : '');
      break;
    }
    case 'session_end':
      row.title = 'Session end';
      row.status = e.status;
      row.summary = `${e.status} · ${e.turns} turns · ${compactNumber(e.tokens)} tokens · ${formatUsd(e.cost_usd)}${e.commit ? ` · ${e.commit.slice(0, 8)}` : ''}${e.error ? ` — ${firstLine(e.error, 100)}` : e.summary ? ` — ${firstLine(e.summary, 100)}` : ''}`;
      row.level = e.status === 'done' ? 'ok' : e.status === 'cancelled' ? 'warn' : 'error';
      break;
    case 'hook':
      row.title = `Hook ${hookLabel(e)}`;
      row.status = e.decision;
      row.summary = `${firstLine(e.command, 60)}${e.reason ? ` — ${firstLine(e.reason, 100)}` : ''}${e.context ? ` — said: ${firstLine(e.context, 100)}` : ''} (${e.ms} ms)`;
      row.level = e.decision === 'block' ? 'warn' : 'ok';
      break;
    case 'person_edit':
      row.title = 'Your edit';
      row.summary = `${e.path} ${e.hash === null ? 'removed' : 'saved'} by you in the editor during the run`;
      break;
    case 'restore':
      row.title = 'Restore';
      row.status = `to ${e.to_seq}`;
      row.summary = `${e.files.length} file${e.files.length === 1 ? '' : 's'} put back to after event ${e.to_seq}${e.kept.length ? ` · ${e.kept.length} kept (${e.kept.map((k) => k.path).join(', ')})` : ''}`;
      row.level = e.kept.length ? 'warn' : 'ok';
      break;
    default:
      return assertNever(e, 'event kind');
  }
  return row;
}

export function isWriteTool(name: string): boolean {
  return name === 'write_file' || name === 'edit_file';
}

function countDiffLines(diff: string): number {
  let n = 0;
  for (const line of diff.split('\n')) if ((line.startsWith('+') || line.startsWith('-')) && !line.startsWith('+++') && !line.startsWith('---')) n++;
  return n;
}

function lastLine(text: string): string {
  const lines = text.trimEnd().split('\n');
  return firstLine(lines[lines.length - 1] ?? '', 100);
}

/** The text a search matches against (filters.ts matchRows gives the same answer from the columns). */
export function haystack(row: Row): string {
  return `${row.title}\u0000${row.summary}\u0000${row.status}\u0000${row.tool ?? ''}\u0000${row.kind}`.toLowerCase();
}
