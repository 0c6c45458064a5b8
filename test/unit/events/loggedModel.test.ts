import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LoggedModel } from '../../../src/harness/events/loggedModel';
import { createModel, defaultModelSpec, ModelSpecError } from '../../../src/harness/model/index';
import { ModelError, type Model, type ModelObserver } from '../../../src/harness/model/model';
import { DEFAULT_MODEL } from '../../../src/harness/model/pricing';
import { reply, say, ScriptedModel, use } from '../../../src/harness/model/scripted';
import { MemorySink, tempDir } from '../loop/kit';

const req = { system: 's', messages: [], tools: [], max_tokens: 100 };

describe('scripted model', () => {
  it('answers replies in order and fails clearly when it runs out (no hang)', async () => {
    const m = new ScriptedModel([say('a'), use('read_file', 'x', { path: 'p' })]);
    assert.equal((await m.complete(req)).stop_reason, 'end_turn');
    assert.equal((await m.complete(req)).content[0].type, 'tool_use');
    await assert.rejects(m.complete(req), (e: unknown) => e instanceof ModelError && e.code === 'script_exhausted' && /ran out of replies after 2/.test(e.message));
  });

  it('startAt continues at reply n (resume)', async () => {
    const m = new ScriptedModel([say('a'), say('b')]).startAt(1);
    assert.deepEqual((await m.complete(req)).content, [{ type: 'text', text: 'b' }]);
  });

  it('reads a file of Messages API responses; recorded responses with extra fields drop in unchanged', async () => {
    const dir = tempDir();
    const f = join(dir, 's.json');
    writeFileSync(f, JSON.stringify([{ id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'hi', citations: null }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 3, output_tokens: 1, service_tier: 'standard' } }]));
    const m = ScriptedModel.fromFile(f);
    assert.equal(m.id, `script:${f}`);
    const r = await m.complete(req);
    assert.equal(r.content[0].type === 'text' && r.content[0].text, 'hi');
  });

  it('a bad script names the file and the JSON path', () => {
    const dir = tempDir();
    const f = join(dir, 'bad.json');
    writeFileSync(f, JSON.stringify([say('ok'), { content: [], stop_reason: 'finished', usage: { input_tokens: 1, output_tokens: 1 } }]));
    assert.throws(() => ScriptedModel.fromFile(f), (e: unknown) => e instanceof ModelError && e.code === 'script_invalid' && e.message.includes('reply 2 ($[1]) stop_reason: expected one of') && e.message.includes('got "finished"'));
    assert.throws(() => ScriptedModel.fromFile(join(dir, 'missing.json')), /missing\.json: cannot read the script: no such file$/);
  });

  it('script problems say which reply and which field, where a JSON error is, and what a script must be', () => {
    const dir = tempDir();
    const write = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const fails = (f: string): string => {
      try {
        ScriptedModel.fromFile(f);
      } catch (e) {
        assert.ok(e instanceof ModelError && e.code === 'script_invalid');
        return e.message;
      }
      return assert.fail('expected script_invalid');
    };
    const ok = { content: [{ type: 'text', text: 'x' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } };
    const noStop = { content: [{ type: 'text', text: 'x' }], usage: { input_tokens: 1, output_tokens: 1 } };
    assert.match(fails(write('a.json', JSON.stringify([ok, ok, noStop]))), /a\.json:\d+:\d+: reply 3 \(\$\[2\]\) stop_reason: missing \(expected one of "end_turn"/);
    assert.match(fails(write('b.json', JSON.stringify({ replies: [ok, { ...ok, usage: {} }] }))), /reply 2 \(\$\.replies\[1\]\) usage\.input_tokens: missing/);
    assert.match(fails(write('c.json', '[\n  {"content": []},\n]')), /c\.json:3:1: not valid JSON: trailing comma before \]/);
    assert.match(fails(write('d.json', JSON.stringify(ok))), /d\.json: a script is a JSON array of replies .* this file holds an object without "replies"/);
    assert.match(fails(write('e.json', '"hello"')), /this file holds a string/);
  });
});

describe('createModel', () => {
  it('script: and bare ids; the default is the config model, else anthropic:DEFAULT_MODEL', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 's.json'), JSON.stringify([say('x')]));
    assert.match(createModel(`script:${join(dir, 's.json')}`).id, /^script:/);
    assert.equal(defaultModelSpec(null), `anthropic:${DEFAULT_MODEL}`);
    assert.equal(defaultModelSpec('claude-haiku-4-5'), 'anthropic:claude-haiku-4-5');
    assert.throws(() => createModel('gemini:pro'), ModelSpecError); // openai: is a provider since issue 16
    assert.throws(() => createModel('script:'), /nothing after "script:"/);
  });

  it('anthropic without a key is a clear error, not a crash', () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      assert.throws(() => createModel('anthropic:claude-sonnet-5-5'), (e: unknown) => (e instanceof ModelError && e.code === 'missing_key') || (e instanceof ModelSpecError && e.code === 'adapter_missing'));
    } finally {
      if (saved !== undefined) process.env.ANTHROPIC_API_KEY = saved;
    }
  });
});

describe('logged model', () => {
  it('logs the adapter\'s warnings (prefix_changed breaks prompt caching) as warning events before the reply', async () => {
    const warns: Model = {
      id: 'anthropic:claude-x',
      complete: async (_r, obs?: ModelObserver) => {
        obs?.onWarning?.({ code: 'prefix_changed', message: 'the system prompt changed at character 12' });
        return say('ok');
      },
    };
    const sink = new MemorySink();
    const seen: string[] = [];
    await new LoggedModel(warns, sink, { input: 3, output: 15 }).complete(req, { onWarning: (w) => seen.push(w.code) });
    assert.deepEqual(sink.kinds(), ['warning', 'model']);
    assert.equal(sink.of('warning')[0].message, 'the system prompt changed at character 12');
    assert.deepEqual(seen, ['prefix_changed']);
  });

  it('writes one model event per reply with usage, cache fields, cost and retries', async () => {
    const inner: Model = {
      id: 'anthropic:claude-sonnet-5-5',
      complete(_r, obs?: ModelObserver) {
        obs?.onRetry?.({ attempt: 1, reason: 'overloaded (529)', wait_ms: 500 });
        return Promise.resolve(reply([{ type: 'text', text: 'ok' }], 'end_turn', { input_tokens: 1000, output_tokens: 100, cache_creation_input_tokens: 2000, cache_read_input_tokens: 3000 }));
      },
    };
    const sink = new MemorySink();
    let t = 0;
    const m = new LoggedModel(inner, sink, { input: 3, output: 15 }, 4, () => (t += 250));
    await m.complete(req);
    assert.deepEqual(sink.kinds(), ['model_retry', 'model']);
    const e = sink.of('model')[0];
    assert.equal(e.turn, 5);
    assert.equal(e.ms, 250);
    assert.equal(e.retries, 1);
    assert.equal(e.cache_creation_input_tokens, 2000);
    assert.equal(e.cache_read_input_tokens, 3000);
    // $3 in, $15 out; cache write defaults to 1.25x input (3.75), read to 0.1x (0.3) per MTok
    assert.ok(Math.abs(e.cost_usd - (0.003 + 0.0015 + 0.0075 + 0.0009)) < 1e-12);
    assert.equal(sink.of('model_retry')[0].turn, 5);
  });

  it('prices each reply by the model that answered it when given a price function', async () => {
    const inner: Model = { id: 'script:/s.json', complete: () => Promise.resolve({ ...say('x', { input_tokens: 1_000_000, output_tokens: 0 }), model: 'cheap-1' }) };
    const sink = new MemorySink();
    const m = new LoggedModel(inner, sink, (id) => (id === 'cheap-1' ? { input: 1, output: 1 } : { input: 100, output: 100 }));
    await m.complete(req);
    assert.equal(sink.of('model')[0].cost_usd, 1);
    assert.equal(sink.of('model')[0].model, 'cheap-1');
  });
});
