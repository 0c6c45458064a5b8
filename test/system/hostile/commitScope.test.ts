// Issue 13, items 3 and 20: the commit holds only the run's work. A file no write or command of the
// run recorded (a check planted or rewrote it, the person edited it during the run) stays out and
// is named; with --allow-dirty the person's staged hunks stay staged. Real runs in-process
// (runFeature, scripted model, real git, the real sandbox for the gate).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { say, ScriptedModel, use } from '../../../src/harness/model/scripted';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import { runFeature } from '../../../src/harness/run';
import { CannedHost, git, tempRepo } from '../../unit/loop/kit';

function project(checks: string[], extra: Record<string, string> = {}): string {
  const progress = { goal: 'g', log: [], features: [{ id: 'F1', title: 'Fee is three', status: 'todo', verify: null }] };
  return tempRepo({ 'src/fee.js': 'module.exports = () => 2;\n', 'kite-progress.json': JSON.stringify(progress, null, 2) + '\n', '.kite/config.json': JSON.stringify({ checks }), ...extra });
}

const fix = [use('write_file', 'w1', { path: 'src/fee.js', content: 'module.exports = () => 3;\n' }), say('Done.')];

async function run(root: string, opts: { allowDirty?: boolean; watch?: (e: KiteEvent) => void } = {}) {
  const s = await runFeature({ root, mode: 'unattended', model: '', modelOverride: new ScriptedModel(fix), allowDirty: opts.allowDirty, watch: opts.watch ? (e) => opts.watch?.(e) : undefined }, new CannedHost([]));
  const events = readFileSync(s.logPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; code?: string; message?: string; summary?: string });
  const files = s.commit ? git(root, 'show', '--name-only', '--pretty=format:', s.commit).split('\n').filter(Boolean) : [];
  return { s, events, files, end: events.find((e) => e.kind === 'session_end') };
}

describe('hostile: commits hold only the run’s work (issue 13, items 3 and 20)', function () {
  this.timeout(120_000);

  it('a file a check planted (no write or command of the run records it) is left out of the commit and named', async () => {
    const root = project(['echo planted > planted.js']);
    const { s, files, end } = await run(root);
    assert.equal(s.outcome, 'done');
    assert.deepEqual(files.sort(), ['kite-progress.json', 'src/fee.js']);
    assert.match(end?.summary ?? '', /Left out of the commit \(not recorded as this run's work\): planted\.js \(no write or command of the run recorded it\)/);
    assert.match(git(root, 'status', '--porcelain'), /\?\? planted\.js/); // still there for the person to look at
  });

  it('a file the run wrote and a check then rewrote is left out of the commit (its content is not the recorded write)', async () => {
    const root = project(["echo 'module.exports = () => 99;' > src/fee.js"]);
    const { s, files, end } = await run(root);
    assert.equal(s.outcome, 'done');
    assert.ok(!files.includes('src/fee.js'));
    assert.match(end?.summary ?? '', /src\/fee\.js \(changed after the run wrote it\)/);
  });

  it("--allow-dirty: the person's staged hunk stays staged, and is not committed", async () => {
    const root = project(['test -f src/fee.js'], { 'notes.txt': 'one\n' }); // a real check: a run without one ends unverified (issue 18)
    writeFileSync(join(root, 'notes.txt'), 'one\ntwo (staged by the person)\n');
    git(root, 'add', 'notes.txt');
    writeFileSync(join(root, 'notes.txt'), 'one\ntwo (staged by the person)\nthree (not staged)\n');
    const stagedBefore = git(root, 'diff', '--cached', '--', 'notes.txt');
    const { s, files } = await run(root, { allowDirty: true });
    assert.equal(s.outcome, 'done');
    assert.ok(files.includes('src/fee.js'));
    assert.ok(!files.includes('notes.txt'));
    assert.equal(git(root, 'diff', '--cached', '--', 'notes.txt'), stagedBefore);
    assert.equal(git(root, 'diff', '--cached', '--name-only'), 'notes.txt'); // the committed file is clean in the index
    assert.equal(readFileSync(join(root, 'notes.txt'), 'utf8'), 'one\ntwo (staged by the person)\nthree (not staged)\n');
  });

  it('--allow-dirty: a file the person created during the run is left out of the commit and named', async () => {
    const root = project(['test -f src/fee.js'], { 'notes.txt': 'one\n' }); // a real check: a run without one ends unverified (issue 18)
    writeFileSync(join(root, 'notes.txt'), 'dirty before the run\n');
    const { s, files, end } = await run(root, {
      allowDirty: true,
      watch: (e) => {
        if (e.kind === 'tool') writeFileSync(join(root, 'person.txt'), 'typed in the editor during the run\n');
      },
    });
    assert.equal(s.outcome, 'done');
    assert.ok(files.includes('src/fee.js'));
    assert.ok(!files.includes('person.txt'));
    assert.ok(!files.includes('notes.txt'));
    assert.match(end?.summary ?? '', /person\.txt \(no write or command of the run recorded it\)/);
  });
});
