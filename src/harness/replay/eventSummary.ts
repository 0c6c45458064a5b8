// One-line, human-readable summaries of events: transcript lines, frame names and stop texts.
import { compactionLine } from '../protocol/compaction';
import { showControlChars } from '../protocol/controlChars';
import { assertNever, type KiteEvent } from '../protocol/events';
import { hookLabel } from '../protocol/hookLabel';
import { thousands } from '../protocol/thousands';

export function oneLine(text: string, max = 100): string {
  // Cut before collapsing whitespace: transcripts of 100k events summarize megabytes of output.
  // Control characters escaped before whitespace is collapsed: a `\r` must show, not become a space.
  const s = showControlChars(text.length > max * 4 ? text.slice(0, max * 4) : text).replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** Long strings cut short before stringifying (a write_file's content can be megabytes). */
function shorten(v: unknown, max: number): unknown {
  if (typeof v === 'string') return v.length > max ? v.slice(0, max) : v;
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = typeof x === 'string' && x.length > max ? x.slice(0, max) : x;
    return out;
  }
  return v;
}

export function compactJson(v: unknown, max = 100): string {
  let s: string;
  try {
    s = JSON.stringify(shorten(v, max)) ?? 'undefined';
  } catch {
    s = String(v);
  }
  return oneLine(s, max);
}

export function fmtInt(n: number): string {
  // Not toLocaleString: Intl formatting is the slowest part of a 100k-line transcript.
  return thousands(Math.round(n));
}

export function fmtUsd(n: number): string {
  return `$${n.toFixed(n < 1 ? 4 : 2)}`;
}

/** The workspace-relative path a tool call writes, if its arguments name one. */
export function argPath(args: unknown): string | null {
  if (args && typeof args === 'object' && 'path' in args && typeof (args as { path: unknown }).path === 'string') return (args as { path: string }).path;
  return null;
}

function argCommand(args: unknown): string | null {
  if (args && typeof args === 'object' && 'command' in args && typeof (args as { command: unknown }).command === 'string') return (args as { command: string }).command;
  return null;
}

/** Short description of a tool call's arguments: the path or command when there is one. */
export function callTarget(name: string, args: unknown): string {
  return showControlChars(rawCallTarget(name, args), { oneLine: true });
}

function rawCallTarget(name: string, args: unknown): string {
  const p = argPath(args);
  if (p !== null) return `${name} ${p}`;
  const c = argCommand(args);
  if (c !== null) return `${name} "${oneLine(c, 60)}"`;
  return `${name} ${compactJson(args, 60)}`;
}

/** The one-line summary of an event, control characters escaped (model text must not drive a terminal or a debug console). */
export function summarize(e: KiteEvent): string {
  return showControlChars(summarizeRaw(e), { oneLine: true });
}

function summarizeRaw(e: KiteEvent): string {
  switch (e.kind) {
    case 'session_start':
      return `feature ${e.feature} "${oneLine(e.title, 50)}" · ${e.model} · ${e.mode}${e.checks.length ? ` · checks: ${oneLine(e.checks.join('; '), 60)}` : ''}`;
    case 'user':
      return `(${e.reason}) "${oneLine(e.text, 80)}"`;
    case 'model': {
      const text = e.content.filter((b) => b.type === 'text').map((b) => (b.type === 'text' ? b.text : '')).join(' ');
      const calls = e.content.filter((b) => b.type === 'tool_use').map((b) => (b.type === 'tool_use' ? b.name : ''));
      return (
        `turn ${e.turn} · stop ${e.stop} · ${fmtInt(e.input_tokens)} in / ${fmtInt(e.output_tokens)} out · ${fmtUsd(e.cost_usd)}` +
        (text ? ` · "${oneLine(text, 60)}"` : '') +
        (calls.length ? ` → ${calls.join(', ')}` : '')
      );
    }
    case 'model_retry':
      return `turn ${e.turn} · attempt ${e.attempt} · ${oneLine(e.reason, 60)} · wait ${fmtInt(e.wait_ms)} ms`;
    case 'proposed':
      return `${e.name} ${compactJson(e.args, 90)}`;
    case 'policy':
      return `${e.name} → ${e.decision} (${e.rule})${e.reason ? ` ${oneLine(e.reason, 60)}` : ''}`;
    case 'approval_request':
      return e.effect === 'exec' && e.command !== null ? `run "${oneLine(e.command, 70)}"` : e.path !== null ? `${e.name} ${e.path}` : callTarget(e.name, e.args);
    case 'approval':
      return `${e.decision}${e.reason ? ` "${oneLine(e.reason, 60)}"` : ''}${e.always ? ' (always)' : ''}`;
    case 'intent':
      return `${e.effect} ${e.path !== null ? `${e.name} ${e.path}` : callTarget(e.name, e.args)}`;
    case 'tool': {
      const status = e.is_error ? `✗ ${e.error_code ?? 'error'}` : '✓';
      const exit = e.exit_code !== undefined && e.exit_code !== null ? ` · exit ${e.exit_code}` : '';
      return `${callTarget(e.name, e.args)} ${status}${exit} · ${fmtInt(e.ms)} ms · "${oneLine(e.output, 60)}"`;
    }
    case 'gate':
      return `attempt ${e.attempt} · ${e.passed ? 'passed' : 'FAILED'}${e.checks.length ? ' · ' + e.checks.map((c) => `${oneLine(c.command, 30)} → ${c.timed_out ? 'timeout' : String(c.exit_code)}`).join('; ') : ''}`;
    case 'budget_stop':
      return `${e.limit} ${fmtInt(e.used)} / ${fmtInt(e.max)}`;
    case 'compaction':
      return compactionLine(e);
    case 'warning':
      return `${e.code}: ${oneLine(e.message, 80)}`;
    case 'paused':
      return `${oneLine(e.reason, 60)}${e.pending.length ? ` · pending ${e.pending.join(', ')}` : ''}`;
    case 'resumed':
      return `after seq ${e.after_seq} · ${e.mode}${e.note ? ` · ${oneLine(e.note, 60)}` : ''}`;
    case 'divergence':
      return `at seq ${e.at_seq} · ${oneLine(e.what, 80)}`;
    case 'progress':
      return e.features.map((f) => `${f.id}:${f.status}`).join(' ') + (e.proposals.length ? ` · ${e.proposals.length} proposals` : '');
    case 'session_end':
      return `${e.status} · ${e.turns} turns · ${fmtInt(e.tokens)} tokens · ${fmtUsd(e.cost_usd)}${e.commit ? ` · commit ${e.commit.slice(0, 8)}` : ''}`;
    case 'hook':
      return `${hookLabel(e)} ${e.decision}${e.reason ? `: ${oneLine(e.reason, 60)}` : ''}${e.context ? ` · context: ${oneLine(e.context, 60)}` : ''} · ${oneLine(e.command, 40)} · ${e.ms} ms`;
    case 'person_edit':
      return `${e.path} ${e.hash === null ? 'removed' : 'saved'} by the person in the editor`;
    case 'restore':
      return `to after seq ${e.to_seq} · ${e.files.length} file${e.files.length === 1 ? '' : 's'}${e.kept.length ? ` · ${e.kept.length} kept` : ''}`;
    default:
      return assertNever(e, 'event');
  }
}

/** The transcript line of an event (without indentation). */
export function eventLine(e: KiteEvent): string {
  return `#${e.seq} ${e.t.toFixed(2)}s ${e.kind}  ${summarize(e)}`;
}
