// A model that answers from a script: a JSON array of Messages API response objects
// ({content, stop_reason, usage}; other fields ignored), so a recorded real response drops in
// unchanged. Running out of replies is a ModelError('script_exhausted'), never a hang.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { ReplySchema, type AssistantBlock, type Reply, type StopReason, type Usage } from '../protocol/content';
import { ModelError, type Model, type ModelObserver, type ModelRequest } from './model';
import { formatIssues, jsonPath } from '../config/formatIssues';
import { describeJsonProblem, parseJsonText } from '../config/jsonText';

// Either a bare array of replies or {"replies": [...]} (room for metadata next to them).
const ScriptSchema = z.array(ReplySchema);
// `stream` paces the replies like a model generating them (text and thinking in chunks), so a
// person watching a scripted run — the demo, a UI test — sees the turn being written.
const PacingSchema = z.strictObject({ chunk_chars: z.number().int().min(1).max(10_000), delay_ms: z.number().int().min(0).max(10_000) });
const WrappedScriptSchema = z.looseObject({ replies: ScriptSchema, stream: PacingSchema.optional() });
export type ScriptPacing = z.infer<typeof PacingSchema>;

/** "reply 3 ($[2]) stop_reason": which reply (1-based, as a person counts) and which field. */
function replyLabel(wrapped: boolean): (path: readonly PropertyKey[]) => string {
  return (path) => {
    const rest = wrapped ? path.slice(1) : path;
    const n = rest[0];
    if (typeof n !== 'number') return jsonPath(path);
    const field = jsonPath(rest.slice(1)).replace(/^\$\.?/, '');
    return `reply ${n + 1} (${jsonPath(path.slice(0, wrapped ? 2 : 1))})${field ? ` ${field}` : ''}`;
  };
}

export const DEFAULT_USAGE: Usage = { input_tokens: 1000, output_tokens: 100, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

export class ScriptedModel implements Model {
  private next = 0;
  /** Requests as received (tests inspect what the model was sent). */
  readonly requests: ModelRequest[] = [];

  constructor(
    private readonly replies: readonly Reply[],
    readonly id = 'script:inline',
    private readonly pacing: ScriptPacing | null = null,
  ) {}

  static fromFile(path: string): ScriptedModel {
    const abs = resolve(path);
    let text: string;
    try {
      text = readFileSync(abs, 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder, not a file' : (e as Error).message;
      throw new ModelError('script_invalid', `${abs}: cannot read the script: ${why}`);
    }
    const json = parseJsonText(text);
    if (!json.ok) throw new ModelError('script_invalid', describeJsonProblem(abs, json.problem));
    const raw = json.value;
    const wrapped = raw !== null && typeof raw === 'object' && !Array.isArray(raw) && 'replies' in raw;
    if (!Array.isArray(raw) && !wrapped) {
      const got = raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw === 'object' ? 'an object without "replies"' : `a ${typeof raw}`;
      throw new ModelError('script_invalid', `${abs}: a script is a JSON array of replies (Messages API responses with content, stop_reason, usage) or {"replies": [...]}; this file holds ${got}`);
    }
    const parsed = wrapped ? WrappedScriptSchema.safeParse(raw) : ScriptSchema.transform((replies) => ({ replies, stream: undefined })).safeParse(raw);
    if (!parsed.success) throw new ModelError('script_invalid', formatIssues(abs, parsed.error, { raw, label: replyLabel(wrapped), text }));
    return new ScriptedModel(parsed.data.replies, `script:${abs}`, parsed.data.stream ?? null);
  }

  /** Continue at reply n (0-based): a resumed run skips the replies already in its log. */
  startAt(n: number): this {
    this.next = n;
    return this;
  }

  get position(): number {
    return this.next;
  }

  get remaining(): number {
    return this.replies.length - this.next;
  }

  complete(request: ModelRequest, observer?: ModelObserver): Promise<Reply> {
    this.requests.push(request);
    if (request.signal?.aborted) return Promise.reject(new ModelError('cancelled', 'the run was cancelled'));
    const reply = this.replies[this.next];
    if (!reply) {
      return Promise.reject(
        new ModelError('script_exhausted', `the script ran out of replies after ${this.replies.length} (${this.id}); the run needed another model turn`),
      );
    }
    this.next++;
    if (this.pacing) return this.streamPaced(reply, this.pacing, request.signal, observer);
    // Unpaced, a scripted reply "streams" in one piece per block, through the same path a real one takes.
    for (const b of reply.content) {
      if (b.type === 'text') observer?.onText?.(b.text);
      else if (b.type === 'thinking') observer?.onThinking?.(b.thinking);
    }
    // A copy, so the loop can never mutate the script.
    return Promise.resolve(structuredClone(reply));
  }

  private async streamPaced(reply: Reply, pacing: ScriptPacing, signal: AbortSignal | undefined, observer?: ModelObserver): Promise<Reply> {
    for (const b of reply.content) {
      const text = b.type === 'text' ? b.text : b.type === 'thinking' ? b.thinking : null;
      if (text === null) continue;
      for (let at = 0; at < text.length; at += pacing.chunk_chars) {
        await pause(pacing.delay_ms, signal);
        const chunk = text.slice(at, at + pacing.chunk_chars);
        if (b.type === 'text') observer?.onText?.(chunk);
        else observer?.onThinking?.(chunk);
      }
    }
    return structuredClone(reply);
  }
}

/** Waits `ms`; a cancelled run stops waiting at once with the same error an unpaced reply gives. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((done, fail) => {
    if (signal?.aborted) return fail(new ModelError('cancelled', 'the run was cancelled'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      done();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      fail(new ModelError('cancelled', 'the run was cancelled'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** One reply from blocks and a stop reason. */
export function reply(content: AssistantBlock[], stop_reason: StopReason, usage: Usage = DEFAULT_USAGE): Reply {
  return { content, stop_reason, usage: { ...usage } };
}

/** A final text reply (end_turn): the model claims it is done. */
export function say(text: string, usage?: Usage): Reply {
  return reply([{ type: 'text', text }], 'end_turn', usage);
}

/** A reply asking for one tool call. */
export function use(name: string, id: string, args: Record<string, unknown>, usage?: Usage): Reply {
  return reply([{ type: 'tool_use', id, name, input: args }], 'tool_use', usage);
}
