// Messages between the extension and the timeline webview. Both sides parse every incoming
// message with these schemas (ARCHITECTURE.md §5.10). The webview keeps its own state: after the
// `ready` handshake the extension sends one `snapshot` (the history so far, possibly in several
// chunks) and from then on only `append` increments, never the whole history again.
import { z } from 'zod';
import type { TextLengths } from './contextTally';
import { EventSchema } from './events';

export const LogProblemSchema = z.object({ line: z.number().int().nonnegative(), message: z.string() });
export type LogProblem = z.infer<typeof LogProblemSchema>;

/** What the view shows: a log file, followed live or not. */
export const TimelineSourceSchema = z.object({
  log: z.string(), // absolute path of the .jsonl file
  title: z.string(), // e.g. the run id
  live: z.boolean(), // the file is being tailed
});
export type TimelineSource = z.infer<typeof TimelineSourceSchema>;

/** Events per message the extension sends while a history loads. The reader's thread reads and
 *  packs them; the host's loop only relays each (~33 KB deflated at 1,000 rows) and the page applies
 *  it in ~7.5 ms (timeline bench), so the size is set by the page's frame, not the host. */
export const VIEW_BATCH = 1000;
/** And at most this many bytes of log lines per such message (big events make small batches). At
 *  256 KB a 1M-event log (~1 KB a line) went as ~4,000 messages and their `applied` reports, each a
 *  wake-up of the host and a deflate in VS Code's websocket: 1 MiB halves the load (~45 s -> ~21 s). */
export const VIEW_BATCH_BYTES = 1024 * 1024;
/** Events the page keeps whole (the most recent ones; the details of older rows are asked for). */
export const VIEW_RECENT_EVENTS = 2000;
/** Events that arrive (a live run, a history loading) reach the screen at most this often, ms, on a
 *  wall-clock grid every view of the window shares: each browser frame restyles, lays out, paints
 *  and composites the whole window, and two views drawing every message they got made ~33 frames a
 *  second (~14 ms of the renderer's main thread each, plus raster and GPU work) on the CPUs the
 *  extension host shares. What a person does (scroll, select, keys, a filter) is drawn at the next
 *  frame as before. */
export const VIEW_DATA_FRAME_MS = 100;

export const HostMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('snapshot'),
    source: TimelineSourceSchema,
    /** About how many events the history has (lines in the file), for a progress count. */
    total: z.number().int().nonnegative(),
    events: z.array(EventSchema),
    problems: z.array(LogProblemSchema),
    /** More of the history follows as `append` messages with loading true, the last with false. */
    loading: z.boolean(),
    /** As for `append`. */
    rowsOnly: z.boolean().optional(),
  }),
  z.object({
    type: z.literal('append'),
    events: z.array(EventSchema),
    problems: z.array(LogProblemSchema),
    loading: z.boolean(),
    /** The events are cut to what their rows show (trimEventForRow): the page keeps none of them
     *  whole, and asks for one by seq to show it. Set for a big history's batches far from its end. */
    rowsOnly: z.boolean().optional(),
  }),
  /** Tailing state changed (the file was removed, the run ended, the view stopped following). */
  z.object({ type: z.literal('status'), live: z.boolean(), message: z.string().nullable() }),
  /** Nothing to show (no run yet): the view shows the message instead of rows. */
  z.object({ type: z.literal('empty'), message: z.string() }),
  /** Move the selection to an event (e.g. from the debugger or a command). */
  z.object({ type: z.literal('reveal'), seq: z.number().int().nonnegative() }),
  /** The reply of turn `turn` as it is generated: deltas to add to the current turn row (the
   *  `model` event, when it arrives, replaces them with the whole reply). */
  z.object({ type: z.literal('stream'), turn: z.number().int().positive(), text: z.string(), thinking: z.string() }),
  /** What became of a message typed in the "Tell the agent" box (the page announces it). */
  z.object({ type: z.literal('steerResult'), ok: z.boolean(), message: z.string() }),
  /** The answer to the page's `detail` request: the event with this seq, trimmed for the view
   *  (null: the log no longer has it). The page keeps only recent events; older ones come this way. */
  z.object({ type: z.literal('detail'), seq: z.number().int().nonnegative(), event: EventSchema.nullable() }),
]);
export type HostMessage = z.infer<typeof HostMessageSchema>;

const seq = z.number().int().nonnegative();

export const ViewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** The diff of a write as proposed (the model's args) and as applied (after any edit). */
  z.object({ type: z.literal('openDiff'), seq }),
  /** The full output of a tool call (the webview only holds a preview of long outputs). */
  z.object({ type: z.literal('openOutput'), seq }),
  /** The event exactly as it is in the log. */
  z.object({ type: z.literal('openRaw'), seq }),
  /** Executes `kite.replayInDebugger` with {log, seq}. */
  z.object({ type: z.literal('replayFromHere'), seq }),
  /** A message for the running agent, typed in the "Tell the agent" box (executes kite.tellAgent). */
  z.object({ type: z.literal('steer'), text: z.string().min(1).max(20_000) }),
  /** Executes `kite.addToEvals` with {log}: an eval case from this run (`kite eval add`). */
  z.object({ type: z.literal('addToEvals') }),
  /** Executes `kite.restoreToHere` with {log, seq} (it lists the files and asks). */
  z.object({ type: z.literal('restoreToHere'), seq }),
  /** The event with this seq, for the details pane (the page does not keep every event). */
  z.object({ type: z.literal('detail'), seq }),
  /** Test hook and diagnostics: what the view holds after it applied a message. */
  z.object({
    type: z.literal('applied'),
    /** Batches (the snapshot and appends) applied since the last snapshot: the host reads on only
     *  as fast as the page applies (timelineSession.ts). */
    batches: z.number().int().nonnegative(),
    events: z.number().int().nonnegative(),
    lastSeq: z.number().int().nullable(),
    /** seq of the selected row (null: none). */
    selected: z.number().int().nullable(),
    /** The header's totals (protocol/totals.ts, as the status bar and the Runs view count them). */
    totals: z.object({ turns: z.number().int().nonnegative(), tokens: z.number().nonnegative(), cost_usd: z.number().nonnegative() }),
  }),
]);
export type ViewMessage = z.infer<typeof ViewMessageSchema>;

/** Formats zod issues as one line naming where the message is wrong. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.join('.') : '(message)'}: ${i.message}`)
    .join('; ');
}

/** Strings longer than this reach the webview as a preview; the full text stays in the log. */
export const VIEW_TEXT_LIMIT = 800;
const CLIP_MARK = /… \[(\d+) characters in all\]$/;

/**
 * A copy of the event whose long strings are cut to `max` characters plus a marker naming the
 * full length ("… [12345 characters in all]"): a 100,000-event run stays small in the webview,
 * and "open output / raw / diff" read the full event from the log. Still a valid event.
 * Without its chain link (`prev`): the page never reads it, and its 64 hex characters are a
 * seventh of what a big timeline sends — the bytes VS Code compresses worst, on the extension
 * host, for the socket to the window. The log keeps it; "open raw" shows it.
 */
export function trimEventForView<E>(event: E, max = VIEW_TEXT_LIMIT): E {
  return trimValue(event, max, 0) as E;
}

/** Texts a row shows only through their first line (at most 160 characters, webview-ui/model/format.ts
 *  firstLine): the model's words, a failed tool's output, a message to the agent. Kept through that
 *  line's end (its newline included, so firstLine finds the same end) and at most this long. */
export const VIEW_ROW_TEXT_LIMIT = 161;
/** A row summarizes a call's arguments in at most 140 characters (webview-ui/model/rows.ts summarizeArgs). */
export const VIEW_ROW_ARG_LIMIT = 140;
/** Arguments a row shows by value, not by length (webview-ui/model/rows.ts summarizeArgs reads this list). */
export const ROW_NAMED_ARGS: readonly string[] = ['command', 'path', 'pattern', 'query', 'glob', 'dir'];
/** Longer than this, any other string argument is shown as its length alone ("content: 1.2k chars"). */
export const ROW_ARG_SHOWN_WHOLE = 40;

/**
 * trimEventForView, and what a row never shows cut further: the texts it reads through their first
 * line, arguments to what summarizeArgs shows (the named ones to VIEW_ROW_ARG_LIMIT, the others over
 * ROW_ARG_SHOWN_WHOLE to their length), and what only the details pane reads to the cut's marker
 * alone (thinking, signatures, the model's tool inputs, a successful tool's output: the context tally
 * reads their lengths from it); the arguments of a call whose row names its path or command, the
 * file hashes (a row asks only whether there is one: the first 8 characters) and the run id (the page
 * knows it). What the page needs of an event it will not keep whole: its row, the header's totals,
 * the charts — the same as from the view copy (test/unit/webview/rowsOnly.test.ts).
 */
export function trimEventForRow<E>(event: E): E {
  return trimValue(rowProjection(event as Record<string, unknown>), VIEW_TEXT_LIMIT, 0, ROW_LIMITS) as E;
}

/** The event without the fields its row never reads (a shallow copy; the cut comes after). */
function rowProjection(e: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...e, run: '' };
  const kind = e.kind;
  if ((kind === 'approval_request' && (e.command ?? e.path) != null) || (kind === 'intent' && e.path != null)) delete out.args;
  if (kind === 'intent' || kind === 'tool') {
    for (const k of ['pre_hash', 'post_hash']) if (typeof e[k] === 'string') out[k] = (e[k] as string).slice(0, 8);
  }
  if (kind === 'tool' && e.is_error === false && typeof e.output === 'string') out.output = clipped(e.output, 0);
  return out;
}

/** Per-key limits under a key (the smaller of these and the limit above wins). */
interface KeyLimits {
  text: number;
  args: number;
  /** Keys whose strings are cut to the marker alone. */
  lengthOnly: ReadonlySet<string>;
  /** Texts cut at their first line's end too; arguments cut as summarizeArgs shows them. */
  asRows: boolean;
}
const TEXT_KEYS = new Set(['text', 'thinking', 'output']);
const VIEW_LIMITS: KeyLimits = { text: Infinity, args: 240, lengthOnly: new Set(), asRows: false };
const ROW_LIMITS: KeyLimits = { text: VIEW_ROW_TEXT_LIMIT, args: VIEW_ROW_ARG_LIMIT, lengthOnly: new Set(['input', 'thinking', 'signature', 'data']), asRows: true };
const ROW_NAMED = new Set(ROW_NAMED_ARGS);

/**
 * Whether a history batch is far enough from the log's end that none of its events will be among
 * the VIEW_RECENT_EVENTS the page keeps whole: more than twice that many events' worth of bytes
 * (at the average size so far) are still to be read after it. A batch misjudged only costs the
 * page a request for that event's details.
 */
export function farFromHistoryEnd(bytesRead: number, bytesTotal: number, eventsRead: number): boolean {
  if (eventsRead <= 0) return false;
  return bytesTotal - bytesRead > 2 * VIEW_RECENT_EVENTS * (bytesRead / eventsRead);
}

function withoutChainLink(event: Record<string, unknown>): Record<string, unknown> {
  const { prev: _prev, ...rest } = event;
  return rest;
}

/** Tool arguments repeat in up to five events per call and the view only summarizes them. */
const ARG_KEYS = new Set(['args', 'edited_args', 'recorded', 'live']);
export const VIEW_ARG_LIMIT = VIEW_LIMITS.args;

function trimValue(v: unknown, max: number, depth: number, limits: KeyLimits = VIEW_LIMITS): unknown {
  if (typeof v === 'string') return v.length > max ? clipped(v, max) : v;
  if (v === null || typeof v !== 'object' || depth > 12) return v;
  // Copies only what changes, and allocates nothing for what does not (no entries or mapped
  // arrays): this runs on every event a big timeline sends, on the extension host.
  if (Array.isArray(v)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      const y = trimValue(x, max, depth + 1, limits);
      if (y !== x) (out ??= v.slice())[i] = y;
    }
    return out ?? v;
  }
  const o = v as Record<string, unknown>;
  // The event itself: copied once, without its chain link (see trimEventForView).
  const linked = depth === 0 && Object.hasOwn(o, 'prev');
  let copy: Record<string, unknown> | null = linked ? withoutChainLink(o) : null;
  for (const k in o) {
    if (!Object.hasOwn(o, k) || (linked && k === 'prev')) continue;
    const x = o[k];
    const y = limits.asRows && ARG_KEYS.has(k) && isPlainObject(x) ? argsAsRowShows(x, Math.min(max, limits.args)) : trimValue(x, keyLimit(k, x, max, limits), depth + 1, limits);
    if (y !== x) (copy ??= { ...o })[k] = y;
  }
  return copy ?? v;
}

function keyLimit(k: string, x: unknown, max: number, limits: KeyLimits): number {
  if (limits.lengthOnly.has(k)) return 0;
  if (ARG_KEYS.has(k) || k === 'input') return Math.min(max, limits.args);
  if (!TEXT_KEYS.has(k) || typeof x !== 'string') return max;
  if (!limits.asRows) return Math.min(max, limits.text);
  const lineEnd = x.indexOf('\n');
  return Math.min(max, limits.text, lineEnd < 0 ? Infinity : lineEnd + 1);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A call's arguments as summarizeArgs reads them: the named ones to `max`, another string over
 *  ROW_ARG_SHOWN_WHOLE to its length (the marker), anything else as trimEventForView cuts it. */
function argsAsRowShows(args: Record<string, unknown>, max: number): Record<string, unknown> {
  let copy: Record<string, unknown> | null = null;
  for (const k in args) {
    if (!Object.hasOwn(args, k)) continue;
    const x = args[k];
    const y = typeof x === 'string' && !ROW_NAMED.has(k) && x.length > ROW_ARG_SHOWN_WHOLE ? clipped(x, 0) : trimValue(x, max, 2, VIEW_LIMITS);
    if (y !== x) (copy ??= { ...args })[k] = y;
  }
  return copy ?? args;
}

/** The first `max` characters and a marker naming the full length — or the string itself when the
 *  marker would make it no shorter (a short tool input cut "to nothing"). */
function clipped(v: string, max: number): string {
  const mark = `… [${v.length} characters in all]`;
  return max + mark.length < v.length ? `${v.slice(0, max)}${mark}` : v;
}

/** The length of the original text of a string trimmed by trimEventForView (its own length otherwise). */
export function fullLengthOf(s: string): number {
  const m = CLIP_MARK.exec(s);
  return m ? Number(m[1]) : s.length;
}

/** The lengths of a trimmed event's texts before they were cut, for the page's context tally (its
 *  observation tokens would otherwise count previews). JSON lengths add what each preview left out. */
export const LENGTHS_BEFORE_TRIM: TextLengths = { text: fullLengthOf, json: (v) => JSON.stringify(v).length + cutChars(v) };

function cutChars(v: unknown): number {
  if (typeof v === 'string') return isTrimmed(v) ? fullLengthOf(v) - v.length : 0;
  if (v === null || typeof v !== 'object') return 0;
  let n = 0;
  if (Array.isArray(v)) for (const x of v) n += cutChars(x);
  else for (const k in v) n += cutChars((v as Record<string, unknown>)[k]);
  return n;
}

/** True when the string is a preview cut by trimEventForView. */
export function isTrimmed(s: string): boolean {
  return CLIP_MARK.test(s);
}
