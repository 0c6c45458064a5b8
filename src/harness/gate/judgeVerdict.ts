// The judge's answer, in one strict format: a call of the `verdict` tool (or, for models without
// tools, a text that is exactly that JSON object). Anything else is garbage, and garbage fails
// the check (fail closed): a judge that cannot say yes or no has not verified anything.
import { z } from 'zod';
import type { ToolSpec } from '../model/model';
import type { AssistantBlock } from '../protocol/content';
import { VerdictSchema, type Verdict } from './judgeCheck';

export const VERDICT_TOOL = 'verdict';

export const VerdictAnswerSchema = z.strictObject({
  verdict: VerdictSchema,
  reasons: z.string().trim().min(1, 'reasons are empty'),
});

export const VERDICT_TOOL_SPEC: ToolSpec = {
  name: VERDICT_TOOL,
  description: 'Give your verdict on the rubric: "yes" if the evidence shows the rubric holds, "no" otherwise, with the specific reasons (what is there, what is missing).',
  input_schema: z.toJSONSchema(VerdictAnswerSchema, { target: 'draft-7' }) as Record<string, unknown>,
};

export type ParsedVerdict = { ok: true; verdict: Verdict; reasons: string } | { ok: false; problem: string };

const clip = (s: string, n = 120) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function parseVerdict(content: readonly AssistantBlock[]): ParsedVerdict {
  const calls = content.filter((b) => b.type === 'tool_use');
  if (calls.length > 1) return { ok: false, problem: `it made ${calls.length} tool calls; exactly one call of "${VERDICT_TOOL}" was asked for` };
  const call = calls[0];
  if (call) {
    if (call.name !== VERDICT_TOOL) return { ok: false, problem: `it called "${call.name}", not "${VERDICT_TOOL}"` };
    return fromValue(call.input, `its "${VERDICT_TOOL}" call`);
  }
  const text = content
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('')
    .trim()
    .replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, '$1');
  if (!text) return { ok: false, problem: 'it gave no verdict (no tool call, no text)' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: `it answered in prose, not with the ${VERDICT_TOOL} tool or its JSON: "${clip(text)}"` };
  }
  return fromValue(value, 'its JSON answer');
}

function fromValue(value: unknown, what: string): ParsedVerdict {
  const r = VerdictAnswerSchema.safeParse(value);
  if (r.success) return { ok: true, verdict: r.data.verdict, reasons: r.data.reasons.trim() };
  const issues = r.error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'the answer'}: ${i.message}`).join('; ');
  return { ok: false, problem: `${what} is not {"verdict": "yes" | "no", "reasons": "…"} (${issues}): ${clip(JSON.stringify(value) ?? String(value))}` };
}
