// Issue 13, item 21: an I/O failure of Kite's own files (an unusable log folder, a progress file
// that cannot be written) left the run in_progress, the progress file modified and a temp file
// behind. Now the run ends with a message naming the file and the errno, the progress file is as
// it was or fully updated, and no temp file is left. Root ignores permissions, so the failures are
// made with a file or a folder where Kite expects the other (works for every user).
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { EventWriter } from '../../../src/harness/events/writer';
import { say, ScriptedModel, use } from '../../../src/harness/model/scripted';
import { parseProgress } from '../../../src/harness/progress/progressFile';
import { runFeature } from '../../../src/harness/run';
import { CannedHost, git, tempRepo } from '../../unit/loop/kit';

function project(config: Record<string, unknown> = {}, extra: Record<string, string> = {}): string {
  const progress = { goal: 'g', log: [], features: [{ id: 'F1', title: 'Fee is three', status: 'todo', verify: null }] };
  return tempRepo({ 'src/fee.js': 'module.exports = () => 2;\n', 'kite-progress.json': JSON.stringify(progress, null, 2) + '\n', '.kite/config.json': JSON.stringify({ checks: [], ...config }), ...extra });
}

const tempFiles = (root: string) => readdirSync(root).filter((f) => f.endsWith('.tmp'));
const fix = () => new ScriptedModel([use('write_file', 'w1', { path: 'src/fee.js', content: 'module.exports = () => 3;\n' }), say('Done.')]);

describe('hostile: I/O failures of Kite’s own files (issue 13, item 21)', function () {
  this.timeout(120_000);

  it('an unusable log folder stops the run with the folder and the errno; the progress file is untouched', async () => {
    const root = project({ log_dir: 'logs' }, { logs: 'a file where the log folder should be\n' });
    const before = readFileSync(join(root, 'kite-progress.json'), 'utf8');
    await assert.rejects(runFeature({ root, mode: 'unattended', model: '', modelOverride: fix() }, new CannedHost([])), /could not create the log folder .*logs: E[A-Z]+/);
    assert.equal(readFileSync(join(root, 'kite-progress.json'), 'utf8'), before);
    assert.deepEqual(tempFiles(root), []);
  });

  it('a log that cannot be appended to mid-run (ENOSPC, EROFS…): the run stops naming the log and errno; the progress file back as it was', async () => {
    const root = project();
    const before = readFileSync(join(root, 'kite-progress.json'), 'utf8');
    let log = '';
    const run = runFeature(
      {
        root,
        mode: 'unattended',
        model: '',
        modelOverride: fix(),
        watch: (e, sink) => {
          if (e.kind !== 'model' || log || !(sink instanceof EventWriter)) return;
          log = sink.path;
          rmSync(log);
          mkdirSync(log); // a folder where the log was: the next append fails (root ignores chmod)
        },
      },
      new CannedHost([]),
    );
    await assert.rejects(run, /could not write .*\.jsonl: EISDIR/);
    assert.equal(readFileSync(join(root, 'kite-progress.json'), 'utf8'), before);
    assert.deepEqual(tempFiles(root), []);
  });

  it('a progress file that cannot be written at the end: the run ends error naming the file and errno, nothing committed, the file whole', async () => {
    const root = project();
    const head = git(root, 'rev-parse', 'HEAD');
    const blocker = join(root, `.kite-progress.json.${process.pid}.tmp`);
    let started = '';
    const s = await runFeature(
      {
        root,
        mode: 'unattended',
        model: '',
        modelOverride: fix(),
        watch: (e) => {
          if (e.kind !== 'gate') return;
          started = readFileSync(join(root, 'kite-progress.json'), 'utf8');
          mkdirSync(blocker); // the temp file's name is taken by a folder: the write fails
        },
      },
      new CannedHost([]),
    );
    rmSync(blocker, { recursive: true });
    assert.equal(s.outcome, 'error');
    assert.match(s.error ?? '', /could not write .*kite-progress\.json: E[A-Z_]+.*nothing was committed/);
    assert.equal(git(root, 'rev-parse', 'HEAD'), head);
    const now = readFileSync(join(root, 'kite-progress.json'), 'utf8');
    assert.equal(now, started); // as it was when the run started (in_progress), not half written
    assert.equal(parseProgress(now).features[0].status, 'in_progress');
    assert.deepEqual(tempFiles(root), []);
    const end = readFileSync(s.logPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; status?: string }).find((e) => e.kind === 'session_end');
    assert.equal(end?.status, 'error');
    assert.equal(readFileSync(join(root, 'src', 'fee.js'), 'utf8'), 'module.exports = () => 3;\n'); // the work stays for the person
  });
});
