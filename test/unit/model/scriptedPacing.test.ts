// A script can pace its replies like a model generating them ({"stream": {...}, "replies": [...]}):
// a person watching a scripted run sees each turn being written, and Stop interrupts it at once.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelError } from '../../../src/harness/model/model';
import { ScriptedModel } from '../../../src/harness/model/scripted';

const dir = mkdtempSync(join(tmpdir(), 'kite-pacing-'));
function scriptFile(json: unknown): string {
  const file = join(dir, `s-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(json));
  return file;
}
const reply = {
  content: [
    { type: 'thinking', thinking: 'The fee rounds down', signature: 's' },
    { type: 'text', text: 'Let me look at ledger.js.' },
  ],
  stop_reason: 'end_turn',
  usage: { input_tokens: 5, output_tokens: 5 },
};
const request = { system: 's', messages: [], tools: [] } as never;

describe('scripted model: paced streaming', () => {
  it('streams text and thinking in chunks of the given size, spaced by the delay, then returns the whole reply', async () => {
    const model = ScriptedModel.fromFile(scriptFile({ stream: { chunk_chars: 5, delay_ms: 20 }, replies: [reply] }));
    const text: string[] = [];
    const thinking: string[] = [];
    const started = Date.now();
    const got = await model.complete(request, { onText: (d) => text.push(d), onThinking: (d) => thinking.push(d) });
    const took = Date.now() - started;
    assert.deepEqual(thinking, ['The f', 'ee ro', 'unds ', 'down']);
    assert.deepEqual(text, ['Let m', 'e loo', 'k at ', 'ledge', 'r.js.']);
    assert.ok(took >= 9 * 20 - 5, `9 chunks 20 ms apart took ${took} ms`);
    assert.deepEqual(got.content, reply.content);
  });

  it('without "stream" each block arrives in one piece, at once', async () => {
    const model = ScriptedModel.fromFile(scriptFile({ replies: [reply] }));
    const text: string[] = [];
    await model.complete(request, { onText: (d) => text.push(d) });
    assert.deepEqual(text, ['Let me look at ledger.js.']);
  });

  it('a cancelled run stops a paced reply at once with a cancelled error', async () => {
    const model = ScriptedModel.fromFile(scriptFile({ stream: { chunk_chars: 1, delay_ms: 1000 }, replies: [reply] }));
    const abort = new AbortController();
    const text: string[] = [];
    const pending = model.complete({ ...(request as object), signal: abort.signal } as never, { onText: (d) => text.push(d) });
    setTimeout(() => abort.abort(), 30);
    const started = Date.now();
    await assert.rejects(pending, (e: unknown) => e instanceof ModelError && e.code === 'cancelled');
    assert.ok(Date.now() - started < 500, 'it does not wait out the delay');
    assert.deepEqual(text, []);
  });

  it('a bad "stream" is refused naming the field', () => {
    const file = scriptFile({ stream: { chunk_chars: 0, delay_ms: 10 }, replies: [reply] });
    assert.throws(
      () => ScriptedModel.fromFile(file),
      (e: unknown) => e instanceof ModelError && e.code === 'script_invalid' && e.message.includes(file) && /stream\.chunk_chars/.test(e.message),
    );
  });
});
