// How big the conversation is, and how much of it tool results put there, counted in one place so
// the loop (compaction, the observation budget), the reducer's folds (resume, replay, timeline)
// and `kite cost` agree. Sizes are estimated from characters (~4 a token) and corrected by the
// prompt size the provider reported for the last request (ratio = reported / estimated).
import type { EventOf, KiteEvent } from './events';

export const CHARS_PER_TOKEN = 4;

export interface ContextTally {
  /** Characters of what every request repeats: the system prompt and the tool definitions. */
  baseChars: number;
  /** Characters of the conversation as it will be sent next (after any compaction). */
  convChars: number;
  /** Reported prompt tokens / estimated tokens of the last request (1 until a reply says otherwise). */
  ratio: number;
  /** Characters tool results put into the conversation over the run (compaction refunds none). */
  observationChars: number;
  observationCharsByTool: Record<string, number>;
}

/** How long an event's texts are: as they stand, or (the timeline page, which gets previews of
 *  long texts: protocol/webviewMessages.ts) as they were before they were cut. */
export interface TextLengths {
  text(s: string): number;
  /** Characters of JSON.stringify(v). */
  json(v: unknown): number;
}

export const AS_WRITTEN: TextLengths = { text: (s) => s.length, json: (v) => JSON.stringify(v).length };

export function emptyContextTally(): ContextTally {
  return { baseChars: 0, convChars: 0, ratio: 1, observationChars: 0, observationCharsByTool: {} };
}

/** Estimated tokens of `chars` characters, corrected by the tally's ratio. */
export function estimateTokens(chars: number, ratio = 1): number {
  return Math.ceil((chars / CHARS_PER_TOKEN) * ratio);
}

/** Estimated tokens of the next request (system, tools and the conversation). */
export function requestTokens(t: ContextTally): number {
  return estimateTokens(t.baseChars + t.convChars, t.ratio);
}

/** Tokens tool results put into the conversation so far: all tools, or one. */
export function observationTokens(t: ContextTally, tool?: string): number {
  return estimateTokens(tool === undefined ? t.observationChars : (t.observationCharsByTool[tool] ?? 0), t.ratio);
}

export function tallyStart(t: ContextTally, e: Pick<EventOf<'session_start'>, 'system' | 'tools'>): void {
  t.baseChars = (e.system?.length ?? 0) + (e.tools ? JSON.stringify(e.tools).length : 0); // older logs may lack them
}

export function tallyToolResult(t: ContextTally, tool: string, output: string, lengths: TextLengths = AS_WRITTEN): void {
  const chars = lengths.text(output);
  t.convChars += chars;
  t.observationChars += chars;
  t.observationCharsByTool[tool] = (t.observationCharsByTool[tool] ?? 0) + chars;
}

/** A reply: its prompt size corrects the estimate; its content joins the conversation. */
export function tallyModel(t: ContextTally, e: Pick<EventOf<'model'>, 'input_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens' | 'content'>, lengths: TextLengths = AS_WRITTEN): void {
  const estimated = estimateTokens(t.baseChars + t.convChars);
  const reported = e.input_tokens + e.cache_creation_input_tokens + e.cache_read_input_tokens;
  // Clamped: a scripted model's canned usage must not swing the estimate by more than 2x.
  if (estimated > 0 && reported > 0) t.ratio = Math.min(2, Math.max(0.5, reported / estimated));
  t.convChars += lengths.json(e.content);
}

/** One event's effect on the tally: the reducer and the timeline both fold with it. */
export function tallyEvent(t: ContextTally, e: KiteEvent, lengths: TextLengths = AS_WRITTEN): void {
  if (e.kind === 'session_start') tallyStart(t, e);
  else if (e.kind === 'user') t.convChars += lengths.text(e.text);
  else if (e.kind === 'model') tallyModel(t, e, lengths);
  else if (e.kind === 'tool') tallyToolResult(t, e.name, e.output, lengths);
  else if (e.kind === 'compaction') t.convChars = e.conv_chars_after;
}

export function cloneContextTally(t: ContextTally): ContextTally {
  return { ...t, observationCharsByTool: { ...t.observationCharsByTool } };
}
