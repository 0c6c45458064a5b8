// Compaction, before a model call, when the request is estimated above `compact_at` of the window:
//   1. old tool results (before the last `keep_turns` turns) become short stubs saying what was
//      cut and how to get it back, oldest first, until the request fits under `compact_to`;
//   2. if still too large, the older turns are replaced by a summary a model writes in a separate
//      call, with what binds the agent kept word for word (gate feedback, refusals and denials,
//      the person's edits). The system prompt and the briefing (with the verify command and the
//      checks) are never touched: they are outside what is compacted.
// The result is one `compaction` event; the reducer applies it (protocol/conversation.ts), so the
// live run, a resume and a replay all send the same compacted messages.
import type { ContextSettings } from './contextConfig';
import type { EventSink } from '../events/sink';
import type { Model } from '../model/model';
import { ModelError } from '../model/model';
import { costOf, type Price } from '../model/pricing';
import { COMPACTION_SYSTEM, compactionRequestText } from '../prompts/compaction';
import { summaryBlockText } from '../protocol/compaction';
import type { Message, ToolUseBlock } from '../protocol/content';
import { estimateTokens, requestTokens } from '../protocol/contextTally';
import type { EventBody, EventOf } from '../protocol/events';
import { replyText, type RunState } from '../protocol/reducer';

export interface CompactionDeps {
  settings: ContextSettings;
  window: number;
  /** The model that writes summaries: the run's own, unlogged (the compaction event records it). */
  summaryModel: Model;
  price: (model: string) => Price;
  maxTokens: number;
}

type Stub = EventOf<'compaction'>['stubbed'][number];
type Summary = NonNullable<EventOf<'compaction'>['summary']>;

const RESULT_CLIP = 1500; // characters of one tool result shown to the summarizer

/** Compacts when the next request would be too large; appends one `compaction` event, or nothing. */
export async function compactIfNeeded(s: RunState, c: CompactionDeps, log: EventSink, signal: AbortSignal): Promise<void> {
  if (!c.settings.compact || !s.conversation) return;
  const before = requestTokens(s.context);
  if (before <= c.settings.compact_at * c.window) return;
  const target = c.settings.compact_to * c.window;
  const msgs = s.conversation.finished();
  const keepFrom = keptFrom(msgs, c.settings.keep_turns);
  const fits = (chars: number) => estimateTokens(s.context.baseChars + chars, s.context.ratio) <= target;

  // Stage 1: stubs, oldest first.
  const stubbed: Stub[] = [];
  let chars = s.context.convChars;
  const done = new Set(s.compactions.flatMap((e) => e.stubbed.map((x) => x.id)));
  const uses = toolUses(msgs, keepFrom);
  outer: for (let i = 1; i < keepFrom && !fits(chars); i++) {
    const m = msgs[i]!;
    if (m.role !== 'user') continue;
    for (const b of m.content) {
      if (b.type !== 'tool_result' || typeof b.content !== 'string' || done.has(b.tool_use_id) || keptVerbatim(s, b.tool_use_id)) continue;
      const use = uses.get(b.tool_use_id);
      const stub = stubText(use, b.content.length);
      if (stub.length >= b.content.length) continue;
      stubbed.push({ id: b.tool_use_id, name: use?.name ?? '?', chars: b.content.length, stub });
      chars -= b.content.length - stub.length;
      if (fits(chars)) break outer;
    }
  }

  // Stage 2: a summary of messages [1, keepFrom), when the stubs were not enough.
  let summary: Summary | null = null;
  if (!fits(chars) && keepFrom > 1) {
    const stubOf = new Map(stubbed.map((x) => [x.id, x.stub]));
    const region = msgs.slice(1, keepFrom);
    const prev = [...s.compactions].reverse().find((e) => e.summary !== null)?.summary ?? null;
    const firstTurn = prev ? prev.turns[1] + 1 : 1;
    const lastTurn = firstTurn + region.filter((m) => m.role === 'assistant').length - 1;
    const kept = [...(prev?.kept ?? []), ...keptTexts(s, region, uses)];
    const made = await summarize(c, transcriptOf(region, stubOf, firstTurn, c.window), prev?.text ?? null, signal, log);
    if (made) {
      summary = { through: keepFrom, turns: [firstTurn, lastTurn], text: made.text, kept, ...made.usage };
      const regionChars = region.reduce((n, m) => n + charsOf(m, stubOf), 0);
      chars = chars - regionChars + summaryBlockText(summary).length - (prev ? summaryBlockText(prev).length : 0);
    }
  }
  if (!stubbed.length && !summary) return;
  const body: EventBody = {
    kind: 'compaction',
    turn: s.turns,
    tokens_before: before,
    tokens_after: estimateTokens(s.context.baseChars + chars, s.context.ratio),
    window: c.window,
    conv_chars_after: Math.max(0, chars),
    stubbed,
    summary,
    note: `the prompt cache breaks here once (the conversation changes from message ${firstChanged(msgs, stubbed, summary)}); later turns read the new prefix`,
  };
  log.append(body);
}

/** Index of the first message of the last `keep` turns (an assistant message); the length when keep is 0. */
function keptFrom(msgs: readonly Message[], keep: number): number {
  const assistants = msgs.flatMap((m, i) => (m.role === 'assistant' ? [i] : []));
  if (keep === 0) return msgs.length;
  return assistants.length > keep ? assistants[assistants.length - keep]! : 1;
}

function toolUses(msgs: readonly Message[], end: number): Map<string, ToolUseBlock> {
  const out = new Map<string, ToolUseBlock>();
  for (const m of msgs.slice(0, end)) if (m.role === 'assistant') for (const b of m.content) if (b.type === 'tool_use') out.set(b.id, b);
  return out;
}

/** Results that are constraints, not observations: a refusal or denial, or the person's edit. */
function keptVerbatim(s: RunState, id: string): boolean {
  const call = s.calls[id];
  return call !== undefined && (call.errorCode === 'denied' || call.approval === 'edit' || call.approval === 'deny');
}

function stubText(use: ToolUseBlock | undefined, chars: number): string {
  const a = (use?.input ?? {}) as Record<string, unknown>;
  const size = `${(chars / 1024).toFixed(1)} KB`;
  const str = (k: string) => (typeof a[k] === 'string' ? (a[k] as string) : null);
  switch (use?.name ?? '') {
    case 'read_file': {
      const lines = a.start_line !== undefined || a.end_line !== undefined ? ` lines ${String(a.start_line ?? 1)}-${String(a.end_line ?? 'end')}` : '';
      return `[Kite] read_file ${str('path') ?? '?'}${lines}: ${size}, cut by compaction; read it again if you need it.`;
    }
    case 'run':
      return `[Kite] output of run \`${(str('command') ?? '?').slice(0, 120)}\`: ${size}, cut by compaction; run it again if you need it.`;
    case 'search':
      return `[Kite] search ${JSON.stringify(str('pattern') ?? '')}: ${size} of matches, cut by compaction; search again if you need them.`;
    case 'list_files':
      return `[Kite] list_files ${str('path') ?? '.'}: ${size}, cut by compaction; list again if you need it.`;
    default:
      return `[Kite] result of ${use?.name ?? 'a tool call'}${str('path') ? ` ${str('path')}` : ''}: ${size}, cut by compaction.`;
  }
}

/** Harness texts (gate feedback, notices) and refusal/denial/edit results of the summarized turns. */
function keptTexts(s: RunState, region: readonly Message[], uses: Map<string, ToolUseBlock>): string[] {
  const out: string[] = [];
  for (const m of region) {
    if (m.role !== 'user') continue;
    for (const b of m.content) {
      if (b.type === 'text') out.push(b.text);
      else if (b.type === 'tool_result' && keptVerbatim(s, b.tool_use_id) && typeof b.content === 'string') {
        const use = uses.get(b.tool_use_id);
        out.push(`Turn ${s.calls[b.tool_use_id]?.turn ?? '?'}, your call ${use?.name ?? '?'} ${JSON.stringify(use?.input ?? {})} was answered:\n${b.content}`);
      }
    }
  }
  return out;
}

/** The summarized turns as text for the summary call (results clipped; it need not see everything). */
function transcriptOf(region: readonly Message[], stubOf: Map<string, string>, firstTurn: number, window: number): string {
  const parts: string[] = [];
  let turn = firstTurn;
  for (const m of region) {
    if (m.role === 'assistant') {
      parts.push(`## Turn ${turn++}: you`);
      for (const b of m.content) {
        if (b.type === 'text') parts.push(b.text);
        else if (b.type === 'tool_use') parts.push(`→ ${b.name} ${JSON.stringify(b.input)}`);
      }
    } else {
      for (const b of m.content) {
        if (b.type === 'text') parts.push(`Kite said:\n${b.text}`);
        else if (b.type === 'tool_result') {
          const text = stubOf.get(b.tool_use_id) ?? (typeof b.content === 'string' ? b.content : JSON.stringify(b.content));
          parts.push(`Result${b.is_error ? ' (error)' : ''}:\n${text.length > RESULT_CLIP ? `${text.slice(0, RESULT_CLIP)}… [${text.length - RESULT_CLIP} more characters]` : text}`);
        }
      }
    }
  }
  const all = parts.join('\n\n');
  const max = Math.floor(window * 4 * 0.5); // the summary call itself must fit the window
  return all.length > max ? `[… the oldest part is left out …]\n${all.slice(all.length - max)}` : all;
}

async function summarize(c: CompactionDeps, transcript: string, previous: string | null, signal: AbortSignal, log: EventSink): Promise<{ text: string; usage: Omit<Summary, 'through' | 'turns' | 'text' | 'kept'> } | null> {
  try {
    const reply = await c.summaryModel.complete({
      system: COMPACTION_SYSTEM,
      messages: [{ role: 'user', content: [{ type: 'text', text: compactionRequestText(transcript, previous) }] }],
      tools: [],
      max_tokens: Math.min(c.maxTokens, 2048),
      signal,
      purpose: 'compaction',
    });
    const text = replyText(reply.content);
    if (!text) throw new ModelError('unknown', 'the summary reply had no text');
    const model = reply.model ?? c.summaryModel.id;
    const u = reply.usage;
    const usage = { input_tokens: u.input_tokens, output_tokens: u.output_tokens, cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0, cache_read_input_tokens: u.cache_read_input_tokens ?? 0 };
    return { text, usage: { ...usage, cost_usd: costOf(usage, c.price(model)), model } };
  } catch (e) {
    if (signal.aborted) throw e;
    // Stubs alone then; the request may still be refused as too long, which ends the run plainly.
    log.append({ kind: 'warning', code: 'compaction_failed', message: `the summary call failed, so older turns were not summarized: ${(e as Error).message}` });
    return null;
  }
}

/** Characters of a message as the tally counts them (contextTally.ts). */
function charsOf(m: Message, stubOf: Map<string, string>): number {
  if (m.role === 'assistant') return JSON.stringify(m.content).length;
  let n = 0;
  for (const b of m.content) {
    if (b.type === 'text') n += b.text.length;
    else if (b.type === 'tool_result') n += (stubOf.get(b.tool_use_id) ?? (typeof b.content === 'string' ? b.content : JSON.stringify(b.content))).length;
  }
  return n;
}

function firstChanged(msgs: readonly Message[], stubbed: readonly Stub[], summary: Summary | null): number {
  if (summary) return 0;
  const ids = new Set(stubbed.map((x) => x.id));
  const i = msgs.findIndex((m) => m.role === 'user' && m.content.some((b) => b.type === 'tool_result' && ids.has(b.tool_use_id)));
  return Math.max(0, i);
}
