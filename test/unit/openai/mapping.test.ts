// The OpenAI wire mapping in both directions: Kite's conversation → chat-completions messages, and
// stream chunks → Kite's Reply (text, tool calls, finish reasons, usage with cached tokens,
// malformed calls as marked tool_use blocks that the toolbox reports precisely).
import assert from 'node:assert/strict';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions/completions';
import { describeMalformed, findTextToolCalls, malformedOf } from '../../../src/harness/model/malformedCall';
import { OpenAIAssembler } from '../../../src/harness/model/openaiAssembler';
import { stopReasonOf, toChatMessages, toChatTools, usageOf } from '../../../src/harness/model/openaiMapping';
import type { Message } from '../../../src/harness/protocol/content';
import { createToolbox } from '../../../src/harness/tools/index';

const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Partial<ChatCompletionChunk> = {}): ChatCompletionChunk =>
  ({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4.1-mini-2025-04-14', choices: [{ index: 0, delta, finish_reason: finish }], ...extra }) as ChatCompletionChunk;
const usageChunk = (prompt: number, completion: number, cached: number): ChatCompletionChunk =>
  ({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4.1-mini-2025-04-14', choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, prompt_tokens_details: { cached_tokens: cached } } }) as ChatCompletionChunk;

function assemble(chunks: ChatCompletionChunk[], tools = ['read_file', 'edit_file']) {
  const warnings: string[] = [];
  const texts: string[] = [];
  const a = new OpenAIAssembler('openai', tools, { onText: (t) => texts.push(t), onWarning: (code) => warnings.push(code) });
  for (const c of chunks) a.add(c);
  return { a, reply: a.complete ? a.reply() : null, warnings, texts };
}

describe('openai: Kite → chat completions', () => {
  it('system first; assistant text + tool_use become content + tool_calls; tool results become tool messages right after, then the user text', () => {
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'Fix F1.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hmm', signature: 's' },
          { type: 'text', text: 'Reading.' },
          { type: 'tool_use', id: 'call_1', name: 'read_file', input: { path: 'a.js' } },
          { type: 'tool_use', id: 'call_2', name: 'read_file', input: { path: 'b.js' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: 'one' },
          { type: 'tool_result', tool_use_id: 'call_2', content: [{ type: 'text', text: 'no such file' }], is_error: true },
          { type: 'text', text: '[Kite] notice' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    ];
    assert.deepEqual(toChatMessages('You are Kite.', messages), [
      { role: 'system', content: 'You are Kite.' },
      { role: 'user', content: 'Fix F1.' },
      {
        role: 'assistant',
        content: 'Reading.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.js"}' } },
          { id: 'call_2', type: 'function', function: { name: 'read_file', arguments: '{"path":"b.js"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'one' },
      { role: 'tool', tool_call_id: 'call_2', content: 'Error: no such file' },
      { role: 'user', content: '[Kite] notice' },
      { role: 'assistant', content: 'Done.' },
    ]);
  });

  it('a call with only tool_use has null content; tools are functions with the JSON Schema as parameters', () => {
    const out = toChatMessages('', [{ role: 'assistant', content: [{ type: 'tool_use', id: 'c', name: 'run', input: { command: 'npm test' } }] }]);
    assert.deepEqual(out, [{ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'run', arguments: '{"command":"npm test"}' } }] }]);
    const schema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
    assert.deepEqual(toChatTools([{ name: 'read_file', description: 'Read a file', input_schema: schema }]), [{ type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: schema } }]);
  });
});

describe('openai: chat completions → Kite', () => {
  it('streams text (onText per delta), joins tool-call pieces by index, names the provider and model, and splits cached tokens out of prompt_tokens', () => {
    const { reply, texts, warnings } = assemble([
      chunk({ role: 'assistant', content: '' }),
      chunk({ content: 'Let me ' }),
      chunk({ content: 'look.' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'edit_file', arguments: '{"path":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path": "a.js"}' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '"b.js"}' } }] }),
      chunk({}, 'tool_calls'),
      usageChunk(5000, 40, 4096),
    ]);
    assert.deepEqual(texts, ['Let me ', 'look.']);
    assert.deepEqual(warnings, []);
    assert.deepEqual(reply, {
      content: [
        { type: 'text', text: 'Let me look.' },
        { type: 'tool_use', id: 'call_a', name: 'read_file', input: { path: 'a.js' } },
        { type: 'tool_use', id: 'call_b', name: 'edit_file', input: { path: 'b.js' } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 904, output_tokens: 40, cache_creation_input_tokens: 0, cache_read_input_tokens: 4096 },
      model: 'openai:gpt-4.1-mini-2025-04-14',
      id: 'chatcmpl-1',
    });
  });

  it('finish reasons: stop → end_turn, tool_calls → tool_use, length → max_tokens, content_filter → refusal; "stop" after tool calls (some local servers) → tool_use', () => {
    assert.equal(stopReasonOf('stop', false), 'end_turn');
    assert.equal(stopReasonOf('stop', true), 'tool_use');
    assert.equal(stopReasonOf('tool_calls', true), 'tool_use');
    assert.equal(stopReasonOf('function_call', true), 'tool_use');
    assert.equal(stopReasonOf('length', false), 'max_tokens');
    assert.equal(stopReasonOf('length', true), 'max_tokens');
    assert.equal(stopReasonOf('content_filter', false), 'refusal');
    assert.equal(stopReasonOf('eos', false), null);
    assert.equal(assemble([chunk({ content: 'I cannot help with that.' }), chunk({}, 'content_filter'), usageChunk(10, 5, 0)]).reply?.stop_reason, 'refusal');
    assert.equal(assemble([chunk({ content: 'cut he' }), chunk({}, 'length'), usageChunk(10, 5, 0)]).reply?.stop_reason, 'max_tokens');
    const unknown = assemble([chunk({ content: 'ok' }), chunk({}, 'eos'), usageChunk(10, 5, 0)]);
    assert.equal(unknown.reply?.stop_reason, 'end_turn');
    assert.deepEqual(unknown.warnings, ['unknown_finish_reason']);
  });

  it('no finish reason means a cut stream (not complete); no usage is a warning, counted as 0 tokens', () => {
    assert.equal(assemble([chunk({ content: 'half' })]).a.complete, false);
    const r = assemble([chunk({ content: 'ok' }), chunk({}, 'stop')]);
    assert.deepEqual(r.warnings, ['usage_missing']);
    assert.deepEqual(r.reply?.usage, usageOf(null));
  });

  it('arguments that are not JSON become a marked call; the toolbox says exactly what was wrong, and the raw text goes back unchanged', () => {
    const { reply } = assemble([chunk({ tool_calls: [{ index: 0, id: 'call_x', function: { name: 'read_file', arguments: '{"path": "a.js"' } }] }), chunk({}, 'tool_calls'), usageChunk(10, 5, 0)]);
    const use = reply!.content[0] as { type: 'tool_use'; id: string; name: string; input: unknown };
    assert.equal(malformedOf(use.input)?.problem, 'arguments_not_json');
    const v = createToolbox().validate('read_file', use.input);
    assert.equal(v.ok, false);
    assert.match(!v.ok ? v.outcome.output : '', /^The arguments of this read_file call were not valid JSON \(.+\), so it was not run\. Call read_file again with its arguments as one JSON object matching its schema\. You sent: \{"path": "a\.js"$/);
    const back = toChatMessages('', [{ role: 'assistant', content: reply!.content }]);
    assert.equal((back[0] as { tool_calls: { function: { arguments: string } }[] }).tool_calls[0]!.function.arguments, '{"path": "a.js"');
  });

  it('a call without an id gets one; a tool call written as text (tags, a fenced block, the whole message) becomes a marked call, plain JSON naming no tool stays text', () => {
    const noId = assemble([chunk({ tool_calls: [{ index: 0, function: { name: 'read_file', arguments: '{}' } }] }), chunk({}, 'tool_calls'), usageChunk(1, 1, 0)]).reply!;
    assert.match((noId.content[0] as { id: string }).id, /^call_kite_[0-9a-f]{16}$/);

    const tagged = assemble([chunk({ content: 'Now:\n<tool_call>\n{"name": "read_file", "arguments": {"path": "a.js"}}\n</tool_call>' }), chunk({}, 'stop'), usageChunk(1, 1, 0)]).reply!;
    assert.equal(tagged.stop_reason, 'tool_use');
    assert.equal(tagged.content[0]?.type, 'text');
    const call = tagged.content[1] as { type: string; name: string; input: unknown };
    assert.equal(call.name, 'read_file');
    assert.deepEqual(malformedOf(call.input)?.detail, 'inside <tool_call> tags');
    assert.match(describeMalformed('read_file', malformedOf(call.input)!), /instead of making it through function calling, so it was not run/);

    assert.deepEqual(
      findTextToolCalls('```json\n{"name": "edit_file", "parameters": {"path": "a"}}\n```', ['edit_file']).map((c) => [c.name, c.arguments, c.where]),
      [['edit_file', '{"path":"a"}', 'in a code block']],
    );
    assert.equal(findTextToolCalls('{"name": "read_file", "arguments": {}}', ['read_file'])[0]?.where, 'as the whole message');
    assert.deepEqual(findTextToolCalls('The config is ```json\n{"name": "kite", "arguments": 1}\n```', ['read_file']), []);
    const plain = assemble([chunk({ content: '{"name": "kite"}' }), chunk({}, 'stop'), usageChunk(1, 1, 0)]).reply!;
    assert.equal(plain.stop_reason, 'end_turn');
    assert.equal(plain.content.length, 1);
  });
});
