// The fake server's script: a JSON array of Messages API response objects (the same format as the
// scripted model's files), one per turn. Each entry may carry `faults`: the first requests for that
// turn fail in these ways, in order, before the reply is served (a fault never advances the turn).
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { AssistantBlockSchema, StopReasonSchema } from '../../src/harness/protocol/content';

export const FaultSchema = z.discriminatedUnion('kind', [
  /** 429 rate_limit_error with a retry-after header (seconds). */
  z.object({ kind: z.literal('rate_limit'), retry_after_s: z.number().nonnegative().default(1) }),
  /** 529 overloaded_error. */
  z.object({ kind: z.literal('overloaded') }),
  /** 500 api_error. */
  z.object({ kind: z.literal('server_error') }),
  /** Start the SSE stream, send `after_events` events, then destroy the socket. */
  z.object({ kind: z.literal('drop'), after_events: z.number().int().nonnegative().default(3) }),
  /** An SSE `error` event (overloaded_error) after `after_events` events, as the service does mid-stream. */
  z.object({ kind: z.literal('stream_error'), after_events: z.number().int().nonnegative().default(2) }),
  /** Wait `delay_ms` before the first byte, then answer normally (if the client is still there). */
  z.object({ kind: z.literal('slow'), delay_ms: z.number().nonnegative() }),
]);
export type Fault = z.infer<typeof FaultSchema>;

export const ScriptEntrySchema = z.looseObject({
  content: z.array(AssistantBlockSchema),
  stop_reason: StopReasonSchema,
  // Only output_tokens is taken from a script; input and cache figures come from the cache simulation.
  usage: z.looseObject({ output_tokens: z.number().int().nonnegative().optional() }).optional(),
  faults: z.array(FaultSchema).optional(),
});
export type ScriptEntry = z.infer<typeof ScriptEntrySchema>;
export const ScriptSchema = z.array(ScriptEntrySchema);

/** Parses a script; errors name the entry and field ("script.json: [2].stop_reason: …"). */
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
