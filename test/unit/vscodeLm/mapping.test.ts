// Kite's conversation ⇄ the neutral language-model messages sent to the extension for vscode.lm:
// what the model is shown (system prompt, calls, results, errors) and how its streamed parts
// become the Reply the loop acts on.
import assert from 'node:assert/strict';
import { malformedInput } from '../../../src/harness/model/malformedCall';
import { LmReplyAssembler, toLmMessages, toLmTools } from '../../../src/harness/model/vscodeLmMapping';
import type { Message } from '../../../src/harness/protocol/content';
import { LmMessageSchema, parseVscodeLmSpec } from '../../../src/harness/protocol/languageModel';

const conversation: Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'Briefing: fix F1' }] },
  {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'hidden reasoning', signature: 's' },
      { type: 'text', text: 'Reading it.' },
      { type: 'tool_use', id: 'c1', name: 'read_file', input: { path: 'src/a.js' } },
      { type: 'tool_use', id: 'c2', name: 'run', input: malformedInput({ problem: 'arguments_not_json', sent: '{bad', detail: 'x' }) },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 'c1', content: 'const a = 1;' },
      { type: 'tool_result', tool_use_id: 'c2', content: [{ type: 'text', text: 'arguments were not JSON' }], is_error: true },
      { type: 'text', text: '[Kite] gate feedback' },
    ],
  },
];

describe('vscode-lm: mapping Kite content blocks to language-model messages', () => {
  it('the system prompt leads the first user message (no system role in the stable API); calls, results and errors keep their ids', () => {
    const out = toLmMessages('You are Kite.', conversation);
    for (const m of out) LmMessageSchema.parse(m); // what crosses the wire parses
    assert.deepEqual(out, [
      { role: 'user', parts: [{ type: 'text', text: 'You are Kite.' }, { type: 'text', text: 'Briefing: fix F1' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'text', text: 'Reading it.' },
          { type: 'tool_call', callId: 'c1', name: 'read_file', input: { path: 'src/a.js' } },
          { type: 'tool_call', callId: 'c2', name: 'run', input: {} }, // a malformed call goes back as {}; its result says why
        ],
      },
      {
        role: 'user',
        parts: [
          { type: 'tool_result', callId: 'c1', content: 'const a = 1;' },
          { type: 'tool_result', callId: 'c2', content: 'Error: arguments were not JSON' }, // no is_error flag in vscode.lm: said in the text
          { type: 'text', text: '[Kite] gate feedback' },
        ],
      },
    ]);
  });

  it('thinking is not sent, but an assistant turn of only thinking keeps its place; tools carry their JSON Schema', () => {
    const out = toLmMessages('', [conversation[0]!, { role: 'assistant', content: [{ type: 'thinking', thinking: 't' }] }]);
    assert.deepEqual(out[1], { role: 'assistant', parts: [{ type: 'text', text: '' }] });
    assert.deepEqual(out[0], { role: 'user', parts: [{ type: 'text', text: 'Briefing: fix F1' }] }, 'no empty system part');
    const schema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
    assert.deepEqual(toLmTools([{ name: 'read_file', description: 'Read a file', input_schema: schema }]), [{ name: 'read_file', description: 'Read a file', inputSchema: schema }]);
  });

  it('streamed parts become one reply: text joined and streamed, calls in order (stop tool_use); text alone is end_turn; usage as given', () => {
    const streamed: string[] = [];
    const a = new LmReplyAssembler((d) => streamed.push(d));
    a.add({ type: 'text', text: 'I will ' });
    a.add({ type: 'text', text: 'edit it.' });
    a.add({ type: 'tool_call', callId: 'k1', name: 'edit_file', input: { path: 'a', old_string: 'x', new_string: 'y' } });
    a.add({ type: 'tool_call', callId: 'k2', name: 'run', input: { command: 'npm test' } });
    const usage = { input_tokens: 120, output_tokens: 30, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, estimated: true };
    assert.deepEqual(a.reply(usage, 'vscode-lm:copilot/gpt-4o'), {
      content: [
        { type: 'text', text: 'I will edit it.' },
        { type: 'tool_use', id: 'k1', name: 'edit_file', input: { path: 'a', old_string: 'x', new_string: 'y' } },
        { type: 'tool_use', id: 'k2', name: 'run', input: { command: 'npm test' } },
      ],
      stop_reason: 'tool_use',
      usage,
      model: 'vscode-lm:copilot/gpt-4o',
    });
    assert.deepEqual(streamed, ['I will ', 'edit it.']);
    const done = new LmReplyAssembler();
    done.add({ type: 'text', text: 'Done.' });
    assert.equal(done.reply(usage, 'm').stop_reason, 'end_turn');
  });

  it('specs: vscode-lm:<vendor>/<family>; the family may hold a slash; vendor or family missing is not a spec', () => {
    assert.deepEqual(parseVscodeLmSpec('vscode-lm:copilot/gpt-4o'), { vendor: 'copilot', family: 'gpt-4o' });
    assert.deepEqual(parseVscodeLmSpec('vscode-lm:acme/org/model-1'), { vendor: 'acme', family: 'org/model-1' });
    for (const bad of ['vscode-lm:copilot', 'vscode-lm:/gpt-4o', 'vscode-lm:copilot/', 'openai:gpt-4o']) assert.equal(parseVscodeLmSpec(bad), null, bad);
  });
});
