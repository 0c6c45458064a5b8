// A model that says, turn by turn, exactly what the recorded model said: the `model` events of a
// log turned back into replies (content, stop reason, usage). Running out means the replay went
// further than the recording did — a ModelError, never a hang.
import type { Reply } from '../protocol/content';
import type { JudgeResult, KiteEvent } from '../protocol/events';
import { ModelError, type Model, type ModelRequest } from './model';

export class ReplayModel implements Model {
  private next = 0;

  constructor(
    private readonly replies: readonly Reply[],
    readonly id: string,
  ) {}

  static fromEvents(events: readonly KiteEvent[], log: string): ReplayModel {
    return new ReplayModel(repliesOf(events), `replay:${log}`);
  }

  get position(): number {
    return this.next;
  }

  get length(): number {
    return this.replies.length;
  }

  complete(request: ModelRequest): Promise<Reply> {
    if (request.signal?.aborted) return Promise.reject(new ModelError('cancelled', 'the replay was cancelled'));
    const reply = this.replies[this.next];
    if (!reply) {
      return Promise.reject(
        new ModelError('script_exhausted', `the recorded run has no more model replies (it had ${this.replies.length}); the replay needed another turn, so it went past the recording`),
      );
    }
    this.next++;
    return Promise.resolve(structuredClone(reply));
  }
}

/** The recorded model's replies, in order, as a scripted model takes them (replay, `kite eval add`). */
export function repliesOf(events: readonly KiteEvent[]): Reply[] {
  const replies: Reply[] = [];
  for (const e of events) {
    // A compaction's summary was a model reply too: the replay's compaction asks for it at the same point.
    if (e.kind === 'compaction' && e.summary) {
      const u = e.summary;
      replies.push({ content: [{ type: 'text', text: u.text }], stop_reason: 'end_turn', usage: { input_tokens: u.input_tokens, output_tokens: u.output_tokens, cache_creation_input_tokens: u.cache_creation_input_tokens, cache_read_input_tokens: u.cache_read_input_tokens }, model: u.model });
      continue;
    }
    if (e.kind !== 'model') continue;
    replies.push({
      content: e.content,
      stop_reason: e.stop,
      usage: {
        input_tokens: e.input_tokens,
        output_tokens: e.output_tokens,
        cache_creation_input_tokens: e.cache_creation_input_tokens,
        cache_read_input_tokens: e.cache_read_input_tokens,
        ...(e.estimated ? { estimated: true } : {}), // a replay of estimated counts says so too
      },
      model: e.model,
      ...(e.model_info ? { model_info: e.model_info } : {}), // a replay's log still says which model answered
    });
  }
  return replies;
}

/** A judge's recorded answer as a scripted model gives it back (a replay's gate, `kite eval add`). */
export function judgeReplyOf(j: JudgeResult): Reply {
  return {
    content: j.reply,
    stop_reason: j.reply.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
    usage: { input_tokens: j.input_tokens, output_tokens: j.output_tokens, cache_creation_input_tokens: j.cache_creation_input_tokens, cache_read_input_tokens: j.cache_read_input_tokens },
  };
}
