// Property tests: random and adversarial arguments through every tool's schema and the toolbox,
// in a temp workspace with planted links, a FIFO, .git/ and a log folder. Whatever the arguments:
// nothing throws, nothing hangs, every failure is an is_error outcome with a typed code, and
// nothing outside the workspace (nor .git/ or the log folder) is touched. The `run` tool goes
// through its schema only: random shell commands are not executed.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { ALL_TOOLS, createToolbox } from '../../../src/harness/tools';
import type { ToolOutcome } from '../../../src/harness/tools/types';
import { makeWorkspace, type Workspace } from './_workspace';

/** Every file below `dir` with its content (links as their target), to see that nothing changed. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const abs = path.join(d, e.name);
      if (e.isSymbolicLink()) out.set(abs, `-> ${fs.readlinkSync(abs)}`);
      else if (e.isDirectory()) visit(abs);
      else if (e.isFile()) out.set(abs, fs.readFileSync(abs, 'latin1'));
      else out.set(abs, '(special)');
    }
  };
  visit(dir);
  return out;
}

function checkOutcome(o: ToolOutcome): void {
  assert.equal(typeof o.output, 'string');
  assert.equal(typeof o.is_error, 'boolean');
  if (o.is_error) assert.equal(typeof o.error_code, 'string', o.output);
  else assert.equal(o.error_code, null);
}

describe('tools: properties (random and adversarial arguments)', function () {
  this.timeout(60_000);
  let ws: Workspace;
  let guarded: string[];
  const toolbox = createToolbox();

  before(() => {
    ws = makeWorkspace();
    fs.writeFileSync(path.join(ws.outside, 'secret.txt'), 'OUTSIDE-Q9Z\n');
    ws.write('a.txt', 'alpha\nneedle\n');
    ws.write('sub/b.txt', 'beta needle\n');
    ws.write('latin1.txt', Buffer.from('caf\xe9\n', 'latin1'));
    ws.write('.git/config', '[remote "origin"]\n\turl = https://u:GIT-SECRET@x\n');
    ws.write('.kite/runs/old.jsonl', '{"secret":"LOG-SECRET"}\n');
    fs.symlinkSync(ws.outside, path.join(ws.root, 'link-out'));
    fs.symlinkSync(path.join(ws.outside, 'secret.txt'), path.join(ws.root, 'link-file'));
    fs.symlinkSync('loop-b', path.join(ws.root, 'loop-a'));
    fs.symlinkSync('loop-a', path.join(ws.root, 'loop-b'));
    fs.linkSync(path.join(ws.outside, 'secret.txt'), path.join(ws.root, 'hard.txt'));
    execFileSync('mkfifo', [path.join(ws.root, 'fifo')]);
    guarded = [ws.outside, path.join(ws.root, '.git'), path.join(ws.root, '.kite', 'runs')];
  });
  after(() => ws.cleanup());

  const segment = fc.oneof(
    fc.constantFrom('..', '.', '', 'a.txt', 'sub', 'b.txt', '.git', 'config', '.kite', 'runs', 'old.jsonl', 'link-out', 'link-file', 'loop-a', 'hard.txt', 'fifo', 'latin1.txt', 'secret.txt', 'new.txt', '\0', 'é', '🙂', ' '),
    fc.string({ maxLength: 12 }),
  );
  const adversarialPath = fc.oneof(
    fc.array(segment, { maxLength: 6 }).map((s) => s.join('/')),
    fc.array(segment, { maxLength: 4 }).map((s) => '/' + s.join('/')),
    fc.constantFrom('/etc/passwd', '/tmp', '~/.ssh/id_rsa', 'C:\\Windows', '\\\\server\\share'),
    fc.string({ minLength: 1000, maxLength: 5000 }),
    fc.string({ unit: 'grapheme', maxLength: 30 }),
  );
  const text = fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 50 }), fc.constantFrom('needle', 'alpha', 'OUTSIDE', 'caf', 'Q9Z'));
  const pattern = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('(a+)+$', '(?=a)', '(a)\\1', '[', 'needle', '.*', '(x+x+)+y', 'a{1001}', '\\p{L}'));
  const glob = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('*a*a*a*a*a*a*a*a*b', '**/*.txt', '{a,b', '[z-a]', '/a.txt', '**'));
  const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });

  /** Argument objects shaped like each file tool's input, with adversarial values (and sometimes wrong types). */
  const fileCall = fc.oneof(
    fc.record({ name: fc.constant('read_file'), input: fc.record({ path: adversarialPath, start_line: maybe(fc.integer({ min: -5, max: 10 })), end_line: maybe(fc.integer({ min: -5, max: 10 })) }, { requiredKeys: ['path'] }) }),
    fc.record({ name: fc.constant('list_files'), input: fc.record({ path: maybe(adversarialPath), glob: maybe(glob), recursive: maybe(fc.boolean()) }, { requiredKeys: [] }) }),
    fc.record({ name: fc.constant('search'), input: fc.record({ pattern, path: maybe(adversarialPath), glob: maybe(glob), ignore_case: maybe(fc.boolean()), context: maybe(fc.integer({ min: -1, max: 11 })) }, { requiredKeys: ['pattern'] }) }),
    fc.record({ name: fc.constant('write_file'), input: fc.record({ path: adversarialPath, content: text }) }),
    fc.record({ name: fc.constant('edit_file'), input: fc.record({ path: adversarialPath, old_string: text, new_string: text, replace_all: maybe(fc.boolean()) }, { requiredKeys: ['path', 'old_string', 'new_string'] }) }),
  );

  it('validate: random JSON for every tool (and unknown names) never throws; a refusal is an is_error outcome', () => {
    const names = fc.oneof(fc.constantFrom(...ALL_TOOLS.map((t) => t.name)), fc.string({ maxLength: 20 }));
    fc.assert(
      fc.property(names, fc.jsonValue({ maxDepth: 3 }), (name, input) => {
        const v = toolbox.validate(name, input);
        if (!v.ok) {
          checkOutcome(v.outcome);
          assert.equal(v.outcome.is_error, true);
        }
      }),
      { numRuns: 600 },
    );
  });

  it('run: adversarial arguments through the file tools never throw or hang, and touch nothing outside the workspace, .git/ or the logs', async () => {
    // A hang fails on mocha's timeout (60 s), not on a wall-clock budget that a loaded machine can miss.
    const before = guarded.map(snapshot);
    await fc.assert(
      fc.asyncProperty(fileCall, async ({ name, input }) => {
        const v = toolbox.validate(name, input);
        if (!v.ok) return checkOutcome(v.outcome);
        const t0 = Date.now();
        const o = await toolbox.run(v.tool, v.args, ws.ctx);
        assert.ok(Date.now() - t0 < 5000, `${name} took ${Date.now() - t0} ms`);
        checkOutcome(o);
        assert.doesNotMatch(o.output, /OUTSIDE-Q9Z|GIT-SECRET@|LOG-SECRET"/, `${name} ${JSON.stringify(input)} leaked`);
      }),
      { numRuns: 1000 },
    );
    guarded.forEach((dir, i) => assert.deepEqual(snapshot(dir), before[i], `${dir} changed`));
    assert.equal(fs.readFileSync(path.join(ws.root, 'latin1.txt'), 'latin1'), 'caf\xe9\n');
  });
});
