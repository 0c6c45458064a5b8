// `kite check LOG --contracts FILE`: the offline contract check over a past run, also a log of the
// original Python Kite; exit 0 all held, 1 one broke or never happened, 2 a bad contracts file.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkMain } from '../../../src/harness/cli/checkCommand';
import { tempDir } from '../loop/kit';

const LOGS = join(__dirname, '..', '..', 'fixtures', 'logs');

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) } };
}

describe('kite check', () => {
  it('names each contract with its verdict and the event that broke it; exit 1 when one did not hold', async () => {
    const file = join(tempDir(), 'contracts.json');
    writeFileSync(file, JSON.stringify([
      { id: 'tests-before-code', before: { tool: 'write_file', path: '^tests/' }, then: { tool: 'write_file|edit_file', path: '^ledgerly/' } },
      { id: 'ran-pytest', eventually: { tool: 'run', arg: { command: 'pytest' } }, action: 'require' },
    ]));
    const c = capture();
    assert.equal(await checkMain([join(LOGS, 'python-kite.jsonl'), '--contracts', file], c.io), 1);
    const text = c.out.join('\n');
    assert.match(text, /^✗ tests-before-code \(forbid\): violated — .* came first \(log seq \d+\)$/m);
    assert.match(text, /^✓ ran-pytest \(require\): held$/m);
  });

  it('a malformed contracts file is exit 2 naming the file and the field', async () => {
    const file = join(tempDir(), 'contracts.json');
    writeFileSync(file, JSON.stringify([{ id: 'x', never: { tool: '(' } }]));
    const c = capture();
    assert.equal(await checkMain([join(LOGS, 'demo-run.jsonl'), '--contracts', file], c.io), 2);
    assert.match(c.err.join('\n'), new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: \\$\\[0\\]`));
  });
});
