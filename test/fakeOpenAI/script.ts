// The fake chat-completions server's script: one entry per turn in Kite's reply format (content
// blocks + stop_reason, the same files the scripted model and the fake Messages API read), turned
// into chat-completions wire shapes by the server. An entry may instead give the raw `tool_calls`
// (arguments as text, so a malformed call can be scripted) or a raw `finish_reason`, and `faults`:
// the first requests for that turn fail in these ways, in order (a fault never advances the turn).
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { AssistantBlockSchema, StopReasonSchema } from '../../src/harness/protocol/content';

export const FaultSchema = z.discriminatedUnion('kind', [
  /** 429 rate_limit_exceeded with a retry-after header (seconds). */
  z.object({ kind: z.literal('rate_limit'), retry_after_s: z.number().nonnegative().default(1) }),
  /** 500 server_error. */
  z.object({ kind: z.literal('server_error') }),
  /** 503 (an overloaded local server). */
  z.object({ kind: z.literal('unavailable') }),
  /** Start the SSE stream, send `after_chunks` chunks, then destroy the socket. */
  z.object({ kind: z.literal('drop'), after_chunks: z.number().int().nonnegative().default(3) }),
  /** A `data: {"error": …}` line after `after_chunks` chunks, as OpenAI does mid-stream. */
  z.object({ kind: z.literal('stream_error'), after_chunks: z.number().int().nonnegative().default(2) }),
  /** Wait `delay_ms` before the first byte, then answer normally (if the client is still there). */
  z.object({ kind: z.literal('slow'), delay_ms: z.number().nonnegative() }),
]);
export type Fault = z.infer<typeof FaultSchema>;

export const RawToolCallSchema = z.object({ id: z.string().optional(), name: z.string(), arguments: z.string() });
export type RawToolCall = z.infer<typeof RawToolCallSchema>;

export const ScriptEntrySchema = z.looseObject({
  content: z.array(AssistantBlockSchema),
  stop_reason: StopReasonSchema,
  /** Replaces the tool_use blocks on the wire. */
  tool_calls: z.array(RawToolCallSchema).optional(),
  /** Replaces the finish reason mapped from stop_reason (e.g. "stop" after tool calls, as some servers do). */
  finish_reason: z.string().optional(),
  // Only output_tokens is taken from a script; prompt and cached figures are computed from the request.
  usage: z.looseObject({ output_tokens: z.number().int().nonnegative().optional() }).optional(),
  faults: z.array(FaultSchema).optional(),
});
export type ScriptEntry = z.infer<typeof ScriptEntrySchema>;
export const ScriptSchema = z.array(ScriptEntrySchema);

export function parseScript(data: unknown, source = 'script'): ScriptEntry[] {
  const r = ScriptSchema.safeParse(data);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const where = issue ? issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('') : '';
  throw new Error(`${source}: ${where.replace(/^\./, '') || '(root)'}: ${issue?.message ?? 'invalid script'}`);
}

export function loadScript(path: string): ScriptEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`${path}: ${(e as Error).message}`);
  }
  return parseScript(data, path);
}
