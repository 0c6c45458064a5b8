// A model of VS Code's own (`vscode-lm:<vendor>/<family>`, e.g. a Copilot model) reached through
// the host: the harness server stays out of the extension host, so each reply is one request to
// the extension (protocol/languageModel.ts), which calls vscode.lm and streams the parts back.
// VS Code reports no usage: the extension counts tokens with the model's tokenizer, and the reply's
// usage is marked estimated (the log, the status bar and `kite cost` say so).
import type { LanguageModelHost } from '../host';
import type { LmErrorCode, LmRequestResult } from '../protocol/languageModel';
import { vscodeLmSpec } from '../protocol/languageModel';
import type { Reply } from '../protocol/content';
import { ModelError, type Model, type ModelObserver, type ModelRequest } from './model';
import { DEFAULT_BACKOFF, DEFAULT_MAX_RETRIES, withRetries, type BackoffOptions, type RetryPolicy, type RetryReason } from './retry';
import { LmReplyAssembler, toLmMessages, toLmTools } from './vscodeLmMapping';

export const LM_JUSTIFICATION = 'Kite runs its coding agent with this model on the feature you started; every tool call it proposes is checked by your policy first.';

/** Output is estimated at ~4 characters a token while it streams (VS Code counts only afterwards). */
const CHARS_PER_TOKEN = 4;
/** How long a reply may go without a streamed part before Kite gives up on it (not a hang). */
export const LM_IDLE_TIMEOUT_MS = 120_000;
/** How long a stopped run waits for the window to confirm the request was cancelled. */
const LM_CANCEL_GRACE_MS = 5_000;

export interface VscodeLmOptions {
  /** How long a reply may go without a streamed part (default LM_IDLE_TIMEOUT_MS). */
  idleTimeoutMs?: number;
  maxRetries?: number;
  backoff?: Partial<BackoffOptions>;
}

/** A failure worth another attempt (the vendor's rate limit, a failed request, silence, an empty reply), with its final error. */
class TransientLmFailure extends Error {
  constructor(
    readonly reason: RetryReason,
    readonly final: ModelError,
  ) {
    super(final.message);
  }
}

export class VscodeLmModel implements Model {
  readonly id: string;
  private readonly idleTimeoutMs: number;
  private readonly retry: RetryPolicy;

  constructor(
    private readonly vendor: string,
    private readonly family: string,
    private readonly host: LanguageModelHost,
    opts: VscodeLmOptions = {},
  ) {
    this.id = vscodeLmSpec(vendor, family);
    this.idleTimeoutMs = opts.idleTimeoutMs ?? LM_IDLE_TIMEOUT_MS;
    this.retry = {
      maxRetries: opts.maxRetries ?? DEFAULT_MAX_RETRIES,
      backoff: { ...DEFAULT_BACKOFF, ...opts.backoff },
      classify: (e) =>
        e instanceof TransientLmFailure
          ? { retry: true, reason: e.reason, retryAfterMs: null, detail: e.final.message, finalCode: e.final.code }
          : { retry: false, error: e instanceof ModelError ? e : new ModelError('unknown', `${this.id} failed: ${String(e)}`) },
      failedAfter: (n, detail) => (n > 1 ? `${detail} Kite tried ${n} times.` : detail),
    };
  }

  /** One reply, with the same retries as every provider: each transient failure is a `model_retry` event. */
  complete(request: ModelRequest, observer?: ModelObserver): Promise<Reply> {
    return withRetries(() => this.attempt(request, observer), this.retry, request.signal, observer);
  }

  private async attempt(request: ModelRequest, observer?: ModelObserver): Promise<Reply> {
    const signal = request.signal ?? new AbortController().signal;
    if (signal.aborted) throw new ModelError('cancelled', 'The model call was cancelled.');
    // Our own stop for this one request: the run's stop, the output limit, or silence.
    const inner = new AbortController();
    const onOuter = () => inner.abort();
    signal.addEventListener('abort', onOuter, { once: true });
    let cut = false;
    let idle = false;
    let timer: NodeJS.Timeout | undefined;
    const armIdle = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        idle = true;
        inner.abort();
      }, this.idleTimeoutMs);
    };
    const assembler = new LmReplyAssembler(observer?.onText ? (d) => observer.onText?.(d) : undefined);
    const max = request.max_tokens > 0 ? request.max_tokens : undefined;
    const ask = { vendor: this.vendor, family: this.family, messages: toLmMessages(request.system, request.messages), tools: toLmTools(request.tools), justification: LM_JUSTIFICATION, ...(max ? { max_tokens: max } : {}) };
    // A host that never answers (the window went away without closing the connection) must not hang the run.
    // On Stop the host's answer is awaited a moment: it comes once VS Code has cancelled the provider's request,
    // so the run ends cancelled only after the model stopped (or after the grace, if the window is gone).
    const silence = new Promise<'idle'>((resolve) =>
      inner.signal.addEventListener('abort', () => (idle || cut ? resolve('idle') : setTimeout(() => resolve('idle'), LM_CANCEL_GRACE_MS).unref()), { once: true }),
    );
    let result: LmRequestResult | 'idle';
    try {
      armIdle();
      const asked = this.host.request(
        ask,
        (p) => {
          if (inner.signal.aborted) return;
          armIdle();
          assembler.add(p);
          if (max !== undefined && assembler.outputChars / CHARS_PER_TOKEN > max) {
            cut = true;
            inner.abort();
          }
        },
        inner.signal,
      );
      asked.catch(() => undefined); // if we stop waiting first, a late failure is nobody's
      result = await Promise.race([asked, silence]);
    } catch (e) {
      if (signal.aborted) throw new ModelError('cancelled', 'The model call was cancelled.');
      throw new ModelError('unknown', `${this.id} failed: the VS Code window could not answer (${e instanceof Error ? e.message : String(e)}). No tool ran.`);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onOuter);
    }
    if (signal.aborted) throw new ModelError('cancelled', 'The model call was cancelled.');
    if (cut) {
      const output = Math.ceil(assembler.outputChars / CHARS_PER_TOKEN);
      const answered = result !== 'idle' && result.ok ? result : null;
      const reply = assembler.reply({ input_tokens: answered?.input_tokens ?? 0, output_tokens: output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, estimated: true }, this.id, true);
      return answered ? { ...reply, model_info: answered.model } : reply;
    }
    if (idle || result === 'idle')
      throw new TransientLmFailure('timeout', new ModelError('network', `${this.id} sent nothing for ${Math.round(this.idleTimeoutMs / 100) / 10} s, so Kite cancelled the request. No tool ran; try again, or pick another model with "Kite: Select Model…".`));
    if (!result.ok) {
      const error = lmError(this.id, result);
      const reason = TRANSIENT[result.code];
      throw reason ? new TransientLmFailure(reason, error) : error;
    }
    // Neither text nor a tool call: not a turn the agent can act on (nor an end of turn it chose).
    if (assembler.outputChars === 0)
      throw new TransientLmFailure('no_answer', new ModelError('no_answer', `${this.id} gave no answer (no text and no tool call). No tool ran; try again, or pick another model with "Kite: Select Model…".`));
    return { ...assembler.reply({ input_tokens: result.input_tokens, output_tokens: result.output_tokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, estimated: true }, this.id), model_info: result.model };
  }
}

/** The host's failures worth another attempt: the vendor's quota or rate limit, and a request that failed for a reason VS Code does not type (a server error, a dropped connection). */
const TRANSIENT: Partial<Record<LmErrorCode, RetryReason>> = { blocked: 'rate_limited', unknown: 'server_error' };

/** The typed error, with a sentence that says what did not happen and what the person can do. */
export function lmError(model: string, r: Extract<LmRequestResult, { ok: false }>): ModelError {
  const detail = r.message ? ` (VS Code said: ${r.message})` : '';
  switch (r.code) {
    case 'no_permissions':
      return new ModelError(
        'no_permission',
        `VS Code did not let Kite use ${model}: it asks once per extension whether Kite may use another extension's language models, and the answer was no or the dialog was closed${detail}. ` +
          'To allow it, open the Accounts menu (the person icon), pick the account of the models, then "Manage Language Model Access…" and allow Kite; then start the run again.',
      );
    case 'blocked':
      return new ModelError('blocked', `The provider of ${model} refused the request (a quota or rate limit, or this extension is blocked)${detail}. No tool ran; try again later or pick another model with "Kite: Select Model…".`);
    case 'not_found':
    case 'no_model':
      return new ModelError('model_not_found', `${(r.message || `VS Code has no language model ${model}`).replace(/\.$/, '')}. Pick one of the models this VS Code offers with "Kite: Select Model…" (setting kite.model).`);
    case 'cancelled':
      return new ModelError('cancelled', `The request to ${model} was cancelled in VS Code${detail}. No tool ran.`);
    case 'unknown':
      return new ModelError('unknown', `${model} failed${detail}.`);
    default: {
      const never: never = r.code;
      return never;
    }
  }
}
