// What the model sees of an MCP tool result: text as is, an image or audio as a note (its bytes
// never enter the conversation), resource links and embedded resources by URI, structured content
// as JSON when there is nothing else. Cleaned and clipped like the run tool's output.
import { cleanTerminalOutput, reduceOutput } from '../tools/reduce';
import type { McpCallResult } from './mcpClient';

/** What one MCP result may put into the conversation (the toolbox's cap applies after it). */
export const MCP_OUTPUT_CHARS = 20_000;

type Block = { type?: unknown; [k: string]: unknown };

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const b64Bytes = (data: unknown): number => (typeof data === 'string' ? Math.floor((data.replace(/=+$/, '').length * 3) / 4) : 0);

function linkText(b: Block): string {
  const parts = [str(b.name) ?? str(b.title), `<${str(b.uri) ?? '?'}>`, str(b.mimeType) ? `(${str(b.mimeType)})` : null, str(b.description)].filter(Boolean);
  return `[resource link: ${parts.join(' ')}]`;
}

function blockText(b: Block): string {
  switch (b.type) {
    case 'text':
      return str(b.text) ?? '';
    case 'image':
    case 'audio':
      return `[${String(b.type)}: ${str(b.mimeType) ?? 'unknown type'}, ${b64Bytes(b.data)} bytes; not shown to the model]`;
    case 'resource_link':
      return linkText(b);
    case 'resource': {
      const r = (b.resource ?? {}) as Block;
      const text = str(r.text);
      if (text !== null) return `[resource <${str(r.uri) ?? '?'}>${str(r.mimeType) ? ` (${str(r.mimeType)})` : ''}]\n${text}`;
      return `[resource <${str(r.uri) ?? '?'}>: ${str(r.mimeType) ?? 'binary'}, ${b64Bytes(r.blob)} bytes; not shown to the model]`;
    }
    default:
      return `[content of type ${JSON.stringify(b.type)} not shown]`;
  }
}

export function mcpResultText(r: McpCallResult): string {
  const blocks = Array.isArray(r.content) ? (r.content as Block[]) : [];
  let text = blocks.map(blockText).join('\n');
  if (!text.trim() && r.structuredContent !== undefined) text = JSON.stringify(r.structuredContent, null, 2);
  if (!text.trim()) text = r.isError ? '(the tool reported an error without a message)' : '(the tool returned no content)';
  return reduceOutput(cleanTerminalOutput(text), MCP_OUTPUT_CHARS);
}
