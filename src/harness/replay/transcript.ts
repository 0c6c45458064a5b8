// The generated transcript of a run: the "source code" the debugger steps through. Line 1 names
// the run; then one header line per turn (plus one for the events before the first turn) and one
// line per event under it. Lines are 1-based. Pure: the extension's content provider and the
// debug adapter build the same text from the same events, so line numbers always agree.
import type { KiteEvent } from '../protocol/events';
import { showControlChars } from '../protocol/controlChars';
import { tokensOf } from '../protocol/totals';
import { eventLine, fmtInt, fmtUsd, oneLine } from './eventSummary';

export interface TurnGroup {
  turn: number; // 0 for the events before the first model call
  first: number; // event index
  last: number; // event index (inclusive)
  headerLine: number;
}

export interface Transcript {
  lines: string[]; // lines[0] is line 1
  lineOfEvent: Int32Array; // event index -> 1-based line
  eventOfLine: Int32Array; // (line - 1) -> event index, or -1 for the run header, -(2 + group) for turn headers
  groupOfEvent: Int32Array; // event index -> index into groups
  groups: TurnGroup[];
}

function turnField(e: KiteEvent): number | null {
  return e.kind === 'model' || e.kind === 'model_retry' || e.kind === 'proposed' ? e.turn : null;
}

/** Split events into turn groups: a group starts where an event names a new turn number. */
export function groupTurns(events: readonly KiteEvent[]): { groups: Omit<TurnGroup, 'headerLine'>[]; groupOfEvent: Int32Array } {
  const groups: Omit<TurnGroup, 'headerLine'>[] = [];
  const groupOfEvent = new Int32Array(events.length);
  let current: Omit<TurnGroup, 'headerLine'> | null = null;
  for (let i = 0; i < events.length; i++) {
    const t = turnField(events[i]);
    if (!current || (t !== null && t !== current.turn)) {
      current = { turn: t ?? 0, first: i, last: i };
      groups.push(current);
    }
    current.last = i;
    groupOfEvent[i] = groups.length - 1;
  }
  return { groups, groupOfEvent };
}

function runHeader(events: readonly KiteEvent[], name: string): string {
  const start = events.find((e) => e.kind === 'session_start');
  const end = [...events].reverse().find((e) => e.kind === 'session_end');
  const parts = [`Kite run ${events[0]?.run || name}`];
  if (start?.kind === 'session_start') parts.push(`feature ${start.feature} "${oneLine(start.title, 60)}"`, start.model);
  if (end?.kind === 'session_end') parts.push(`${end.status} after ${end.turns} turns, ${fmtInt(end.tokens)} tokens, ${fmtUsd(end.cost_usd)}`);
  else parts.push('no session_end (interrupted or still running)');
  parts.push(`${events.length} events`);
  // Titles can come from the agent (QUEUE proposals): escaped like every other line.
  return showControlChars(parts.join(' · '), { oneLine: true });
}

function groupHeader(events: readonly KiteEvent[], g: Omit<TurnGroup, 'headerLine'>): string {
  if (g.turn === 0) return `── Start ──`;
  for (let i = g.first; i <= g.last; i++) {
    const e = events[i];
    if (e.kind === 'model') {
      return `── Turn ${g.turn} · ${e.stop} · ${fmtInt(tokensOf(e))} tokens · ${fmtUsd(e.cost_usd)} ──`;
    }
  }
  return `── Turn ${g.turn} ──`;
}

export function buildTranscript(events: readonly KiteEvent[], name = 'run'): Transcript {
  const { groups: raw, groupOfEvent } = groupTurns(events);
  const lines: string[] = [runHeader(events, name)];
  const eventOfLine: number[] = [-1];
  const lineOfEvent = new Int32Array(events.length);
  const groups: TurnGroup[] = [];
  for (let gi = 0; gi < raw.length; gi++) {
    const g = raw[gi];
    lines.push(groupHeader(events, g));
    eventOfLine.push(-(2 + gi));
    groups.push({ ...g, headerLine: lines.length });
    for (let i = g.first; i <= g.last; i++) {
      lines.push(`    ${eventLine(events[i])}`);
      eventOfLine.push(i);
      lineOfEvent[i] = lines.length;
    }
  }
  return { lines, lineOfEvent, eventOfLine: Int32Array.from(eventOfLine), groupOfEvent, groups };
}

/**
 * The event a breakpoint or goto on `line` refers to: the event on that line, the first event of
 * the turn for a turn header, the first event for the run header; null past the end.
 */
export function eventForLine(t: Transcript, line: number): number | null {
  if (line < 1 || line > t.lines.length || t.lineOfEvent.length === 0) return null;
  const v = t.eventOfLine[line - 1];
  if (v >= 0) return v;
  if (v === -1) return 0;
  return t.groups[-v - 2].first;
}

export function transcriptText(t: Transcript): string {
  return t.lines.join('\n') + '\n';
}
