// The retry policy as data: what is retried, how long to wait, and what is final.
import assert from 'node:assert/strict';
import { APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { ModelError } from '../../../src/harness/model/model';
import { DEFAULT_BACKOFF, StreamInterrupted, backoffMs, classify, retryAfterMs } from '../../../src/harness/model/retry';

const apiError = (status: number | undefined, type: string, headers: Record<string, string> = {}) =>
  APIError.generate(status, { type: 'error', error: { type, message: `${type} happened` } }, undefined, new Headers({ 'request-id': 'req_1', ...headers }));

describe('retry policy', () => {
  it('reads retry-after-ms, retry-after seconds and retry-after HTTP dates', () => {
    assert.equal(retryAfterMs(new Headers({ 'retry-after-ms': '250' })), 250);
    assert.equal(retryAfterMs(new Headers({ 'retry-after': '3' })), 3000);
    const now = Date.parse('2026-11-29T10:00:00Z');
    assert.equal(retryAfterMs(new Headers({ 'retry-after': 'Sun, 29 Nov 2026 10:00:05 GMT' }), now), 5000);
    assert.equal(retryAfterMs(new Headers({})), null);
  });

  it('retries 429, 529, 5xx, 408, timeouts and cut streams; not 400, 401, 403 or a user abort', () => {
    const reason = (e: unknown) => {
      const v = classify(e);
      return v.retry ? v.reason : v.error.code;
    };
    assert.equal(reason(apiError(429, 'rate_limit_error')), 'rate_limited');
    assert.equal(reason(apiError(529, 'overloaded_error')), 'overloaded');
    assert.equal(reason(apiError(500, 'api_error')), 'server_error');
    assert.equal(reason(apiError(503, 'api_error')), 'server_error');
    assert.equal(reason(apiError(408, 'timeout_error')), 'timeout');
    // An `error` event mid-stream: the SDK builds a status-less APIError carrying the error type.
    const body = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
    assert.equal(reason(new APIError(undefined, body, undefined, new Headers(), 'overloaded_error')), 'overloaded');
    assert.equal(reason(new APIConnectionTimeoutError()), 'timeout');
    assert.equal(reason(new StreamInterrupted('stream_cut', 'cut')), 'stream_cut');
    assert.equal(reason(apiError(400, 'invalid_request_error')), 'bad_request');
    assert.equal(reason(apiError(401, 'authentication_error')), 'auth');
    assert.equal(reason(apiError(403, 'permission_error')), 'auth');
    assert.equal(reason(new APIUserAbortError()), 'cancelled');
    assert.equal(reason(apiError(500, 'api_error', { 'x-should-retry': 'false' })), 'network');
    assert.equal(reason(new ModelError('missing_key', 'x')), 'missing_key');
  });

  it('honours the server wait and caps it; otherwise backs off exponentially with jitter up to a cap', () => {
    assert.equal(backoffMs(1, 2000, DEFAULT_BACKOFF), 2000);
    assert.equal(backoffMs(1, 3_600_000, DEFAULT_BACKOFF), DEFAULT_BACKOFF.maxRetryAfterMs);
    const o = { ...DEFAULT_BACKOFF, random: () => 1 };
    assert.deepEqual([1, 2, 3, 4].map((a) => backoffMs(a, null, o)), [500, 1000, 2000, 4000]);
    assert.equal(backoffMs(20, null, o), DEFAULT_BACKOFF.maxMs);
    assert.equal(backoffMs(1, null, { ...o, random: () => 0 }), 250);
  });
});
