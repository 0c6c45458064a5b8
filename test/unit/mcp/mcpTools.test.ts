// MCP tools as Kite tools: names, schema compilation and argument checks, result reduction, policy.
import assert from 'node:assert/strict';
import { Policy } from '../../../src/harness/policy/policy';
import { PolicyConfigSchema } from '../../../src/harness/policy/config';
import { mcpResultText } from '../../../src/harness/mcp/mcpResult';
import { compileInputSchema, defineMcpTool, mcpToolName, serverOfToolName } from '../../../src/harness/mcp/mcpTools';
import { createToolboxFrom } from '../../../src/harness/tools/toolbox';
import { ok } from '../../../src/harness/tools/defineTool';

describe('MCP tools as Kite tools', () => {
  it('names: mcp__<server>__<tool>, lowercase, [a-z0-9_] only, the server part splits back', () => {
    assert.equal(mcpToolName('Everything', 'get-tiny-image'), 'mcp__everything__get_tiny_image');
    assert.equal(mcpToolName('my__srv', 'x'), 'mcp__my_srv__x');
    assert.equal(serverOfToolName('mcp__my_srv__a__b'), 'my_srv');
    assert.equal(serverOfToolName('read_file'), null);
  });

  it('compiles the schema with ajv; a bad schema is a problem, not a tool', () => {
    assert.match((compileInputSchema({ type: 'object', properties: { a: { type: 'nonsense' } } }) as { problem: string }).problem, /does not compile/);
    assert.match((compileInputSchema({ type: 'string' }) as { problem: string }).problem, /not "object"/);
    assert.match((compileInputSchema(null) as { problem: string }).problem, /not a JSON object/);
  });

  it('arguments are checked against the server schema before the call, with the field named', async () => {
    const c = compileInputSchema({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { n: { type: 'number', minimum: 1 }, mode: { enum: ['a', 'b'] } }, required: ['n'], additionalProperties: false });
    assert.ok(c.ok);
    assert.equal(c.schema.$schema, undefined, '$schema is not sent to the model');
    let calls = 0;
    const tool = defineMcpTool({ server: 'srv', tool: 'do-it', description: 'Does it.', schema: c.schema, input: c.input, readOnlyAllowed: false, unavailable: () => null, call: () => (calls++, Promise.resolve(ok('done'))) });
    assert.ok(!('problem' in tool));
    const box = createToolboxFrom([tool]);
    assert.deepEqual(box.specs()[0].input_schema, c.schema);
    assert.match(box.specs()[0].description, /Does it\.\n\n\(MCP tool "do-it" of the server "srv"\.\)/);
    const bad = box.validate('mcp__srv__do_it', { n: 0, mode: 'c', extra: 1 });
    assert.ok(!bad.ok);
    assert.match(bad.outcome.output, /it was not run/);
    assert.match(bad.outcome.output, /- n: must be >= 1/);
    assert.match(bad.outcome.output, /- mode: must be equal to one of the allowed values: \["a","b"\]/);
    assert.match(bad.outcome.output, /must NOT have additional properties \("extra"\)/);
    assert.match((box.validate('mcp__srv__do_it', {}) as { outcome: { output: string } }).outcome.output, /- n: must have required property 'n'/);
    assert.equal(calls, 0);
    assert.ok(box.validate('mcp__srv__do_it', { n: 2 }).ok);
  });

  it('results: text kept, images and audio as a note, resource links by URI, structured content as JSON', () => {
    const text = mcpResultText({
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'resource_link', uri: 'file:///x.txt', name: 'x.txt', mimeType: 'text/plain' },
        { type: 'resource', resource: { uri: 'mem://a', text: 'inline body' } },
        { type: 'resource', resource: { uri: 'mem://b', blob: 'AAAAAAAA', mimeType: 'application/zip' } },
      ],
    });
    assert.equal(text, 'hello\n[image: image/png, 3 bytes; not shown to the model]\n[resource link: x.txt <file:///x.txt> (text/plain)]\n[resource <mem://a>]\ninline body\n[resource <mem://b>: application/zip, 6 bytes; not shown to the model]');
    assert.equal(mcpResultText({ content: [], structuredContent: { t: 1 } }), '{\n  "t": 1\n}');
    assert.match(mcpResultText({ content: [{ type: 'text', text: 'x'.repeat(50_000) }] }), /characters cut/);
  });

  it('policy: ask by default, rules by server or tool, readOnly allowed only when configured and never over a deny', () => {
    const ctx = { mode: 'attended' as const, checks: [], verify: null, featureTools: null };
    const call = (readOnlyAllowed: boolean, server = 'srv', name = 'mcp__srv__t') => ({ name, args: {}, effect: 'exec' as const, path: null, command: null, mcp: { server, tool: 't', readOnlyAllowed } });
    const none = new Policy(PolicyConfigSchema.parse({}));
    assert.equal(none.decide(call(false), ctx).rule, 'ask:mcp');
    assert.equal(none.decide(call(true), ctx).rule, 'allow:mcp-read-only');
    assert.equal(none.decide(call(false), { ...ctx, mode: 'unattended' }).rule, 'unattended:refuse');
    const rules = new Policy(PolicyConfigSchema.parse({ rules: [{ id: 'deny-t', decision: 'deny', tool: 'mcp__srv__t' }, { id: 'allow-other', decision: 'allow', server: 'other' }] }));
    assert.equal(rules.decide(call(true), ctx).decision, 'deny');
    assert.equal(rules.decide(call(false, 'other', 'mcp__other__t'), { ...ctx, mode: 'unattended' }).rule, 'allow-other');
    // A command-pattern rule never matches an MCP call (it has no command).
    const cmd = new Policy(PolicyConfigSchema.parse({ rules: [{ decision: 'allow', command_pattern: '.*' }] }));
    assert.equal(cmd.decide(call(false), ctx).rule, 'ask:mcp');
  });
});
