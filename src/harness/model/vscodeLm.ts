// A model of VS Code's own (`vscode-lm:<vendor>/<family>`, e.g. a Copilot model) reached through
// the host: the harness server stays out of the extension host, so each reply is one request to
// the extension (protocol/languageModel.ts), which calls vscode.lm and streams the parts back.
// VS Code reports no usage: the extension counts tokens with the model's tokenizer, and the reply's
// usage is marked estimated (the log, the status bar and `kite cost` say so).
import type { LanguageModelHost } from '../host';
import type { LmRequestResult } from '../protocol/languageModel';
import { vscodeLmSpec } from '../protocol/languageModel';
import type { Reply } from '../protocol/content';
import { ModelError, type Model, type ModelObserver, type ModelRequest } from './model';
import { LmReplyAssembler, toLmMessages, toLmTools } from './vscodeLmMapping';

export const LM_JUSTIFICATION = 'Kite runs its coding agent with this model on the feature you started; every tool call it proposes is checked by your policy first.';

/** Output is estimated at ~4 characters a token while it streams (VS Code counts only afterwards). */
const CHARS_PER_TOKEN = 4;
/** How long a reply may go without a streamed part before Kite gives up on it (not a hang). */
export const LM_IDLE_TIMEOUT_MS = 120_000;
/** How long a stopped run waits for the window to confirm the request was cancelled. */
const LM_CANCEL_GRACE_MS = 5_000;

export class VscodeLmModel implements Model {
  readonly id: string;

  constructor(
    private readonly vendor: string,
    private readonly family: string,
    private readonly host: LanguageModelHost,
    private readonly idleTimeoutMs = LM_IDLE_TIMEOUT_MS,
  ) {
    this.id = vscodeLmSpec(vendor, family);
  }

  async complete(request: ModelRequest, observer?: ModelObserver): Promise<Reply> {
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
      return assembler.reply({ input_tokens: result !== 'idle' && result.ok ? result.input_tokens : 0, output_tokens: output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, estimated: true }, this.id, true);
    }
    if (idle || result === 'idle') throw new ModelError('network', `${this.id} sent nothing for ${Math.round(this.idleTimeoutMs / 100) / 10} s, so Kite cancelled the request. No tool ran; try again, or pick another model with "Kite: Select Model…".`);
    if (!result.ok) throw lmError(this.id, result);
    return assembler.reply({ input_tokens: result.input_tokens, output_tokens: result.output_tokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, estimated: true }, this.id);
  }
}

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
