// Request validation the way the chat-completions service does it, answered in its error shape
// ({"error": {"message", "type", "param", "code"}}): the adapter must send what a real server
// accepts — tool messages right after the assistant's tool_calls, every call answered, tools as
// functions with valid names, one max-tokens field.
import type { IncomingHttpHeaders } from 'node:http';

export interface OpenAIErrorInfo {
  status: number;
  type: 'invalid_request_error' | 'authentication_error' | 'rate_limit_error' | 'server_error';
  message: string;
  param: string | null;
  code: string | null;
}

type Obj = Record<string, unknown>;

const bad = (message: string, param: string | null = null, code: string | null = null): OpenAIErrorInfo => ({ status: 400, type: 'invalid_request_error', message, param, code });

export function presentedKey(headers: IncomingHttpHeaders): string | null {
  const auth = headers.authorization;
  const m = typeof auth === 'string' ? /^Bearer (.+)$/.exec(auth) : null;
  return m?.[1] ?? null;
}

/** null keys: any key (or none) is accepted, like a local server. */
export function validateAuth(headers: IncomingHttpHeaders, keys: string[] | null): OpenAIErrorInfo | null {
  if (keys === null) return null;
  const key = presentedKey(headers);
  if (key !== null && keys.includes(key)) return null;
  const shown = key ? `${key.slice(0, 3)}****${key.slice(-4)}` : '(none)';
  return { status: 401, type: 'invalid_request_error', message: `Incorrect API key provided: ${shown}.`, param: null, code: 'invalid_api_key' };
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);

export function validateBody(body: unknown): OpenAIErrorInfo | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return bad('The request body must be a JSON object.');
  const b = body as Obj;
  if (typeof b.model !== 'string' || !b.model) return bad('you must provide a model parameter', 'model');
  if (b.max_tokens !== undefined && b.max_completion_tokens !== undefined) return bad("max_tokens and max_completion_tokens cannot both be set; use 'max_completion_tokens'.", 'max_tokens');
  for (const f of ['max_tokens', 'max_completion_tokens'] as const)
    if (b[f] !== undefined && (!Number.isInteger(b[f]) || (b[f] as number) < 1)) return bad(`Invalid '${f}': expected an integer of at least 1.`, f);
  if (b.stream_options !== undefined && b.stream !== true) return bad('The stream_options parameter is only allowed when stream is enabled.', 'stream_options');
  const toolsError = validateTools(b.tools);
  if (toolsError) return toolsError;
  return validateMessages(b.messages);
}

function validateTools(tools: unknown): OpenAIErrorInfo | null {
  if (tools === undefined) return null;
  if (!Array.isArray(tools) || tools.length === 0) return bad("Invalid 'tools': empty array. Expected an array with minimum length 1.", 'tools');
  for (const [i, t] of tools.entries()) {
    const fn = (t as Obj | null)?.function as Obj | undefined;
    if ((t as Obj | null)?.type !== 'function' || !fn) return bad(`Invalid 'tools[${i}]': expected an object with type "function" and a function.`, `tools[${i}]`);
    if (typeof fn.name !== 'string' || !NAME.test(fn.name)) return bad(`Invalid 'tools[${i}].function.name': string does not match pattern '^[a-zA-Z0-9_-]{1,64}$'.`, `tools[${i}].function.name`);
    if (fn.parameters !== undefined && (typeof fn.parameters !== 'object' || fn.parameters === null || (fn.parameters as Obj).type !== 'object'))
      return bad(`Invalid schema for function '${fn.name}': schema must be a JSON Schema of 'type: "object"'.`, `tools[${i}].function.parameters`, 'invalid_function_parameters');
  }
  return null;
}

function validateMessages(messages: unknown): OpenAIErrorInfo | null {
  if (!Array.isArray(messages) || messages.length === 0) return bad("Invalid 'messages': empty array. Expected an array with minimum length 1.", 'messages');
  let open: Set<string> | null = null; // tool_call ids of the last assistant message still unanswered
  for (const [i, raw] of messages.entries()) {
    const m = raw as Obj;
    const at = `messages[${i}]`;
    if (typeof m?.role !== 'string' || !ROLES.has(m.role)) return bad(`Invalid '${at}.role': expected one of system, developer, user, assistant, tool.`, `${at}.role`);
    if (m.role === 'tool') {
      if (typeof m.tool_call_id !== 'string' || !open?.has(m.tool_call_id))
        return bad(`Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.`, `${at}.role`);
      if (typeof m.content !== 'string') return bad(`Invalid '${at}.content': expected a string.`, `${at}.content`);
      open.delete(m.tool_call_id);
      continue;
    }
    if (open && open.size) {
      return bad(
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(', ')}`,
        `${at}.role`,
      );
    }
    open = null;
    if (m.role === 'assistant') {
      const calls = m.tool_calls;
      if (calls !== undefined) {
        if (!Array.isArray(calls) || calls.length === 0) return bad(`Invalid '${at}.tool_calls': empty array.`, `${at}.tool_calls`);
        open = new Set();
        for (const [j, c] of calls.entries()) {
          const fn = (c as Obj | null)?.function as Obj | undefined;
          if (typeof (c as Obj | null)?.id !== 'string' || (c as Obj).type !== 'function' || typeof fn?.name !== 'string' || typeof fn.arguments !== 'string')
            return bad(`Invalid '${at}.tool_calls[${j}]': expected {id, type: "function", function: {name, arguments: string}}.`, `${at}.tool_calls[${j}]`);
          open.add((c as Obj).id as string);
        }
      }
      if (m.content === null && calls === undefined) return bad(`Invalid '${at}.content': an assistant message without tool_calls needs content.`, `${at}.content`);
    } else if (typeof m.content !== 'string' && !Array.isArray(m.content)) return bad(`Invalid '${at}.content': expected a string or an array of content parts.`, `${at}.content`);
  }
  if (open && open.size) return bad(`An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(', ')}`, 'messages');
  return null;
}
