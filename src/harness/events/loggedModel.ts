// Wraps a Model: every reply becomes a `model` event (exactly the content received, usage with
// cache fields, cost), every transport retry a `model_retry` event. Same interface as Model.
import type { Model, ModelObserver, ModelRequest } from '../model/model';
import { costOf, type Price } from '../model/pricing';
import type { Reply } from '../protocol/content';
import type { EventSink } from './sink';
import type { Clock } from './writer';
import { monotonicClock } from './writer';

export class LoggedModel implements Model {
  private turn: number;
  /** Cost of the last reply (the loop adds it to its totals). */
  lastCost = 0;

  constructor(
    private readonly inner: Model,
    private readonly log: EventSink,
    /** A fixed price, or a price per answering model id (a reply may name a dated snapshot); null: price unknown. */
    private readonly price: Price | ((model: string) => Price | null),
    turnsSoFar = 0, // a resumed run continues its turn numbering
    private readonly clock: Clock = monotonicClock,
  ) {
    this.turn = turnsSoFar;
  }

  get id(): string {
    return this.inner.id;
  }

  async complete(request: ModelRequest, observer?: ModelObserver): Promise<Reply> {
    const turn = this.turn + 1;
    let retries = 0;
    const began = this.clock();
    const wrapped: ModelObserver = {
      onRetry: (info) => {
        retries++;
        this.log.append({ kind: 'model_retry', turn, attempt: info.attempt, reason: info.reason, wait_ms: info.wait_ms });
        observer?.onRetry?.(info);
      },
      onText: observer?.onText ? (d) => observer.onText?.(d) : undefined,
      onThinking: observer?.onThinking ? (d) => observer.onThinking?.(d) : undefined,
      // Adapter warnings (prefix_changed breaks prompt caching; tool_input_unparsed) belong in the log.
      onWarning: (w) => {
        this.log.append({ kind: 'warning', code: w.code, message: w.message });
        observer?.onWarning?.(w);
      },
    };
    const reply = await this.inner.complete(request, wrapped);
    this.turn = turn;
    const u = reply.usage;
    const answeredBy = reply.model ?? this.inner.id;
    const price = typeof this.price === 'function' ? this.price(answeredBy) : this.price;
    this.lastCost = price ? costOf(u, price) : 0;
    this.log.append({
      kind: 'model',
      turn,
      ms: Math.round(this.clock() - began),
      stop: reply.stop_reason,
      content: reply.content,
      input_tokens: u.input_tokens,
      output_tokens: u.output_tokens,
      cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0,
      cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
      cost_usd: this.lastCost,
      ...(price ? {} : { price_unknown: true as const }),
      ...(u.estimated ? { estimated: true as const } : {}),
      model: answeredBy,
      ...(reply.model_info ? { model_info: reply.model_info } : {}),
      retries,
    });
    return reply;
  }
}
