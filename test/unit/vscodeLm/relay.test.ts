// The vscode-lm model seam across a real JSON-RPC connection (vscode-jsonrpc over in-memory
// streams, as between the harness server and the extension): the server's relay asks, the
// "extension" end streams parts and answers, the adapter assembles the reply. Cancellation goes
// both ways, and every LanguageModelError code becomes a typed error with a sentence to act on.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type CancellationToken, type MessageConnection } from 'vscode-jsonrpc/node';
import type { LanguageModelHost } from '../../../src/harness/host';
import { ModelError } from '../../../src/harness/model/model';
import { VscodeLmModel } from '../../../src/harness/model/vscodeLm';
import { LmRequestParamsSchema, type LmReplyPart, type LmRequestParams, type LmRequestResult } from '../../../src/harness/protocol/languageModel';
import { Rpc } from '../../../src/harness/protocol/rpc';
import { LanguageModelRelay } from '../../../src/harness/server/lmRelay';

type Answer = (q: LmRequestParams, send: (p: LmReplyPart) => void, token: CancellationToken) => Promise<unknown>;

/** Two ends of one connection: `server` (the harness) and `ext` (what HarnessClient does for lmRequest). */
function pair(answer: Answer | null): { relay: LanguageModelRelay; ext: MessageConnection; server: MessageConnection; asked: LmRequestParams[]; close(): void } {
  const a = new PassThrough();
  const b = new PassThrough();
  const server = createMessageConnection(new StreamMessageReader(a), new StreamMessageWriter(b));
  const ext = createMessageConnection(new StreamMessageReader(b), new StreamMessageWriter(a));
  const asked: LmRequestParams[] = [];
  if (answer)
    ext.onRequest(Rpc.lmRequest, (p: unknown, token: CancellationToken) => {
      const q = LmRequestParamsSchema.parse(p); // what the server sends parses with the shared schema
      asked.push(q);
      return answer(q, (part) => void ext.sendNotification(Rpc.lmPart, { requestId: q.requestId, part }), token);
    });
  server.listen();
  ext.listen();
  const relay = new LanguageModelRelay(server);
  return { relay, ext, server, asked, close: () => (server.dispose(), ext.dispose()) };
}

const hostOf = (relay: LanguageModelRelay): LanguageModelHost => ({ request: (ask, onPart, signal) => relay.request({ ...ask, token: 'r1-test' }, onPart, signal) });
const request = (signal?: AbortSignal) => ({ system: 'You are Kite.', messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'Fix F1' }] }], tools: [{ name: 'read_file', description: 'Read', input_schema: { type: 'object' } }], max_tokens: 100, signal });
const ok = (input: number, output: number): LmRequestResult => ({ ok: true, input_tokens: input, output_tokens: output, model: { id: 'scripted-1', name: 'Scripted', version: '1' } });

async function rejected(p: Promise<unknown>): Promise<ModelError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ModelError, String(e));
    return e;
  }
  assert.fail('expected a ModelError');
}

describe('vscode-lm: the model seam across JSON-RPC', function () {
  let close: (() => void) | undefined;
  afterEach(() => close?.());

  it('the extension streams parts, then answers with counted tokens: one reply, usage marked estimated, the model and run named in the request', async () => {
    const p = pair(async (_q, send) => {
      send({ type: 'text', text: 'Let me ' });
      send({ type: 'text', text: 'look.' });
      send({ type: 'tool_call', callId: 'call_1', name: 'read_file', input: { path: 'src/ledger.js' } });
      return ok(321, 17);
    });
    close = p.close;
    const streamed: string[] = [];
    const model = new VscodeLmModel('kite-test', 'scripted', hostOf(p.relay));
    assert.equal(model.id, 'vscode-lm:kite-test/scripted');
    const reply = await model.complete(request(), { onText: (d) => streamed.push(d) });
    assert.deepEqual(reply.content, [
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_use', id: 'call_1', name: 'read_file', input: { path: 'src/ledger.js' } },
    ]);
    assert.equal(reply.stop_reason, 'tool_use');
    assert.deepEqual(reply.usage, { input_tokens: 321, output_tokens: 17, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, estimated: true });
    assert.equal(reply.model, 'vscode-lm:kite-test/scripted');
    assert.deepEqual(streamed, ['Let me ', 'look.']);
    const q = p.asked[0]!;
    assert.equal(q.token, 'r1-test');
    assert.deepEqual([q.vendor, q.family], ['kite-test', 'scripted']);
    assert.deepEqual(q.messages[0], { role: 'user', parts: [{ type: 'text', text: 'You are Kite.' }, { type: 'text', text: 'Fix F1' }] });
    assert.deepEqual(q.tools, [{ name: 'read_file', description: 'Read', inputSchema: { type: 'object' } }]);
    assert.match(q.justification, /Kite/);
  });

  it('a stopped run cancels the request: the extension sees its CancellationToken fire, the model call ends cancelled, late parts are dropped', async () => {
    let sawCancel!: () => void;
    const cancelled = new Promise<void>((r) => (sawCancel = r));
    let started!: () => void;
    const streaming = new Promise<void>((r) => (started = r));
    const p = pair(
      (_q, send, token) =>
        new Promise((resolve) => {
          send({ type: 'text', text: 'partial' });
          started();
          token.onCancellationRequested(() => {
            sawCancel();
            send({ type: 'text', text: 'too late' });
            resolve({ ok: false, code: 'cancelled', message: 'the request was cancelled' });
          });
        }),
    );
    close = p.close;
    const controller = new AbortController();
    const model = new VscodeLmModel('kite-test', 'scripted', hostOf(p.relay));
    const streamed: string[] = [];
    const call = model.complete(request(controller.signal), { onText: (d) => streamed.push(d) });
    await streaming;
    controller.abort();
    const e = await rejected(call);
    assert.equal(e.code, 'cancelled');
    await cancelled; // the cancel crossed the connection
    assert.deepEqual(streamed.filter((s) => s === 'too late'), []);
  });

  it('cancelled from the VS Code side (the LM request was cancelled there): a cancelled model call, not an error', async () => {
    const p = pair(async () => ({ ok: false, code: 'cancelled', message: 'the request was cancelled' }));
    close = p.close;
    const e = await rejected(new VscodeLmModel('v', 'f', hostOf(p.relay)).complete(request()));
    assert.equal(e.code, 'cancelled');
    assert.match(e.message, /cancelled in VS Code/);
  });

  it('LanguageModelError codes become typed model errors with a sentence: consent refused explains the once-per-extension question and how to allow Kite', async () => {
    const cases: [LmRequestResult, string, RegExp][] = [
      [{ ok: false, code: 'no_permissions', message: "Language model 'x' cannot be used by 'kite-dev.kite'." }, 'no_permission', /asks once per extension whether Kite may use another extension's language models.*Manage Language Model Access….*allow Kite; then start the run again\.$/],
      [{ ok: false, code: 'blocked', message: 'quota exceeded' }, 'blocked', /refused the request \(a quota or rate limit.*VS Code said: quota exceeded.*No tool ran/],
      [{ ok: false, code: 'not_found', message: "Language model 'x' is unknown." }, 'model_not_found', /^Language model 'x' is unknown\. Pick one of the models this VS Code offers with "Kite: Select Model…" \(setting kite\.model\)\.$/],
      [{ ok: false, code: 'no_model', message: 'VS Code has no language model v/f (it offers: copilot/gpt-4o)' }, 'model_not_found', /^VS Code has no language model v\/f \(it offers: copilot\/gpt-4o\)\. Pick one of the models this VS Code offers with "Kite: Select Model…"/],
      [{ ok: false, code: 'unknown', message: 'provider exploded' }, 'unknown', /^vscode-lm:v\/f failed \(VS Code said: provider exploded\)\.$/],
    ];
    for (const [result, code, message] of cases) {
      const p = pair(async () => result);
      try {
        const e = await rejected(new VscodeLmModel('v', 'f', hostOf(p.relay), { maxRetries: 0 }).complete(request()));
        assert.equal(e.code, code, result.ok ? '' : result.code);
        assert.match(e.message, message);
      } finally {
        p.close();
      }
    }
  });

  it('an extension that cannot answer (no handler) or answers nonsense: an unknown model error naming what happened, never a hang', async () => {
    const none = pair(null);
    close = none.close;
    const e = await rejected(new VscodeLmModel('v', 'f', hostOf(none.relay)).complete(request()));
    assert.equal(e.code, 'unknown');
    assert.match(e.message, /the VS Code window could not answer \(Unhandled method kite\/lmRequest\)/);
    none.close();
    const junk = pair(async () => ({ ok: true, input_tokens: -1 }));
    close = junk.close;
    const j = await rejected(new VscodeLmModel('v', 'f', hostOf(junk.relay)).complete(request()));
    assert.equal(j.code, 'unknown');
    assert.match(j.message, /answered kite\/lmRequest with something Kite cannot read/);
  });
});
