// Contracts inside the real loop (assembleLoop's policy chain and gate, real tools in a temp git
// repository, a scripted model): forbid refuses the call as a policy decision the model sees,
// warn lets it run and tells the model, require refuses done like a failed gate until it is met.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KiteConfigFile } from '../../../src/harness/config/config';
import { runLoop } from '../../../src/harness/loop/session';
import { say, ScriptedModel, use } from '../../../src/harness/model/scripted';
import { checkContracts, ContractsSchema } from '../../../src/harness/policy/contracts';
import type { Message } from '../../../src/harness/protocol/content';
import { brief, FEATURE, makeDeps, tempRepo } from '../loop/kit';

const textOf = (m: Message): string => m.content.map((b) => (b.type === 'text' ? b.text : b.type === 'tool_result' ? String(b.content) : '')).join('\n');
const feature = { ...FEATURE, verify: null };

async function run(contracts: unknown[], script: ConstructorParameters<typeof ScriptedModel>[0]) {
  const root = tempRepo({ 'README.md': 'hello\n', 'CHANGELOG.md': 'v1\n', 'src/a.js': 'a\n' });
  const model = new ScriptedModel(script);
  const config: KiteConfigFile = { checks: ['test -d .git'], contracts: ContractsSchema.parse(contracts) }; // as loadConfig parses it
  const { deps, sink } = makeDeps({ root, model, config, feature });
  brief(deps);
  const r = await runLoop(deps, new AbortController().signal);
  return { r, sink, model, root, config };
}

describe('contracts in the loop', () => {
  it('forbid: the write is refused with the contract id as the policy rule, the model sees the message, the file is untouched', async () => {
    const { r, sink, model, root } = await run([{ id: 'no-changelog', never: { tool: 'write_file|edit_file', path: '^CHANGELOG\\.md$' }, message: 'the changelog belongs to the release team' }], [use('write_file', 'w1', { path: 'CHANGELOG.md', content: '{"x":1}\n' }), say('Done.')]);
    assert.equal(r.outcome, 'done');
    const p = sink.of('policy').find((e) => e.id === 'w1');
    assert.equal(p?.decision, 'deny');
    assert.equal(p?.rule, 'contract:no-changelog');
    const seen = textOf(model.requests[1].messages.at(-1) as Message);
    assert.match(seen, /contract no-changelog: the changelog belongs to the release team/);
    assert.match(seen, /was not modified/);
    assert.equal(readFileSync(join(root, 'CHANGELOG.md'), 'utf8'), 'v1\n');
  });

  it('warn: the call runs, a warning names the contract, the model is told', async () => {
    const { r, sink, model, root } = await run([{ id: 'src-only', always: { path: '^src/' }, when: { tool: 'write_file' }, action: 'warn' }], [use('write_file', 'w1', { path: 'notes.md', content: 'n\n' }), say('Done.')]);
    assert.equal(r.outcome, 'done');
    assert.equal(readFileSync(join(root, 'notes.md'), 'utf8'), 'n\n');
    assert.ok(sink.of('warning').some((w) => w.code === 'contract:src-only'));
    assert.match(textOf(model.requests[1].messages.at(-1) as Message), /Warning, contract src-only/);
  });

  it('require: claiming done before the eventually happened is refused like a failed gate; after it, done passes', async () => {
    const contracts = [{ id: 'read-readme', eventually: { tool: 'read_file', path: '^README\\.md$' }, action: 'require', message: 'read the README before finishing' }];
    const { r, sink, model, config } = await run(contracts, [say('Done.'), use('read_file', 'r1', { path: 'README.md' }), say('Done now.')]);
    assert.equal(r.outcome, 'done');
    const gates = sink.of('gate');
    assert.deepEqual(gates.map((g) => g.passed), [false, true]);
    assert.match(gates[0].feedback, /contract read-readme: read the README before finishing: it never happened/);
    assert.match(textOf(model.requests[1].messages.at(-1) as Message), /You are not done/);
    // The offline check of the same events gives the verdict the live check acted on.
    assert.deepEqual(checkContracts(config.contracts ?? [], sink.events).map((v) => v.status), ['held']);
  });
});
