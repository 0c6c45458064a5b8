// The neutral language-model messages of the wire (protocol/languageModel.ts) to vscode's classes,
// one part for one part, and a response stream's parts back. Kite's own blocks were mapped to
// the neutral shape in the harness (model/vscodeLmMapping.ts).
import * as vscode from 'vscode';
import type { LmMessage, LmReplyPart, LmTool } from '../../harness/protocol/languageModel';

export function toChatMessages(messages: readonly LmMessage[]): vscode.LanguageModelChatMessage[] {
  return messages.map((m) => {
    if (m.role === 'assistant') {
      return vscode.LanguageModelChatMessage.Assistant(
        m.parts.map((p) => (p.type === 'text' ? new vscode.LanguageModelTextPart(p.text) : new vscode.LanguageModelToolCallPart(p.callId, p.name, asObject(p.input)))),
      );
    }
    return vscode.LanguageModelChatMessage.User(
      m.parts.map((p) => (p.type === 'text' ? new vscode.LanguageModelTextPart(p.text) : new vscode.LanguageModelToolResultPart(p.callId, [new vscode.LanguageModelTextPart(p.content)]))),
    );
  });
}

export function toChatTools(tools: readonly LmTool[]): vscode.LanguageModelChatTool[] {
  return tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
}

/** A part of the response stream Kite understands, or null (data parts, future kinds: skipped). */
export function fromResponsePart(part: unknown): LmReplyPart | null {
  if (part instanceof vscode.LanguageModelTextPart) return { type: 'text', text: part.value };
  if (part instanceof vscode.LanguageModelToolCallPart) return { type: 'tool_call', callId: part.callId, name: part.name, input: part.input };
  return null;
}

function asObject(input: unknown): object {
  return input !== null && typeof input === 'object' ? input : {};
}
