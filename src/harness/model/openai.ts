// Any OpenAI-compatible chat-completions endpoint through the official SDK: OpenAI itself and the
// local presets (providers.ts). Like the Claude adapter it streams each reply, aborts the HTTP
// request on cancel, and retries transport failures itself (each one a `model_retry` event). A
// retry re-sends the whole call and drops the partial reply: tools only run after a complete
// Reply, so a retry can never execute a tool twice.
import OpenAI, { APIError } from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions/completions';
import type { Reply } from '../protocol/content';
import { ModelError, type Model, type ModelObserver, type ModelRequest } from './model';
import { OpenAIAssembler } from './openaiAssembler';
import { StreamWatchdog } from './streamWatchdog';
import { toChatMessages, toChatTools } from './openaiMapping';
import { classifyOpenAI, type OpenAIService } from './openaiRetry';
import { OPENAI_KEY_HINT, type ResolvedProvider } from './providers';
import { DEFAULT_BACKOFF, DEFAULT_MAX_RETRIES, DEFAULT_MAX_TOKENS, DEFAULT_TIMEOUT_MS, StreamInterrupted, withRetries, type BackoffOptions } from './retry';

export interface OpenAIModelOptions {
  model: string; // the id the server knows ("gpt-4.1-mini", "qwen2.5-coder:7b")
  provider: ResolvedProvider;
  maxRetries?: number;
  timeoutMs?: number; // wait for the first byte, and the longest silence inside a stream
  maxTokensDefault?: number;
  backoff?: Partial<BackoffOptions>;
}

export class OpenAIModel implements Model {
  readonly id: string;
  private readonly client: OpenAI;
  private readonly service: OpenAIService;
  private readonly maxRetries: number;
  private readonly timeoutMs: number;
  private readonly maxTokensDefault: number;
  private readonly backoff: BackoffOptions;

  constructor(private readonly opts: OpenAIModelOptions) {
    const p = opts.provider;
    this.id = `${p.provider}:${opts.model}`;
    this.maxRetries = opts.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxTokensDefault = opts.maxTokensDefault ?? DEFAULT_MAX_TOKENS;
    this.backoff = { ...DEFAULT_BACKOFF, ...opts.backoff };
    // Kite never sends a key to a local preset, so a local server that wants one needs another route.
    const keyHint = p.provider === 'openai' ? OPENAI_KEY_HINT : `Kite sends no key to a local server: start ${p.label} without one, or use openai:<model> with OPENAI_BASE_URL and OPENAI_API_KEY`;
    this.service = { name: p.label, keyHint, baseURL: p.baseURL };
    this.client = new OpenAI({
      // A local server takes any key; the SDK insists on one. Organization and project come
      // only from the person's environment, and only for OpenAI itself.
      apiKey: p.apiKey ?? 'no-key',
      baseURL: p.baseURL,
      ...(p.provider === 'openai' ? {} : { organization: null, project: null }),
      maxRetries: 0, // retries are ours, so they are logged
      timeout: this.timeoutMs,
      logLevel: 'off',
    });
  }

  async complete(request: ModelRequest, observer?: ModelObserver): Promise<Reply> {
    const maxTokens = request.max_tokens > 0 ? request.max_tokens : this.maxTokensDefault;
    const params = {
      model: this.opts.model,
      messages: toChatMessages(request.system, request.messages),
      ...(request.tools.length ? { tools: toChatTools(request.tools) } : {}),
      [this.opts.provider.maxTokensField]: maxTokens,
      stream: true,
      stream_options: { include_usage: true },
    } as ChatCompletionCreateParamsStreaming;
    const toolNames = request.tools.map((t) => t.name);

    return withRetries(
      () => this.attempt(params, toolNames, request.signal, observer),
      { maxRetries: this.maxRetries, backoff: this.backoff, classify: (e) => classifyOpenAI(e, this.service), failedAfter: (n, detail) => `The call to ${this.service.name} failed after ${n} attempts: ${detail}` },
      request.signal,
      observer,
    );
  }

  /** One HTTP call. Throws StreamInterrupted for a stalled or cut stream; the caller decides on a retry. */
  private async attempt(params: ChatCompletionCreateParamsStreaming, toolNames: string[], signal: AbortSignal | undefined, observer?: ModelObserver): Promise<Reply> {
    const watch = new StreamWatchdog(signal, this.timeoutMs);
    try {
      const stream = await this.client.chat.completions.create(params, { signal: watch.signal, timeout: this.timeoutMs, maxRetries: 0 });
      const assembler = new OpenAIAssembler(this.opts.provider.provider, toolNames, {
        onText: (d) => observer?.onText?.(d),
        onWarning: (code, message) => observer?.onWarning?.({ code, message }),
      });
      watch.arm();
      try {
        for await (const chunk of stream) {
          watch.arm();
          assembler.add(chunk);
        }
      } catch (e) {
        if (e instanceof APIError || e instanceof ModelError) throw e; // an error the server sent inside the stream
        throw new StreamInterrupted('stream_cut', `the connection broke mid-reply (${(e as Error).message})`);
      }
      watch.throwIfCut();
      if (!assembler.complete) throw new StreamInterrupted('stream_cut', 'the reply stream ended before a finish_reason');
      return assembler.reply();
    } finally {
      watch.dispose(); // releases the connection if we stopped reading early
    }
  }
}
