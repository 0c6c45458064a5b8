// Which failures of a model call are worth another attempt, how long to wait, and the clear
// message for the ones that are not. Retries happen here (the SDK runs with maxRetries: 0) so each
// one is reported to the observer and lands in the log as `model_retry`.
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { ModelError, type ModelErrorCode, type ModelObserver } from './model';

/** Per-call defaults every adapter shares: transport retries, the silence that counts as a stall, max_tokens. */
export const DEFAULT_MAX_RETRIES = 4;
export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_TOKENS = 8192;

export type RetryReason = 'rate_limited' | 'overloaded' | 'server_error' | 'timeout' | 'connection' | 'stream_cut' | 'no_answer';

/** Thrown by the stream reader when a reply stops before message_stop or stalls. */
export class StreamInterrupted extends Error {
  constructor(
    readonly reason: 'stream_cut' | 'timeout',
    message: string,
  ) {
    super(message);
    this.name = 'StreamInterrupted';
  }
}

export type Verdict =
  | { retry: true; reason: RetryReason; retryAfterMs: number | null; detail: string; finalCode: ModelErrorCode }
  | { retry: false; error: ModelError };

export const KEY_HINT = 'set the ANTHROPIC_API_KEY environment variable, or in VS Code run "Kite: Set API Key…" and pick Anthropic';

/** Parses retry-after-ms / retry-after (seconds or an HTTP date) from response headers. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | null {
  if (!headers) return null;
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers.get('retry-after');
  if (!raw) return null;
  const s = Number.parseFloat(raw);
  if (Number.isFinite(s) && s >= 0) return s * 1000;
  const at = Date.parse(raw);
  return Number.isFinite(at) ? Math.max(0, at - now) : null;
}

function apiDetail(e: APIError): string {
  const what = [e.status, e.type].filter((x) => x !== undefined && x !== null).join(' ');
  const msg = e.apiMessage ?? e.message;
  return `${what ? what + ': ' : ''}${msg}${e.requestID ? ` [request-id ${e.requestID}]` : ''}`;
}

/** Who answered, for the messages of httpVerdict. */
export interface Service {
  name: string; // "the Anthropic API", "Ollama"
  keyHint: string; // how to set a valid key
}

const ANTHROPIC: Service = { name: 'the Anthropic API', keyHint: KEY_HINT };
const upper = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The verdict for an HTTP error status, shared by every provider (429/408/5xx retried, retry-after honoured). */
export function httpVerdict(status: number, headers: Headers | undefined, detail: string, svc: Service): Verdict {
  const who = upper(svc.name);
  if (status === 401 || status === 403)
    // The fix first: a clipped one-line display still shows it.
    return { retry: false, error: new ModelError('auth', `${who} rejected the API key; ${svc.keyHint} with a valid key (${detail}).`) };
  if (status === 429) return { retry: true, reason: 'rate_limited', retryAfterMs: retryAfterMs(headers), detail, finalCode: 'overloaded' };
  if (status === 529) return { retry: true, reason: 'overloaded', retryAfterMs: retryAfterMs(headers), detail, finalCode: 'overloaded' };
  if (status === 408) return { retry: true, reason: 'timeout', retryAfterMs: retryAfterMs(headers), detail, finalCode: 'network' };
  if (status >= 500) return { retry: true, reason: 'server_error', retryAfterMs: retryAfterMs(headers), detail, finalCode: 'network' };
  if (status >= 400) return { retry: false, error: new ModelError('bad_request', `${who} refused the request: ${detail}`) };
  return { retry: false, error: new ModelError('unknown', `${who} failed: ${detail}`) };
}

export function classify(e: unknown): Verdict {
  if (e instanceof ModelError) return { retry: false, error: e };
  if (e instanceof StreamInterrupted) return { retry: true, reason: e.reason, retryAfterMs: null, detail: e.message, finalCode: 'network' };
  if (e instanceof APIUserAbortError) return { retry: false, error: new ModelError('cancelled', 'The model call was cancelled.') };
  if (e instanceof APIConnectionTimeoutError) return { retry: true, reason: 'timeout', retryAfterMs: null, detail: 'the request timed out', finalCode: 'network' };
  if (e instanceof APIConnectionError)
    return { retry: true, reason: 'connection', retryAfterMs: null, detail: `could not reach the Anthropic API (${(e.cause as Error | undefined)?.message ?? e.message})`, finalCode: 'network' };
  if (e instanceof APIError) {
    const status = e.status;
    const shouldRetry = e.headers?.get('x-should-retry');
    const detail = apiDetail(e);
    // An error event inside a stream has no status; its type says what happened.
    if (status === undefined && e.type === 'overloaded_error') return { retry: true, reason: 'overloaded', retryAfterMs: null, detail, finalCode: 'overloaded' };
    if (status === undefined && e.type === 'rate_limit_error') return { retry: true, reason: 'rate_limited', retryAfterMs: null, detail, finalCode: 'overloaded' };
    if (status === undefined && e.type === 'api_error') return { retry: true, reason: 'server_error', retryAfterMs: null, detail, finalCode: 'network' };
    if (status !== 401 && status !== 403 && shouldRetry === 'false') return { retry: false, error: new ModelError(status !== undefined && status < 500 ? 'bad_request' : 'network', `The Anthropic API failed: ${detail}`) };
    // The service says "prompt is too long: N tokens > M maximum" with the generic 400 type; its
    // wording is the only mark it has, so it is recognized here, at the boundary, and typed.
    if (status === 400 && e.type === 'invalid_request_error' && /prompt is too long/i.test(e.apiMessage ?? e.message))
      return { retry: false, error: new ModelError('context_exceeded', `The conversation no longer fits the model's context window (${e.apiMessage ?? e.message}).`) };
    if (status !== undefined) return httpVerdict(status, e.headers, detail, ANTHROPIC);
    return { retry: false, error: new ModelError('unknown', `The Anthropic API failed: ${detail}`) };
  }
  // Errors from inside a streaming body are turned into StreamInterrupted by the reader; what is
  // left here is a programming or configuration error: not worth retrying.
  const err = e instanceof Error ? e : new Error(String(e));
  return { retry: false, error: new ModelError('unknown', `The model call failed: ${err.message}`) };
}

export interface BackoffOptions {
  baseMs: number; // first wait
  maxMs: number; // cap for computed waits
  maxRetryAfterMs: number; // cap for server-requested waits
  random: () => number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, maxMs: 30_000, maxRetryAfterMs: 60_000, random: Math.random };

/** Exponential backoff with jitter (half fixed, half random); a server's retry-after wins when given. */
export function backoffMs(attempt: number, retryAfter: number | null, o: BackoffOptions): number {
  if (retryAfter !== null) return Math.min(retryAfter, o.maxRetryAfterMs);
  const exp = Math.min(o.maxMs, o.baseMs * 2 ** (attempt - 1));
  return Math.round(exp / 2 + (o.random() * exp) / 2);
}

/** Resolves after ms, or rejects with ModelError('cancelled') when the signal fires first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ModelError('cancelled', 'The model call was cancelled.'));
    const onAbort = () => {
      clearTimeout(t);
      reject(new ModelError('cancelled', 'The model call was cancelled.'));
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface RetryPolicy {
  maxRetries: number;
  backoff: BackoffOptions;
  /** The verdict on one failed attempt. */
  classify: (e: unknown) => Verdict;
  /** The final message once the retries are spent, e.g. "The call to Ollama failed after 5 attempts: …". */
  failedAfter: (attempts: number, detail: string) => string;
}

/**
 * Runs one model call until it succeeds or fails for good, the same way for every adapter: a
 * retryable failure is reported to the observer (the log's `model_retry`) and waited out with
 * backoff; a stopped run ends the wait at once. Each attempt is a whole call, so no tool runs twice.
 */
export async function withRetries<T>(attempt: () => Promise<T>, policy: RetryPolicy, signal: AbortSignal | undefined, observer: ModelObserver | undefined): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (e) {
      if (signal?.aborted) throw new ModelError('cancelled', 'The model call was cancelled.');
      const verdict = policy.classify(e);
      if (!verdict.retry) throw verdict.error;
      if (n > policy.maxRetries) throw new ModelError(verdict.finalCode, policy.failedAfter(n, verdict.detail));
      const wait = backoffMs(n, verdict.retryAfterMs, policy.backoff);
      observer?.onRetry?.({ attempt: n, reason: `${verdict.reason}: ${verdict.detail}`, wait_ms: wait });
      await sleep(wait, signal);
    }
  }
}
