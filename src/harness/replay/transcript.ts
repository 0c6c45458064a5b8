// The generated transcript of a run: the "source code" the debugger steps through. Line 1 names
// the run; then one header line per turn (plus one for the events before the first turn) and one
// line per event under it. Lines are 1-based. Pure: the extension's content provider and the
// debug adapter build the same text from the same events, so line numbers always agree.
import type { EventOf, KiteEvent } from '../protocol/events';
import type { LogProblem } from '../protocol/parse';
import { EventIndex } from './eventIndex';
import type { EventList } from './eventList';
import { i32 } from '../events/growArray';
import { COMPLETE, type IndexProgress } from './indexProgress';
import { showControlChars } from '../protocol/controlChars';
import { tokensOf } from '../protocol/totals';
import { eventLine, fmtInt, fmtUsd, oneLine } from './eventSummary';
import { windowLabel, type TranscriptWindow } from './transcriptWindow';

export interface TurnGroup {
  turn: number; // 0 for the events before the first model call
  first: number; // event index
  last: number; // event index (inclusive)
  headerLine: number;
}

/**
 * Line numbers are known from the index alone; the text of a line is made when it is asked for
 * (a 1M-event transcript is never built at launch, only when a client asks for the whole text).
 * For a log still being indexed it covers the events indexed so far: new events only add lines
 * at the end (their turn's header first when they start one), so no line number ever changes.
 */
export interface Transcript {
  readonly lineCount: number;
  /** The text of 1-based line n (1 <= n <= lineCount). */
  line(n: number): string;
  readonly lineOfEvent: Int32Array; // event index -> 1-based line
  readonly eventOfLine: Int32Array; // (line - 1) -> event index, or -1 for the run header, -(2 + group) for turn headers
  readonly groupOfEvent: Int32Array; // event index -> index into groups
  readonly groups: TurnGroup[];
  /** Take in the events indexed since the last call (a log still being indexed), at most `limit`
   *  of them; true while some are left. */
  extend(limit?: number): boolean;
}

/** The run's header line. While a big log is still being indexed it says how far the index has
 *  got (how the run ended and how many events it has need the whole log): the adapter re-serves
 *  the document with the final line once indexing is done (TRANSCRIPT_CHANGED_EVENT). */
function runHeader(index: EventIndex, name: string, indexing: IndexProgress): string {
  const { events } = index;
  const start = index.sessionStart;
  const end = index.lastSessionEnd >= 0 ? index.events.at(index.lastSessionEnd) : null;
  const parts = [`Kite run ${(events.length ? events.at(0).run : '') || name}`];
  if (start) parts.push(`feature ${start.feature} "${oneLine(start.title, 60)}"`, start.model);
  if (!indexing.complete) parts.push(`reading the log: ${events.length} events so far`);
  else {
    if (end?.kind === 'session_end') parts.push(`${end.status} after ${end.turns} turns, ${fmtInt(end.tokens)} tokens, ${fmtUsd(end.cost_usd)}`);
    else parts.push('no session_end (interrupted or still running)');
    parts.push(`${events.length} events`);
  }
  // Titles can come from the agent (QUEUE proposals): escaped like every other line.
  return showControlChars(parts.join(' · '), { oneLine: true });
}

function groupHeader(index: EventIndex, gi: number): string {
  const g = index.groups[gi];
  if (g.turn === 0) return `── Start ──`;
  const m = index.modelOfGroup[gi];
  if (m >= 0) {
    const e = index.events.at(m) as EventOf<'model'>;
    return `── Turn ${g.turn} · ${e.stop} · ${fmtInt(tokensOf(e))} tokens · ${fmtUsd(e.cost_usd)} ──`;
  }
  return `── Turn ${g.turn} ──`;
}

/** The transcript of an indexed log: its line structure now (of the first `firstEvents` events;
 *  extend() takes in the rest), each line's text on demand. `indexing`: complete, or how far a
 *  log being indexed has got. */
export function transcriptOf(index: EventIndex, name = 'run', indexing: IndexProgress = COMPLETE, firstEvents = Infinity): Transcript {
  const eventOfLine = i32();
  const lineOfEvent = i32();
  const groups: TurnGroup[] = [];
  // A whole index: the exact sizes now (no doubling of both tables on one event later).
  if (indexing.complete) {
    lineOfEvent.reserve(index.events.length);
    eventOfLine.reserve(index.events.length + index.groups.length + 1);
  }
  eventOfLine.push(-1);
  let trimmed = false;
  const extend = (limit = Infinity): boolean => {
    const n = index.events.length;
    const groupOf = index.groupOfEvent;
    const end = Math.min(n, lineOfEvent.length + limit);
    for (let i = lineOfEvent.length; i < end; i++) {
      const gi = groupOf[i];
      while (groups.length <= gi) {
        const g = index.groups[groups.length];
        eventOfLine.push(-(2 + groups.length));
        groups.push({ turn: g.turn, first: g.first, last: g.first, headerLine: eventOfLine.length });
      }
      groups[gi].last = i;
      eventOfLine.push(i);
      lineOfEvent.push(eventOfLine.length);
    }
    if (indexing.complete && !trimmed && lineOfEvent.length === n) {
      eventOfLine.trim();
      lineOfEvent.trim();
      trimmed = true;
    }
    return lineOfEvent.length < n;
  };
  extend(firstEvents);
  const text = (l: number): string => {
    const v = eventOfLine.view[l - 1];
    if (v >= 0) return `    ${eventLine(index.events.at(v))}`;
    if (v === -1) return runHeader(index, name, indexing);
    return groupHeader(index, -v - 2);
  };
  return {
    get lineCount() {
      return eventOfLine.length;
    },
    line: text,
    get lineOfEvent() {
      return lineOfEvent.view;
    },
    get eventOfLine() {
      return eventOfLine.view;
    },
    get groupOfEvent() {
      return index.groupOfEvent;
    },
    groups,
    extend,
  };
}

/** transcriptOf a whole indexed log, its line table built a slice of events at a time with the
 *  event loop free between slices (the extension host: 1M events took ~80 ms in one task). */
export async function transcriptOfSliced(index: EventIndex, name = 'run', slice = 100_000): Promise<Transcript> {
  const t = transcriptOf(index, name, COMPLETE, 0);
  while (t.extend(slice)) await new Promise<void>((r) => setImmediate(r));
  return t;
}

/** The transcript of events in memory (the extension's transcript documents, tests). */
export function buildTranscript(events: readonly KiteEvent[] | EventList, name = 'run'): Transcript {
  return transcriptOf(new EventIndex(events), name);
}

/**
 * The event a breakpoint or goto on `line` refers to: the event on that line, the first event of
 * the turn for a turn header, the first event for the run header; null past the end.
 */
export function eventForLine(t: Transcript, line: number): number | null {
  if (line < 1 || line > t.lineCount || t.lineCount < 2) return null; // no events: no lines to stop on
  const v = t.eventOfLine[line - 1];
  if (v >= 0) return v;
  if (v === -1) return 0;
  return t.groups[-v - 2].first;
}

export function transcriptText(t: Transcript): string {
  const lines: string[] = new Array<string>(t.lineCount);
  for (let l = 1; l <= t.lineCount; l++) lines[l - 1] = t.line(l);
  return lines.join('\n') + '\n';
}

/**
 * The same text built a slice of lines at a time, yielding to the event loop between slices: a
 * 1M-event transcript parses every event, and the loop it runs on (the extension host, the
 * adapter answering requests) must not stop for that long.
 */
export async function transcriptTextSliced(t: Transcript): Promise<string> {
  const lines: string[] = new Array<string>(t.lineCount);
  const pace = slicePacer();
  for (let l = 1; l <= t.lineCount; l++) {
    lines[l - 1] = t.line(l);
    if (pace.due(l)) await pace.yield();
  }
  return lines.join('\n') + '\n';
}

/** When a slice of line making has held the loop long enough (lines cost from ~1 µs to a whole
 *  event's parse, so a fixed number of lines per slice was either too many or too few). */
function slicePacer(ms = 8): { due(l: number): boolean; yield(): Promise<void> } {
  let since = performance.now();
  return {
    due: (l) => l % 64 === 0 && performance.now() - since >= ms,
    yield: async () => {
      await new Promise<void>((r) => setImmediate(r));
      since = performance.now();
    },
  };
}

/** A transcript document as shown: the text, then the log's problems below it (shifting no line). */
export function withLogProblems(text: string, problems: readonly LogProblem[]): string {
  if (!problems.length) return text;
  const sorted = [...problems].sort((a, b) => a.line - b.line);
  return `${text}\n${sorted.map((p) => `! line ${p.line} of the log skipped: ${p.message}`).join('\n')}\n`;
}

/**
 * The document of one window of a huge log's transcript (transcriptSource.ts): lines [from, to]
 * of the whole, then a footer saying which part this is (below the window's lines, so it shifts
 * nothing). Built in slices like the whole text.
 */
export async function transcriptWindowText(t: Transcript, w: TranscriptWindow): Promise<string> {
  const to = Math.min(w.to, t.lineCount);
  const lines: string[] = [];
  const pace = slicePacer();
  for (let l = w.from; l <= to; l++) {
    lines.push(t.line(l));
    if (pace.due(l)) await pace.yield();
  }
  // No total line count: a window is served as soon as the indexer is past it (indexWaits.ts).
  const part = `this run's transcript is shown in parts of ${fmtInt(w.to - w.from + 1)} lines`;
  if (w.from > to) lines.push(`── ${windowLabel(w)}: past the end of the transcript (${part}) ──`);
  else lines.push('', `── ${windowLabel({ from: w.from, to })} (${part}; ${to < t.lineCount ? 'stepping past the last line opens the next part' : 'the end of the transcript'}) ──`);
  return lines.join('\n') + '\n';
}
