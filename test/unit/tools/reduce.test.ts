import { strict as assert } from 'node:assert';
import { cleanTerminalOutput, reduceOutput } from '../../../src/harness/tools/reduce';

describe('reduceOutput', () => {
  it('returns short text unchanged', () => {
    assert.equal(reduceOutput('short\ntext', 100), 'short\ntext');
  });

  it('keeps head and tail with a marker giving the exact characters and lines cut', () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${String(i).padStart(4, '0')}`);
    const text = lines.join('\n') + '\n';
    const out = reduceOutput(text, 2000);
    assert.ok(out.startsWith('line 0000\n'));
    assert.ok(out.endsWith('line 0999\n'));
    const m = /\[… (\d+) characters cut \((\d+) lines\) …\]/.exec(out);
    assert.ok(m, out.slice(0, 200));
    const marker = m[0] + '\n';
    // What was kept plus what was cut is the original, to the character.
    assert.equal(out.length - marker.length + Number(m[1]), text.length);
    const kept = out.replace(marker, '').split('\n').length - 1;
    assert.equal(kept + Number(m[2]), 1000);
    assert.ok(out.length <= 2000 + marker.length);
  });

  it('cuts text without line breaks too', () => {
    const out = reduceOutput('x'.repeat(10_000), 100);
    assert.match(out, /^x{40}\n\[… 9900 characters cut \(0 lines\) …\]\nx{60}$/);
  });

  it('cleanTerminalOutput drops colour codes and keeps the last state of redrawn lines', () => {
    const raw = '\x1b[32m✔ passed\x1b[0m\nDownloading 10%\rDownloading 50%\rDownloading 100%\r\n\x1b]8;;http://x\x07link\x1b]8;;\x07 done\r\n';
    assert.equal(cleanTerminalOutput(raw), '✔ passed\nDownloading 100%\nlink done\n');
    assert.equal(cleanTerminalOutput('plain\n'), 'plain\n');
  });
});
