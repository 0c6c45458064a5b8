// The real model: Claude through the official SDK. Streams each reply (progress via onText, and a
// cancel aborts the HTTP request), caches the prompt prefix (cacheBreakpoints.ts), warns when that
// prefix drifts (prefixCheck.ts), and retries transport failures itself (retry.ts) so every retry
// is visible to the loop. A retry re-sends the whole call and drops the partial reply: tools only
// run after a complete Reply, so a retry can never execute a tool twice.
import Anthropic, { APIError } from '@anthropic-ai/sdk';
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages/messages';
import type { Reply } from '../protocol/content';
import { buildWireParams } from './cacheBreakpoints';
import { ModelError, type Model, type ModelObserver, type ModelRequest } from './model';
import { PrefixCheck } from './prefixCheck';
import { DEFAULT_MODEL } from './pricing';
import { ReplyAssembler } from './replyAssembler';
import { StreamWatchdog } from './streamWatchdog';
import { DEFAULT_BACKOFF, DEFAULT_MAX_RETRIES, DEFAULT_MAX_TOKENS, DEFAULT_TIMEOUT_MS, KEY_HINT, StreamInterrupted, classify, withRetries, type BackoffOptions } from './retry';

export interface AnthropicModelOptions {
  model: string;
  apiKey?: string;
  baseURL?: string;
  maxRetries?: number; // transport retries per call (default 4)
  timeoutMs?: number; // wait for the first byte, and the longest silence inside a stream (default 120 s)
  maxTokensDefault?: number; // used when a request has no max_tokens
  /** Where ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL are read from (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Prompt-cache breakpoints (default true); false exists to measure what caching saves. */
  cache?: boolean;
  backoff?: Partial<BackoffOptions>;
}

export { DEFAULT_MAX_RETRIES, DEFAULT_MAX_TOKENS, DEFAULT_TIMEOUT_MS }; // shared by every adapter (retry.ts)

export class AnthropicModel implements Model {
  readonly id: string;
  readonly model: string;
  private readonly client: Anthropic | null;
  private readonly maxRetries: number;
  private readonly timeoutMs: number;
  private readonly maxTokensDefault: number;
  private readonly cache: boolean;
  private readonly backoff: BackoffOptions;
  private readonly prefix = new PrefixCheck();

  constructor(opts: AnthropicModelOptions) {
    const env = opts.env ?? process.env;
    this.model = opts.model.replace(/^anthropic:/, '') || DEFAULT_MODEL;
    this.id = `anthropic:${this.model}`;
    this.maxRetries = opts.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxTokensDefault = opts.maxTokensDefault ?? DEFAULT_MAX_TOKENS;
    this.cache = opts.cache ?? true;
    this.backoff = { ...DEFAULT_BACKOFF, ...opts.backoff };
    const apiKey = (opts.apiKey ?? env.ANTHROPIC_API_KEY ?? '').trim();
    // No client without a key: the SDK would otherwise go looking for profiles and tokens on disk.
    this.client = apiKey
      ? new Anthropic({
          apiKey,
          baseURL: opts.baseURL ?? env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com',
          maxRetries: 0, // retries are ours, so they are logged
          timeout: this.timeoutMs,
          logLevel: 'off',
        })
      : null;
  }

  async complete(request: ModelRequest, observer?: ModelObserver): Promise<Reply> {
    const client = this.client;
    if (!client) throw new ModelError('missing_key', `No Anthropic API key: ${KEY_HINT}.`);
    // A summary call has its own prompt by design: it must not count as the run's prefix drifting.
    const changed = request.purpose === 'compaction' ? null : this.prefix.check(request.system, request.tools, request.messages);
    if (changed) observer?.onWarning?.({ code: 'prefix_changed', message: changed });
    const wire = buildWireParams(request.system, request.tools, request.messages, this.cache);
    const params = {
      model: this.model,
      max_tokens: request.max_tokens > 0 ? request.max_tokens : this.maxTokensDefault,
      ...(wire.system ? { system: wire.system } : {}),
      ...(wire.tools ? { tools: wire.tools } : {}),
      messages: wire.messages,
      stream: true,
      // Our content types are the Messages API shapes (protocol/content.ts) with open records.
    } as unknown as MessageCreateParamsStreaming;

    return withRetries(
      () => this.attempt(client, params, request.signal, observer),
      { maxRetries: this.maxRetries, backoff: this.backoff, classify, failedAfter: (n, detail) => `The Anthropic API call failed after ${n} attempts: ${detail}` },
      request.signal,
      observer,
    );
  }

  /** One HTTP call. Throws StreamInterrupted for a stalled or cut stream; the caller decides on a retry. */
  private async attempt(client: Anthropic, params: MessageCreateParamsStreaming, signal: AbortSignal | undefined, observer?: ModelObserver): Promise<Reply> {
    const watch = new StreamWatchdog(signal, this.timeoutMs);
    try {
      // The SDK's own timeout covers the wait for response headers; `arm` covers silence after that.
      const stream = await client.messages.create(params, { signal: watch.signal, timeout: this.timeoutMs, maxRetries: 0 });
      const assembler = new ReplyAssembler({
        onText: (d) => observer?.onText?.(d),
        onThinking: (d) => observer?.onThinking?.(d),
        onWarning: (code, message) => observer?.onWarning?.({ code, message }),
      });
      watch.arm();
      try {
        for await (const event of stream) {
          watch.arm();
          assembler.add(event);
        }
      } catch (e) {
        if (e instanceof APIError || e instanceof ModelError) throw e; // an `error` event from the service
        throw new StreamInterrupted('stream_cut', `the connection broke mid-reply (${(e as Error).message})`);
      }
      // The SDK ends the iteration quietly when its request is aborted: find out why.
      watch.throwIfCut();
      if (!assembler.complete) throw new StreamInterrupted('stream_cut', 'the reply stream ended before message_stop');
      return assembler.reply();
    } finally {
      watch.dispose(); // releases the connection if we stopped reading early
    }
  }
}
