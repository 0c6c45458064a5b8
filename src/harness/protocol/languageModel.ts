// VS Code's language models (`kite.model: "vscode-lm:<vendor>/<family>"`) across the JSON-RPC
// boundary: the harness server asks the extension for each reply (Rpc.lmRequest) and the
// extension streams the reply's parts back (Rpc.lmPart notifications) before it answers with the
// estimated usage or a typed error. The conversation crosses in this neutral shape, one-to-one with
// vscode's LanguageModelTextPart / ToolCallPart / ToolResultPart; model/vscodeLmMapping.ts maps
// Kite's content blocks to it, extension/languageModels/ maps it to the vscode classes.
// Pure zod: no node builtins, no 'vscode'.
import { z } from 'zod';
import { RunTokenSchema } from './rpc';

export const VSCODE_LM_SCHEME = 'vscode-lm';

/** `vscode-lm:<vendor>/<family>` → its parts; null when the spec is not one, or is malformed. */
export function parseVscodeLmSpec(spec: string): { vendor: string; family: string } | null {
  if (!spec.startsWith(`${VSCODE_LM_SCHEME}:`)) return null;
  const rest = spec.slice(VSCODE_LM_SCHEME.length + 1);
  const slash = rest.indexOf('/');
  if (slash <= 0 || slash === rest.length - 1) return null;
  return { vendor: rest.slice(0, slash), family: rest.slice(slash + 1) };
}

export function vscodeLmSpec(vendor: string, family: string): string {
  return `${VSCODE_LM_SCHEME}:${vendor}/${family}`;
}

export const LmTextPartSchema = z.object({ type: z.literal('text'), text: z.string() });
export const LmToolCallPartSchema = z.object({ type: z.literal('tool_call'), callId: z.string(), name: z.string(), input: z.unknown() });
/** VS Code's tool result part has no error flag: `content` already says "Error: …" when it was one. */
export const LmToolResultPartSchema = z.object({ type: z.literal('tool_result'), callId: z.string(), content: z.string() });

export const LmMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), parts: z.array(z.discriminatedUnion('type', [LmTextPartSchema, LmToolResultPartSchema])) }),
  z.object({ role: z.literal('assistant'), parts: z.array(z.discriminatedUnion('type', [LmTextPartSchema, LmToolCallPartSchema])) }),
]);
export type LmMessage = z.infer<typeof LmMessageSchema>;

export const LmToolSchema = z.object({ name: z.string(), description: z.string(), inputSchema: z.record(z.string(), z.unknown()) });
export type LmTool = z.infer<typeof LmToolSchema>;

/** A streamed piece of a reply (what the model's response stream yields that Kite understands). */
export const LmReplyPartSchema = z.discriminatedUnion('type', [LmTextPartSchema, LmToolCallPartSchema]);
export type LmReplyPart = z.infer<typeof LmReplyPartSchema>;

/** What the harness asks for one reply (the run's token and a request id are added on the wire). */
export const LmAskSchema = z.object({
  vendor: z.string().min(1),
  family: z.string().min(1),
  messages: z.array(LmMessageSchema),
  tools: z.array(LmToolSchema),
  /** Shown in VS Code's consent dialog the first time Kite uses another extension's models. */
  justification: z.string(),
  /** The turn's output limit. VS Code has no standard option for it, so the harness also stops the reply there itself. */
  max_tokens: z.number().int().positive().optional(),
});
export type LmAsk = z.infer<typeof LmAskSchema>;

export const LmRequestParamsSchema = LmAskSchema.extend({ token: RunTokenSchema, requestId: z.string().min(1) });
export type LmRequestParams = z.infer<typeof LmRequestParamsSchema>;

export const LmPartNotificationSchema = z.object({ requestId: z.string().min(1), part: LmReplyPartSchema });
export type LmPartNotification = z.infer<typeof LmPartNotificationSchema>;

/** Why a reply could not be had. The first three are vscode.LanguageModelError codes; no_model:
 *  selectChatModels found none; cancelled: the request's CancellationToken fired. */
export const LmErrorCodeSchema = z.enum(['no_permissions', 'blocked', 'not_found', 'no_model', 'cancelled', 'unknown']);
export type LmErrorCode = z.infer<typeof LmErrorCodeSchema>;

export const LmRequestResultSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    /** From the model's countTokens (VS Code reports no usage): estimated, and logged as such. */
    input_tokens: z.number().int().nonnegative(),
    output_tokens: z.number().int().nonnegative(),
    /** The model that answered (selectChatModels may return several; the first is used). */
    model: z.object({ id: z.string(), name: z.string(), version: z.string() }),
  }),
  z.object({ ok: z.literal(false), code: LmErrorCodeSchema, message: z.string() }),
]);
export type LmRequestResult = z.infer<typeof LmRequestResultSchema>;
