// Tools on the wire: the model is sent only the tools the feature allows, and session_start
// records the list — checked on the request the local Messages API server received.
import assert from 'node:assert/strict';
import type { ScriptEntry } from '../../fakeAnthropic/script';
import { FakeAnthropicServer } from '../../fakeAnthropic/server';
import { bodyOf, contextProject, KEY, logEvents, runOn } from './kit';

const script: ScriptEntry[] = [
  { content: [{ type: 'tool_use', id: 'toolu_1', name: 'write_file', input: { path: 'done.txt', content: 'ok\n' } }], stop_reason: 'tool_use' },
  { content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn' },
];

describe('tools on the wire', function () {
  this.timeout(60_000);
  let server: FakeAnthropicServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("sends only the feature's tools (in the toolbox's order) and records the list in session_start", async () => {
    server = await FakeAnthropicServer.start({ script, apiKeys: [KEY] });
    const repo = contextProject({ tools: ['write_file', 'read_file'] });
    const r = await runOn(repo, server);
    assert.equal(r.outcome, 'done', r.summary);
    for (const [i] of server.requests.entries()) assert.deepEqual(bodyOf(server, i).tools?.map((t) => t.name), ['read_file', 'write_file'], `request ${i + 1}`);
    const start = logEvents(repo).find((e) => e.kind === 'session_start');
    assert.ok(start && start.kind === 'session_start');
    assert.deepEqual(start.allowed_tools, ['write_file', 'read_file']);
    assert.deepEqual(start.tools.map((t) => t.name), ['read_file', 'write_file']);
  });

  it('sends all six tools when the feature names none, and records null', async () => {
    server = await FakeAnthropicServer.start({ script, apiKeys: [KEY] });
    const repo = contextProject();
    const r = await runOn(repo, server);
    assert.equal(r.outcome, 'done', r.summary);
    assert.deepEqual(bodyOf(server, 0).tools?.map((t) => t.name), ['read_file', 'list_files', 'search', 'write_file', 'edit_file', 'run']);
    const start = logEvents(repo).find((e) => e.kind === 'session_start');
    assert.ok(start && start.kind === 'session_start');
    assert.equal(start.allowed_tools, null);
  });
});
