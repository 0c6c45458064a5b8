// Checks a Messages API request the way the service does, so a malformed request from our adapter
// fails here (400 with the service's error shape) instead of passing silently. Messages follow the
// service's wording and name the offending location (`messages.3.content.0: …`).
import type { IncomingHttpHeaders } from 'node:http';

export interface ApiErrorInfo {
  status: number;
  type: 'invalid_request_error' | 'authentication_error' | 'permission_error' | 'not_found_error';
  message: string;
}

const MAX_CACHE_BREAKPOINTS = 4;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const bad = (message: string): ApiErrorInfo => ({ status: 400, type: 'invalid_request_error', message });

/** The SDK sends its key as `Authorization: Bearer`; older clients use `x-api-key`. Both are accepted. */
export function presentedKey(headers: IncomingHttpHeaders): string | null {
  const x = headers['x-api-key'];
  if (typeof x === 'string' && x) return x;
  const auth = headers.authorization;
  if (typeof auth === 'string' && /^Bearer\s+\S/.test(auth)) return auth.replace(/^Bearer\s+/, '');
  return null;
}

export function validateAuth(headers: IncomingHttpHeaders, acceptedKeys: readonly string[] | null): ApiErrorInfo | null {
  const key = presentedKey(headers);
  if (!key) return { status: 401, type: 'authentication_error', message: 'x-api-key header is required' };
  if (acceptedKeys && !acceptedKeys.includes(key)) return { status: 401, type: 'authentication_error', message: 'invalid x-api-key' };
  if (!headers['anthropic-version']) return bad('anthropic-version: header is required');
  return null;
}

export function validateBody(body: unknown): ApiErrorInfo | null {
  if (!isObj(body)) return bad('The request body is not a JSON object.');
  if (typeof body.model !== 'string' || !body.model) return bad('model: Field required');
  if (body.max_tokens === undefined) return bad('max_tokens: Field required');
  if (typeof body.max_tokens !== 'number' || !Number.isInteger(body.max_tokens) || body.max_tokens < 1)
    return bad('max_tokens: Input should be an integer greater than or equal to 1');
  if (body.stream !== undefined && typeof body.stream !== 'boolean') return bad('stream: Input should be a valid boolean');
  return validateTools(body.tools) ?? validateSystem(body.system) ?? validateMessages(body.messages) ?? validateCacheControl(body);
}

function validateTools(tools: unknown): ApiErrorInfo | null {
  if (tools === undefined) return null;
  if (!Array.isArray(tools)) return bad('tools: Input should be a valid list');
  const names = new Set<string>();
  for (const [i, tool] of tools.entries()) {
    if (!isObj(tool)) return bad(`tools.${i}: Input should be a valid dictionary`);
    if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name))
      return bad(`tools.${i}.name: String should match pattern '${TOOL_NAME.source}'`);
    if (names.has(tool.name)) return bad(`tools: Tool names must be unique. Duplicate: ${tool.name}`);
    names.add(tool.name);
    if (tool.description !== undefined && typeof tool.description !== 'string') return bad(`tools.${i}.description: Input should be a valid string`);
    if (!isObj(tool.input_schema)) return bad(`tools.${i}.input_schema: Field required`);
    if (tool.input_schema.type !== 'object') return bad(`tools.${i}.input_schema.type: Input should be 'object'`);
    if (tool.input_schema.properties !== undefined && !isObj(tool.input_schema.properties))
      return bad(`tools.${i}.input_schema.properties: Input should be a valid dictionary`);
  }
  return null;
}

function validateSystem(system: unknown): ApiErrorInfo | null {
  if (system === undefined || typeof system === 'string') return null;
  if (!Array.isArray(system)) return bad('system: Input should be a valid string or list of text blocks');
  for (const [i, b] of system.entries()) {
    if (!isObj(b) || b.type !== 'text') return bad(`system.${i}.type: Input should be 'text'`);
    if (typeof b.text !== 'string' || !b.text) return bad(`system.${i}.text: text content blocks must be non-empty`);
  }
  return null;
}

function validateMessages(messages: unknown): ApiErrorInfo | null {
  if (messages === undefined) return bad('messages: Field required');
  if (!Array.isArray(messages)) return bad('messages: Input should be a valid list');
  if (messages.length === 0) return bad('messages: at least one message is required');
  let previousToolUses: string[] = [];
  for (const [i, m] of messages.entries()) {
    if (!isObj(m)) return bad(`messages.${i}: Input should be a valid dictionary`);
    if (m.role !== 'user' && m.role !== 'assistant') return bad(`messages.${i}.role: Input should be 'user' or 'assistant'`);
    if (i === 0 && m.role !== 'user') return bad('messages: first message must use the "user" role');
    const prev = i > 0 ? (messages[i - 1] as Obj).role : null;
    if (prev === m.role) return bad(`messages: roles must alternate between "user" and "assistant", but found multiple "${m.role}" roles in a row`);
    const isFinal = i === messages.length - 1;
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    if (!Array.isArray(blocks)) return bad(`messages.${i}.content: Input should be a valid string or list`);
    if (blocks.length === 0 && !(isFinal && m.role === 'assistant'))
      return bad(`messages.${i}: all messages must have non-empty content except for the optional final assistant message`);
    const problem = m.role === 'user' ? validateUserBlocks(i, blocks, previousToolUses) : validateAssistantBlocks(i, blocks);
    if (problem) return problem;
    if (previousToolUses.length && m.role === 'user') {
      const answered = new Set(blocks.filter((b): b is Obj => isObj(b) && b.type === 'tool_result').map((b) => b.tool_use_id));
      const missing = previousToolUses.filter((id) => !answered.has(id));
      if (missing.length)
        return bad(
          `messages.${i - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        );
    }
    previousToolUses = m.role === 'assistant' ? blocks.filter((b): b is Obj => isObj(b) && b.type === 'tool_use').map((b) => String(b.id)) : [];
    if (previousToolUses.length && isFinal) return null; // a trailing tool_use is what a prefill may end with
  }
  return null;
}

function validateUserBlocks(i: number, blocks: unknown[], toolUses: string[]): ApiErrorInfo | null {
  let seenOther = false;
  for (const [j, b] of blocks.entries()) {
    const at = `messages.${i}.content.${j}`;
    if (!isObj(b)) return bad(`${at}: Input should be a valid dictionary`);
    switch (b.type) {
      case 'text':
        if (typeof b.text !== 'string' || !b.text) return bad(`${at}.text: text content blocks must be non-empty`);
        seenOther = true;
        break;
      case 'image':
      case 'document':
        seenOther = true;
        break;
      case 'tool_result': {
        if (typeof b.tool_use_id !== 'string') return bad(`${at}.tool_result.tool_use_id: Field required`);
        if (!toolUses.includes(b.tool_use_id))
          return bad(
            `${at}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${b.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
          );
        if (seenOther) return bad(`${at}: \`tool_result\` blocks must come before any other content in a user message`);
        const c = b.content;
        if (c !== undefined && typeof c !== 'string' && !Array.isArray(c)) return bad(`${at}.tool_result.content: Input should be a valid string or list`);
        if (b.is_error !== undefined && typeof b.is_error !== 'boolean') return bad(`${at}.tool_result.is_error: Input should be a valid boolean`);
        break;
      }
      default:
        return bad(`${at}.type: Input tag '${String(b.type)}' is not allowed in a user message`);
    }
  }
  return null;
}

function validateAssistantBlocks(i: number, blocks: unknown[]): ApiErrorInfo | null {
  for (const [j, b] of blocks.entries()) {
    const at = `messages.${i}.content.${j}`;
    if (!isObj(b)) return bad(`${at}: Input should be a valid dictionary`);
    switch (b.type) {
      case 'text':
        if (typeof b.text !== 'string' || !b.text) return bad(`${at}.text: text content blocks must be non-empty`);
        break;
      case 'tool_use':
        if (typeof b.id !== 'string' || !b.id) return bad(`${at}.tool_use.id: Field required`);
        if (typeof b.name !== 'string' || !b.name) return bad(`${at}.tool_use.name: Field required`);
        if (!isObj(b.input)) return bad(`${at}.tool_use.input: Input should be a valid dictionary`);
        break;
      case 'thinking':
        if (typeof b.thinking !== 'string') return bad(`${at}.thinking.thinking: Field required`);
        if (typeof b.signature !== 'string' || !b.signature) return bad(`${at}.thinking.signature: Field required`);
        break;
      case 'redacted_thinking':
        if (typeof b.data !== 'string') return bad(`${at}.redacted_thinking.data: Field required`);
        break;
      default:
        return bad(`${at}.type: Input tag '${String(b.type)}' is not allowed in an assistant message`);
    }
  }
  return null;
}

/** Counts cache_control markers everywhere the service allows them (tools, system, blocks, nested tool_result content). */
export function countCacheControl(body: Obj): number {
  let n = 0;
  const visit = (b: unknown) => {
    if (!isObj(b)) return;
    if (b.cache_control !== undefined && b.cache_control !== null) n++;
    if (Array.isArray(b.content)) b.content.forEach(visit);
  };
  if (Array.isArray(body.tools)) body.tools.forEach(visit);
  if (Array.isArray(body.system)) body.system.forEach(visit);
  if (Array.isArray(body.messages)) for (const m of body.messages) if (isObj(m) && Array.isArray(m.content)) m.content.forEach(visit);
  return n;
}

function validateCacheControl(body: Obj): ApiErrorInfo | null {
  const n = countCacheControl(body);
  if (n > MAX_CACHE_BREAKPOINTS) return bad(`A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${n}.`);
  return null;
}
