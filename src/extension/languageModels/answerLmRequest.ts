// Answers the harness server's request for one reply of a VS Code language model: selectChatModels
// ({vendor, family}, held in a ChatModelCache) → sendRequest(messages, {tools}) with the request's CancellationToken (a stopped
// run cancels it), each response part streamed back at once, then the usage counted with the model's
// own tokenizer (VS Code reports none, so it is an estimate). Never throws: problems are typed results.
import * as vscode from 'vscode';
import type { LmErrorCode, LmReplyPart, LmRequestParams, LmRequestResult } from '../../harness/protocol/languageModel';
import type { ChatModelCache } from './chatModelCache';
import { fromResponsePart, toChatMessages, toChatTools } from './lmMessages';

export async function answerLmRequest(q: LmRequestParams, onPart: (part: LmReplyPart) => void, token: vscode.CancellationToken, models: ChatModelCache, log?: vscode.LogOutputChannel): Promise<LmRequestResult> {
  const name = `${q.vendor}/${q.family}`;
  const t0 = Date.now();
  const cancelled = (): LmRequestResult => ({ ok: false, code: 'cancelled', message: 'the request was cancelled' });
  try {
    const model = await models.select(q.vendor, q.family);
    if (!model) return { ok: false, code: 'no_model', message: await noModelMessage(name) };
    const selected = Date.now();
    const messages = toChatMessages(q.messages);
    const response = await model.sendRequest(messages, { tools: toChatTools(q.tools), justification: q.justification }, token);
    const sent = Date.now();
    let outText = '';
    for await (const raw of response.stream) {
      if (token.isCancellationRequested) return cancelled();
      const part = fromResponsePart(raw);
      if (!part) continue;
      outText += part.type === 'text' ? part.text : JSON.stringify({ name: part.name, input: part.input });
      onPart(part);
    }
    if (token.isCancellationRequested) return cancelled();
    const streamed = Date.now();
    const input = await countInput(model, messages, q.tools.length ? JSON.stringify(toChatTools(q.tools)) : '', token);
    const output = outText ? await count(model, outText, token) : 0;
    // Where a slow turn's time went (select + send, the stream, countTokens), for the Kite log.
    log?.info(`vscode-lm ${name}: select ${selected - t0} ms, send ${sent - selected} ms, stream ${streamed - sent} ms, countTokens ${Date.now() - streamed} ms (${input} in, ${output} out, estimated)`);
    return { ok: true, input_tokens: input, output_tokens: output, model: { id: model.id, name: model.name, version: model.version } };
  } catch (e) {
    if (token.isCancellationRequested) return cancelled();
    const code = errorCode(e);
    if (code === 'not_found') models.forget(q.vendor, q.family);
    return { ok: false, code, message: e instanceof Error ? e.message : String(e) };
  }
}

/** vscode.LanguageModelError's code (NoPermissions, Blocked, NotFound) → the wire's. */
function errorCode(e: unknown): LmErrorCode {
  if (!(e instanceof vscode.LanguageModelError)) return e instanceof vscode.CancellationError ? 'cancelled' : 'unknown';
  switch (e.code) {
    case vscode.LanguageModelError.NoPermissions.name:
      return 'no_permissions';
    case vscode.LanguageModelError.Blocked.name:
      return 'blocked';
    case vscode.LanguageModelError.NotFound.name:
      return 'not_found';
    default:
      return 'unknown';
  }
}

async function noModelMessage(name: string): Promise<string> {
  const all = await vscode.lm.selectChatModels();
  const offered = all.map((m) => `${m.vendor}/${m.family}`);
  return `VS Code has no language model ${name}` + (offered.length ? ` (it offers: ${[...new Set(offered)].join(', ')})` : ' (it offers none: install or sign in to a provider such as GitHub Copilot)');
}

async function countInput(model: vscode.LanguageModelChat, messages: vscode.LanguageModelChatMessage[], tools: string, token: vscode.CancellationToken): Promise<number> {
  const counts = await Promise.all([...messages.map((m) => count(model, m, token)), tools ? count(model, tools, token) : Promise.resolve(0)]);
  return counts.reduce((a, b) => a + b, 0);
}

/** The model's own count; a provider whose tokenizer fails is counted at ~4 characters a token. */
async function count(model: vscode.LanguageModelChat, what: string | vscode.LanguageModelChatMessage, token: vscode.CancellationToken): Promise<number> {
  try {
    const n = await model.countTokens(what, token);
    if (Number.isInteger(n) && n >= 0) return n;
  } catch {
    // fall through to the rough count
  }
  const chars = typeof what === 'string' ? what.length : JSON.stringify(what.content).length;
  return Math.ceil(chars / 4);
}
