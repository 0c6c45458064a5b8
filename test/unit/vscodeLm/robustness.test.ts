// The vscode-lm model when the other side misbehaves: a reply longer than the turn's max_tokens is
// stopped there (VS Code has no standard output limit, so the harness enforces it); a host that
// goes silent, fails, or reports a cancellation or a vendor refusal becomes a clear ModelError with
// the vendor's words — never a hang.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Host } from '../../../src/harness/host';
import { runFeature } from '../../../src/harness/run';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import { CannedHost, git, tempRepo } from '../loop/kit';
import type { LanguageModelHost } from '../../../src/harness/host';
import { ModelError, type ModelRequest } from '../../../src/harness/model/model';
import { VscodeLmModel } from '../../../src/harness/model/vscodeLm';
import type { LmAsk, LmReplyPart, LmRequestResult } from '../../../src/harness/protocol/languageModel';

const OK: LmRequestResult = { ok: true, input_tokens: 12, output_tokens: 3, model: { id: 'm', name: 'M', version: '1' } };

/** A host whose request is a function of the ask, the part sink and the signal it was given. */
class FakeLm implements LanguageModelHost {
  readonly asks: LmAsk[] = [];
  signal: AbortSignal | null = null;
  constructor(private readonly answer: (onPart: (p: LmReplyPart) => void, signal: AbortSignal) => Promise<LmRequestResult>) {}
  request(ask: LmAsk, onPart: (p: LmReplyPart) => void, signal: AbortSignal): Promise<LmRequestResult> {
    this.asks.push(ask);
    this.signal = signal;
    return this.answer(onPart, signal);
  }
}

const request = (over: Partial<ModelRequest> = {}): ModelRequest => ({ system: 's', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [], max_tokens: 1000, ...over });
/** Two retries, a few milliseconds apart. */
const QUICK = { maxRetries: 2, backoff: { baseMs: 1, maxMs: 5 } };
const never = () => new Promise<LmRequestResult>(() => undefined);

async function rejection(p: Promise<unknown>): Promise<ModelError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ModelError, `a ModelError, not ${String(e)}`);
    return e;
  }
  assert.fail('expected the call to fail');
}

describe('vscode-lm model robustness', () => {
  it('Stop waits for the window to confirm the cancellation (the provider has stopped) before the call ends cancelled', async () => {
    const order: string[] = [];
    const host = new FakeLm(
      (_onPart, signal) =>
        new Promise<LmRequestResult>((resolve) =>
          signal.addEventListener('abort', () =>
            setTimeout(() => {
              order.push('window confirmed the cancellation');
              resolve({ ok: false, code: 'cancelled', message: 'the request was cancelled' });
            }, 150),
          ),
        ),
    );
    const stop = new AbortController();
    const call = new VscodeLmModel('v', 'f', host).complete(request({ signal: stop.signal }));
    setTimeout(() => stop.abort(), 20);
    const e = await rejection(call);
    order.push('call ended');
    assert.equal(e.code, 'cancelled');
    assert.deepEqual(order, ['window confirmed the cancellation', 'call ended']);
  });

  it('stops a reply at max_tokens: the ask carries the limit, the stream is cancelled, the reply says max_tokens', async () => {
    let sent = 0;
    const host = new FakeLm(async (onPart, signal) => {
      for (let i = 0; i < 200 && !signal.aborted; i++) {
        onPart({ type: 'text', text: 'x'.repeat(40) });
        sent++;
        await new Promise((r) => setImmediate(r));
      }
      return signal.aborted ? { ok: false, code: 'cancelled', message: 'the request was cancelled' } : OK;
    });
    const reply = await new VscodeLmModel('v', 'f', host).complete(request({ max_tokens: 100 }));
    assert.equal(host.asks[0].max_tokens, 100);
    assert.equal(reply.stop_reason, 'max_tokens');
    assert.equal(host.signal?.aborted, true, 'the host was told to stop');
    assert.ok(sent < 20, `stopped near the limit (${sent} parts of 40 characters streamed)`);
    assert.ok(reply.usage.output_tokens > 100 && reply.usage.output_tokens <= 110, String(reply.usage.output_tokens));
    assert.equal(reply.usage.estimated, true);
  });

  it('a reply within the limit is untouched', async () => {
    const host = new FakeLm((onPart) => {
      onPart({ type: 'text', text: 'short' });
      return Promise.resolve(OK);
    });
    const reply = await new VscodeLmModel('v', 'f', host).complete(request({ max_tokens: 100 }));
    assert.equal(reply.stop_reason, 'end_turn');
    assert.deepEqual(reply.content, [{ type: 'text', text: 'short' }]);
    assert.equal(reply.usage.output_tokens, 3);
  });

  it('a host that goes silent is given up on after the idle timeout, and cancelled', async () => {
    const host = new FakeLm(never);
    const t0 = Date.now();
    const e = await rejection(new VscodeLmModel('copilot', 'gpt-x', host, { idleTimeoutMs: 200, maxRetries: 0 }).complete(request()));
    assert.equal(e.code, 'network');
    assert.match(e.message, /vscode-lm:copilot\/gpt-x sent nothing for 0.2 s, so Kite cancelled the request\. No tool ran/);
    assert.ok(Date.now() - t0 < 5000);
    assert.equal(host.signal?.aborted, true);
  });

  it('parts keep a slow reply alive past the idle timeout', async () => {
    const host = new FakeLm(async (onPart) => {
      for (let i = 0; i < 6; i++) {
        await new Promise((r) => setTimeout(r, 60));
        onPart({ type: 'text', text: `${i}` });
      }
      return OK;
    });
    const reply = await new VscodeLmModel('v', 'f', host, { idleTimeoutMs: 150 }).complete(request());
    assert.deepEqual(reply.content, [{ type: 'text', text: '012345' }]);
  });

  it('a host that throws, cancels on its own or refuses becomes a ModelError with the vendor\'s message', async () => {
    const thrown = await rejection(new VscodeLmModel('v', 'f', new FakeLm(() => Promise.reject(new Error('connection disposed')))).complete(request()));
    assert.equal(thrown.code, 'unknown');
    assert.match(thrown.message, /vscode-lm:v\/f failed: the VS Code window could not answer \(connection disposed\)\. No tool ran/);

    const cancelled = await rejection(new VscodeLmModel('v', 'f', new FakeLm(() => Promise.resolve({ ok: false, code: 'cancelled', message: 'Response stream was cancelled by the provider' }))).complete(request()));
    assert.equal(cancelled.code, 'cancelled');
    assert.match(cancelled.message, /was cancelled in VS Code \(VS Code said: Response stream was cancelled by the provider\)\. No tool ran/);

    const blocked = await rejection(new VscodeLmModel('v', 'f', new FakeLm(() => Promise.resolve({ ok: false, code: 'blocked', message: 'Rate limit exceeded: 20 requests per minute' })), QUICK).complete(request()));
    assert.equal(blocked.code, 'blocked');
    assert.match(blocked.message, /refused the request.*VS Code said: Rate limit exceeded: 20 requests per minute.* Kite tried 3 times\.$/);
  });

  it('transient failures (a rate limit, an untyped failure, an empty reply) are retried with backoff, each reported as a retry', async () => {
    const answers: LmRequestResult[] = [
      { ok: false, code: 'blocked', message: 'Rate limit exceeded' },
      { ok: false, code: 'unknown', message: 'Server error: 503' },
      OK, // but nothing streamed: no answer
    ];
    let n = 0;
    const host = new FakeLm(async (onPart) => {
      const answer = answers[n++];
      if (answer) return answer;
      onPart({ type: 'text', text: 'Done.' });
      return OK;
    });
    const retries: { attempt: number; reason: string; wait_ms: number }[] = [];
    const reply = await new VscodeLmModel('v', 'f', host, { ...QUICK, maxRetries: 3 }).complete(request(), { onRetry: (r) => retries.push(r) });
    assert.deepEqual(reply.content, [{ type: 'text', text: 'Done.' }]);
    assert.equal(host.asks.length, 4);
    assert.deepEqual(
      retries.map((r) => [r.attempt, r.reason.split(':')[0]]),
      [
        [1, 'rate_limited'],
        [2, 'server_error'],
        [3, 'no_answer'],
      ],
    );
    assert.match(retries[1]!.reason, /VS Code said: Server error: 503/);
    assert.ok(retries.every((r) => r.wait_ms >= 0 && r.wait_ms <= 5));
  });

  it('a model that never answers ends with the typed cause no_answer; refusals that another try cannot fix are not retried', async () => {
    const empty = new FakeLm(() => Promise.resolve(OK));
    const e = await rejection(new VscodeLmModel('v', 'f', empty, QUICK).complete(request()));
    assert.equal(e.code, 'no_answer');
    assert.equal(e.message, 'vscode-lm:v/f gave no answer (no text and no tool call). No tool ran; try again, or pick another model with "Kite: Select Model…". Kite tried 3 times.');
    assert.equal(empty.asks.length, 3);
    for (const code of ['no_permissions', 'not_found', 'no_model', 'cancelled'] as const) {
      const host = new FakeLm(() => Promise.resolve({ ok: false, code, message: 'no' }));
      await rejection(new VscodeLmModel('v', 'f', host, QUICK).complete(request()));
      assert.equal(host.asks.length, 1, code);
    }
    const gone = new FakeLm(() => Promise.reject(new Error('connection disposed')));
    await rejection(new VscodeLmModel('v', 'f', gone, QUICK).complete(request()));
    assert.equal(gone.asks.length, 1, 'a window that cannot answer is not asked again');
  });

  it('stopping the run ends a request whose host never answers', async () => {
    const host = new FakeLm(never);
    const stop = new AbortController();
    const pending = new VscodeLmModel('v', 'f', host).complete(request({ signal: stop.signal }));
    setTimeout(() => stop.abort(), 20);
    const e = await rejection(pending);
    assert.equal(e.code, 'cancelled');
    assert.equal(host.signal?.aborted, true);
  });

  it('a run whose request VS Code cancelled ends cancelled with VS Code\'s words, and one that fails ends error with them', async function () {
    this.timeout(60_000);
    const SPEC = 'vscode-lm:kite-test/robust';
    const root = tempRepo();
    const file = join(root, '.kite', 'config.json');
    writeFileSync(file, JSON.stringify({ ...(JSON.parse(readFileSync(file, 'utf8')) as object), prices: { [SPEC]: { input: 0, output: 0 } } }, null, 2));
    git(root, 'commit', '-qam', 'price the test model');
    let lastEvents: KiteEvent[] = [];
    const end = async (answer: LmRequestResult) => {
      const host: Host = Object.assign(new CannedHost(), { languageModels: new FakeLm(() => Promise.resolve(answer)) });
      const s = await runFeature({ root, mode: 'attended', model: SPEC }, host);
      lastEvents = readFileSync(s.logPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as KiteEvent);
      return lastEvents.find((e) => e.kind === 'session_end');
    };
    const cancelled = await end({ ok: false, code: 'cancelled', message: 'Response stream was cancelled by the provider' });
    assert.ok(cancelled?.kind === 'session_end' && cancelled.status === 'cancelled', JSON.stringify(cancelled));
    assert.match(cancelled.summary ?? '', /cancelled in VS Code \(VS Code said: Response stream was cancelled by the provider\)/);
    const failed = await end({ ok: false, code: 'unknown', message: 'Server error: 500' });
    assert.ok(failed?.kind === 'session_end' && failed.status === 'error', JSON.stringify(failed));
    assert.match(failed.summary ?? '', /model error \(unknown\): vscode-lm:kite-test\/robust failed \(VS Code said: Server error: 500\)\. Kite tried 5 times\./);
    assert.deepEqual(
      lastEvents.filter((e) => e.kind === 'model_retry').map((e) => e.kind === 'model_retry' && [e.attempt, e.reason.split(':')[0]]),
      [1, 2, 3, 4].map((n) => [n, 'server_error']),
      'each retry of the failed request is in the log',
    );
  });
});
