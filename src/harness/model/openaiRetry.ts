// The retry verdict for a failure of the OpenAI SDK, with the same rules as Claude's (retry.ts):
// 429/408/5xx and broken connections are retried with backoff (retry-after honoured), each retry a
// `model_retry` event; a rejected key or a refused request is not.
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { ModelError } from './model';
import { httpVerdict, StreamInterrupted, type Service, type Verdict } from './retry';

export interface OpenAIService extends Service {
  baseURL: string;
}

function detailOf(e: APIError): string {
  const what = [e.status, e.type ?? e.code].filter((x) => x !== undefined && x !== null).join(' ');
  const body = e.error as { message?: unknown } | undefined;
  const msg = typeof body?.message === 'string' ? body.message : e.message;
  return `${what ? what + ': ' : ''}${msg}${e.requestID ? ` [request-id ${e.requestID}]` : ''}`;
}

export function classifyOpenAI(e: unknown, svc: OpenAIService): Verdict {
  if (e instanceof ModelError) return { retry: false, error: e };
  if (e instanceof StreamInterrupted) return { retry: true, reason: e.reason, retryAfterMs: null, detail: e.message, finalCode: 'network' };
  if (e instanceof APIUserAbortError) return { retry: false, error: new ModelError('cancelled', 'The model call was cancelled.') };
  if (e instanceof APIConnectionTimeoutError) return { retry: true, reason: 'timeout', retryAfterMs: null, detail: 'the request timed out', finalCode: 'network' };
  if (e instanceof APIConnectionError) {
    const cause = (e.cause as Error | undefined)?.message ?? e.message;
    return { retry: true, reason: 'connection', retryAfterMs: null, detail: `could not reach ${svc.name} at ${svc.baseURL} (${cause}); is it running?`, finalCode: 'network' };
  }
  if (e instanceof APIError) {
    const detail = detailOf(e);
    // An error inside the stream has no status: the server failed while answering.
    if (e.status === undefined) return { retry: true, reason: 'server_error', retryAfterMs: null, detail, finalCode: 'network' };
    return httpVerdict(e.status, e.headers, detail, svc);
  }
  const err = e instanceof Error ? e : new Error(String(e));
  return { retry: false, error: new ModelError('unknown', `The model call failed: ${err.message}`) };
}
