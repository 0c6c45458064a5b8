import { strict as assert } from 'node:assert';
import { z } from 'zod';
import { createToolbox, ALL_TOOLS, describeCall } from '../../../src/harness/tools';
import { defineTool } from '../../../src/harness/tools/defineTool';
import { runTool } from '../../../src/harness/tools/runTool';
import { searchTool } from '../../../src/harness/tools/search';
import { MAX_TOOL_OUTPUT_CHARS } from '../../../src/harness/tools/toolbox';
import { writeFileTool } from '../../../src/harness/tools/writeFile';
import { makeWorkspace } from './_workspace';

describe('toolbox', () => {
  it('offers the six tools in a stable order with byte-identical JSON Schema across instances', () => {
    const a = JSON.stringify(createToolbox().specs());
    const b = JSON.stringify(createToolbox().specs());
    assert.equal(a, b);
    const specs = createToolbox().specs();
    assert.deepEqual(specs.map((s) => s.name), ['read_file', 'list_files', 'search', 'write_file', 'edit_file', 'run']);
    for (const s of specs) {
      assert.equal(s.input_schema.type, 'object', s.name);
      assert.equal(s.input_schema.$schema, undefined, s.name);
      assert.equal(s.input_schema.additionalProperties, false, s.name);
      assert.ok(s.description.length > 200, `${s.name} has a real description`);
    }
    const edit = specs.find((s) => s.name === 'edit_file')!;
    assert.deepEqual(edit.input_schema.required, ['path', 'old_string', 'new_string']);
    const read = specs.find((s) => s.name === 'read_file')!;
    assert.deepEqual(read.input_schema.required, ['path']);
    assert.ok(!JSON.stringify(specs).includes(String(Number.MAX_SAFE_INTEGER)), 'no MAX_SAFE_INTEGER noise');
  });

  it('tells the model which tools exist when it calls an unknown one', () => {
    const v = createToolbox().validate('delete_everything', {});
    assert.ok(!v.ok);
    assert.equal(v.outcome.error_code, 'unknown_tool');
    assert.match(v.outcome.output, /There is no tool named "delete_everything"\. Nothing was run\. Available tools: read_file, list_files, search, write_file, edit_file, run\./);
  });

  it('reports every zod issue with its path, including unknown keys', () => {
    const v = createToolbox().validate('read_file', { path: 7, start_line: 0, colour: 'red' });
    assert.ok(!v.ok);
    assert.equal(v.outcome.error_code, 'invalid_args');
    const text = v.outcome.output;
    assert.match(text, /^Invalid arguments for read_file; it was not run\./);
    assert.match(text, /- path: Invalid input: expected string, received number/);
    assert.match(text, /- start_line: Too small/);
    assert.match(text, /colour/);
  });

  it('treats missing input as an empty object and accepts valid args', () => {
    const v = createToolbox().validate('list_files', undefined);
    assert.ok(v.ok);
    assert.deepEqual(v.args, {});
  });

  it('turns a throwing tool into a failed outcome and caps any output', async () => {
    const boom = defineTool({ name: 'boom', description: 'Throws.', effect: 'none', input: z.object({}), target: () => null, run: () => Promise.reject(Object.assign(new Error('disk on fire'), { code: 'EIO' })) });
    const flood = defineTool({ name: 'flood', description: 'Prints a lot.', effect: 'none', input: z.object({}), target: () => null, run: async () => ({ output: 'y\n'.repeat(MAX_TOOL_OUTPUT_CHARS), is_error: false, error_code: null }) });
    const tb = createToolbox([boom, flood]);
    const ws = makeWorkspace();
    try {
      const out = await tb.run(boom, {}, ws.ctx);
      assert.equal(out.is_error, true);
      assert.equal(out.error_code, 'failed');
      assert.match(out.output, /boom failed unexpectedly \(EIO\): disk on fire/);
      const big = await tb.run(flood, {}, ws.ctx);
      assert.ok(big.output.length < MAX_TOOL_OUTPUT_CHARS + 100);
      assert.match(big.output, /characters cut/);
    } finally {
      ws.cleanup();
    }
  });

  it('refuses duplicate tool names and bad names at definition time', () => {
    assert.throws(() => createToolbox([ALL_TOOLS[0], ALL_TOOLS[0]]), /duplicate tool name "read_file"/);
    assert.throws(() => defineTool({ name: 'Bad Name', description: 'x', effect: 'none', input: z.object({}), target: () => null, run: async () => ({ output: '', is_error: false, error_code: null }) }), /must match/);
  });

  it('describes where a call points for policy and logs', () => {
    assert.deepEqual(describeCall(runTool, { command: 'npm test' }), { path: null, command: 'npm test' });
    assert.deepEqual(describeCall(writeFileTool, { path: 'a.txt', content: '' }), { path: 'a.txt', command: null });
    assert.deepEqual(describeCall(searchTool, { pattern: 'x' }), { path: '.', command: null });
  });
});
