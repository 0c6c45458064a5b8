// Tool calls a weaker model got wrong, kept in the log as ordinary tool_use blocks whose input is
// a marker: arguments that were not JSON, or a call written into the message text instead of
// made through function calling. The toolbox turns the marker into an is_error result that says
// exactly what was wrong (nothing runs), and the repetition guard counts it like any call.
// The marker is plain JSON, so replay, resume and the debugger need nothing special.
export const MALFORMED_KEY = '$kite_malformed_call';

export type MalformedProblem = 'arguments_not_json' | 'call_in_text';

export interface MalformedCall {
  problem: MalformedProblem;
  /** What the model sent: the raw arguments text, or the text of the call it wrote. */
  sent: string;
  detail: string; // the JSON parser's complaint, or where the call was found
}

export function malformedInput(call: MalformedCall): Record<string, unknown> {
  return { [MALFORMED_KEY]: call };
}

export function malformedOf(input: unknown): MalformedCall | null {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return null;
  const m = (input as Record<string, unknown>)[MALFORMED_KEY];
  if (m === null || typeof m !== 'object') return null;
  const { problem, sent, detail } = m as Record<string, unknown>;
  if ((problem !== 'arguments_not_json' && problem !== 'call_in_text') || typeof sent !== 'string' || typeof detail !== 'string') return null;
  return { problem, sent, detail };
}

const SNIPPET = 200;
const snippet = (s: string) => (s.length > SNIPPET ? `${s.slice(0, SNIPPET)}… (${s.length} characters)` : s);

/** What the model is told: the problem, that nothing ran, and how to do it right. */
export function describeMalformed(name: string, m: MalformedCall): string {
  switch (m.problem) {
    case 'arguments_not_json':
      return `The arguments of this ${name} call were not valid JSON (${m.detail}), so it was not run. Call ${name} again with its arguments as one JSON object matching its schema. You sent: ${snippet(m.sent)}`;
    case 'call_in_text':
      return `You wrote a ${name} call in your message text (${m.detail}) instead of making it through function calling, so it was not run. Make the call as a function call (tool_calls), not as text. You wrote: ${snippet(m.sent)}`;
  }
}

/** Parses a call's arguments text; the marker when it is not JSON. Empty means no arguments. */
export function parseArguments(text: string): unknown {
  if (!text.trim()) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    return malformedInput({ problem: 'arguments_not_json', sent: text, detail: (e as Error).message });
  }
}

export interface TextToolCall {
  name: string;
  arguments: string; // as JSON text, what the call would have sent
  sent: string;
  where: string;
}

const TAGGED = /<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/g;
const FENCED = /```(?:json|tool_call)?\s*\n([\s\S]*?)\n?```/g;

/**
 * Tool calls a model wrote as text: Hermes/Qwen-style <tool_call> tags (always a call attempt),
 * or a JSON object {"name": <a tool offered>, "arguments"|"parameters": …} as the whole message
 * or a fenced block. JSON that names no offered tool is just text.
 */
export function findTextToolCalls(text: string, toolNames: readonly string[]): TextToolCall[] {
  const found: TextToolCall[] = [];
  for (const m of text.matchAll(TAGGED)) {
    const call = callShape(m[1] ?? '');
    found.push({ name: call?.name ?? 'unknown', arguments: call?.arguments ?? '{}', sent: m[0], where: 'inside <tool_call> tags' });
  }
  if (found.length) return found;
  const candidates: [string, string][] = [...text.matchAll(FENCED)].map((m) => [m[1] ?? '', 'in a code block']);
  if (text.trim().startsWith('{')) candidates.push([text.trim(), 'as the whole message']);
  for (const [body, where] of candidates) {
    const call = callShape(body);
    if (call && toolNames.includes(call.name)) found.push({ ...call, sent: body, where });
  }
  return found;
}

function callShape(body: string): { name: string; arguments: string } | null {
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    return null;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  const fn = o.function !== null && typeof o.function === 'object' ? (o.function as Record<string, unknown>) : o;
  if (typeof fn.name !== 'string') return null;
  const args = fn.arguments ?? fn.parameters ?? {};
  return { name: fn.name, arguments: typeof args === 'string' ? args : JSON.stringify(args) };
}
