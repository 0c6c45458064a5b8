// The local server checks requests the way the service does, so the adapter's requests are really
// checked. Broken requests are sent directly with fetch and must come back as the service's 400.
import assert from 'node:assert/strict';
import type { FakeAnthropicServer } from '../../fakeAnthropic/server';
import { KEY, startServer } from './helpers';

const OK = [{ content: [{ type: 'text' as const, text: 'hi' }], stop_reason: 'end_turn' as const }];
const TOOL = { name: 'read_file', description: 'Read', input_schema: { type: 'object', properties: { path: { type: 'string' } } } };
const cc = { type: 'ephemeral' };

describe('fake Messages API: request validation', () => {
  let server: FakeAnthropicServer;
  before(async () => (server = await startServer([...OK, ...OK, ...OK])));
  after(async () => server.close());

  async function post(body: unknown, headers: Record<string, string> = { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' }) {
    const res = await fetch(`${server.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: res.status, requestId: res.headers.get('request-id'), body: (await res.json()) as { type: string; error?: { type: string; message: string } } };
  }
  const base = { model: 'claude-sonnet-5-5', max_tokens: 100 };
  const user = (content: unknown) => ({ role: 'user', content });
  const assistant = (content: unknown) => ({ role: 'assistant', content });
  const use = (id: string) => ({ type: 'tool_use', id, name: 'read_file', input: { path: 'a' } });
  const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'x' });

  const broken: [string, unknown, RegExp][] = [
    ['missing max_tokens', { model: 'm', messages: [user('hi')] }, /^max_tokens: Field required$/],
    ['missing model', { max_tokens: 5, messages: [user('hi')] }, /^model: Field required$/],
    ['no messages', { ...base, messages: [] }, /at least one message/],
    ['first message from the assistant', { ...base, messages: [assistant('hi')] }, /first message must use the "user" role/],
    ['two user messages in a row', { ...base, messages: [user('a'), user('b')] }, /roles must alternate .* multiple "user" roles in a row/],
    ['a tool_use without its tool_result next', { ...base, messages: [user('a'), assistant([use('toolu_1')]), user('and?')] }, /^messages\.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1/],
    ['an orphan tool_result', { ...base, messages: [user('a'), assistant('ok'), user([result('toolu_x')])] }, /^messages\.2\.content\.0: unexpected `tool_use_id`/],
    ['text before a tool_result', { ...base, messages: [user('a'), assistant([use('toolu_1')]), user([{ type: 'text', text: 'x' }, result('toolu_1')])] }, /messages\.2\.content\.1: `tool_result` blocks must come before/],
    ['an empty text block', { ...base, messages: [user([{ type: 'text', text: '' }])] }, /messages\.0\.content\.0\.text: text content blocks must be non-empty/],
    ['a tool schema that is not an object schema', { ...base, tools: [{ ...TOOL, input_schema: { type: 'string' } }], messages: [user('a')] }, /^tools\.0\.input_schema\.type: Input should be 'object'$/],
    ['a tool without input_schema', { ...base, tools: [{ name: 'x' }], messages: [user('a')] }, /^tools\.0\.input_schema: Field required$/],
    ['duplicate tool names', { ...base, tools: [TOOL, TOOL], messages: [user('a')] }, /Tool names must be unique/],
    ['thinking sent back without its signature', { ...base, messages: [user('a'), assistant([{ type: 'thinking', thinking: 't' }, { type: 'text', text: 'x' }]), user('b')] }, /messages\.1\.content\.0\.thinking\.signature: Field required/],
    [
      'five cache_control blocks',
      {
        ...base,
        tools: [{ ...TOOL, cache_control: cc }],
        system: [{ type: 'text', text: 's', cache_control: cc }],
        messages: [user([{ type: 'text', text: 'a', cache_control: cc }]), assistant('b'), user([{ type: 'text', text: 'c', cache_control: cc }, { type: 'text', text: 'd', cache_control: cc }])],
      },
      /^A maximum of 4 blocks with cache_control may be provided\. Found 5\.$/,
    ],
  ];
  for (const [name, body, message] of broken) {
    it(`rejects ${name} with the service's 400 error shape`, async () => {
      const r = await post(body);
      assert.equal(r.status, 400);
      assert.equal(r.body.type, 'error');
      assert.equal(r.body.error?.type, 'invalid_request_error');
      assert.match(r.body.error?.message ?? '', message);
      assert.match(r.requestId ?? '', /^req_[0-9a-f]{24}$/);
      assert.equal(server.turnsServed, 0, 'a rejected request does not consume a scripted reply');
    });
  }

  it('rejects a request without a key (401 authentication_error) and with a wrong key', async () => {
    const none = await post({ ...base, messages: [user('a')] }, { 'anthropic-version': '2023-06-01' });
    assert.equal(none.status, 401);
    assert.deepEqual(none.body.error, { type: 'authentication_error', message: 'x-api-key header is required' });
    const wrong = await post({ ...base, messages: [user('a')] }, { 'x-api-key': 'nope', 'anthropic-version': '2023-06-01' });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error?.message, 'invalid x-api-key');
  });

  it('answers a valid request (JSON, not streamed) with a complete message and its usage', async () => {
    const before = server.turnsServed;
    const r = await post({ ...base, tools: [TOOL], messages: [user('a'), assistant([use('toolu_1')]), user([result('toolu_1'), { type: 'text', text: 'go on' }])] });
    assert.equal(r.status, 200);
    const m = r.body as unknown as { type: string; role: string; content: unknown[]; stop_reason: string; usage: Record<string, number> };
    assert.equal(m.type, 'message');
    assert.deepEqual(m.content, [{ type: 'text', text: 'hi' }]);
    assert.equal(m.stop_reason, 'end_turn');
    assert.ok(m.usage.input_tokens! > 0 && m.usage.output_tokens! > 0);
    assert.equal(server.turnsServed, before + 1);
  });

  it('takes faults through the control endpoint', async () => {
    const c = await fetch(`${server.url}/_control/faults`, { method: 'POST', body: JSON.stringify({ faults: [{ kind: 'overloaded' }] }) });
    assert.equal(c.status, 200);
    const r = await post({ ...base, messages: [user('a')] });
    assert.equal(r.status, 529);
    assert.equal(r.body.error?.type, 'overloaded_error');
    const state = (await (await fetch(`${server.url}/_control/state`)).json()) as { requests: { outcome: string }[] };
    assert.equal(state.requests.at(-1)?.outcome, 'fault');
    const bad = await fetch(`${server.url}/_control/faults`, { method: 'POST', body: JSON.stringify({ faults: [{ kind: 'meteor' }] }) });
    assert.equal(bad.status, 400);
  });
});
