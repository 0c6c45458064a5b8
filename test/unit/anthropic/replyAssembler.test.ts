// Edge cases of assembling a streamed reply that the local server does not produce on its own.
import assert from 'node:assert/strict';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages/messages';
import { ModelError } from '../../../src/harness/model/model';
import { ReplyAssembler } from '../../../src/harness/model/replyAssembler';

// Minimal wire events; the assembler reads only these fields.
const ev = (e: Record<string, unknown>) => e as unknown as RawMessageStreamEvent;
const start = ev({ type: 'message_start', message: { id: 'msg_1', model: 'claude-sonnet-5-5', usage: { input_tokens: 10, output_tokens: 1, cache_creation_input_tokens: 5, cache_read_input_tokens: 100 } } });

describe('ReplyAssembler', () => {
  it('keeps a tool call whose arguments were cut by max_tokens, with {} and a warning, so the history stays valid', () => {
    const warnings: string[] = [];
    const a = new ReplyAssembler({ onWarning: (code) => warnings.push(code) });
    a.add(start);
    a.add(ev({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'write_file', input: {} } }));
    a.add(ev({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"path": "a.ts", "content": "export const x = ' } }));
    a.add(ev({ type: 'content_block_stop', index: 0 }));
    a.add(ev({ type: 'message_delta', delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: 4096, input_tokens: null, cache_creation_input_tokens: null, cache_read_input_tokens: null } }));
    a.add(ev({ type: 'message_stop' }));
    const r = a.reply();
    assert.deepEqual(r.content, [{ type: 'tool_use', id: 'toolu_1', name: 'write_file', input: {} }]);
    assert.equal(r.stop_reason, 'max_tokens');
    // null in message_delta means "not reported here": the message_start figures stay.
    assert.deepEqual(r.usage, { input_tokens: 10, output_tokens: 4096, cache_creation_input_tokens: 5, cache_read_input_tokens: 100 });
    assert.deepEqual(warnings, ['tool_input_unparsed']);
  });

  it('drops empty text and blocks Kite does not use, saying so', () => {
    const warnings: string[] = [];
    const a = new ReplyAssembler({ onWarning: (code) => warnings.push(code) });
    a.add(start);
    a.add(ev({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }));
    a.add(ev({ type: 'content_block_stop', index: 0 }));
    a.add(ev({ type: 'content_block_start', index: 1, content_block: { type: 'server_tool_use', id: 'srv_1', name: 'web_search', input: {} } }));
    a.add(ev({ type: 'content_block_stop', index: 1 }));
    a.add(ev({ type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } }));
    a.add(ev({ type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'Done.' } }));
    a.add(ev({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } }));
    a.add(ev({ type: 'message_stop' }));
    assert.deepEqual(a.reply().content, [{ type: 'text', text: 'Done.' }]);
    assert.deepEqual(warnings, ['unsupported_block']);
  });

  it('refuses a stop_reason it does not know, by code', () => {
    const a = new ReplyAssembler();
    a.add(start);
    a.add(ev({ type: 'message_delta', delta: { stop_reason: 'teleported' }, usage: { output_tokens: 1 } }));
    assert.throws(() => a.reply(), (e: unknown) => e instanceof ModelError && e.code === 'unknown' && /stop_reason "teleported"/.test(e.message));
    assert.equal(a.complete, false, 'no message_stop yet: a cut stream');
  });
});
