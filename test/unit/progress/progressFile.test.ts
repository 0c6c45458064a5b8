import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { currentFeature, loadProgress, nextFeatureId, parseProgress, ProgressError, saveProgress, type ProgressFile } from '../../../src/harness/progress/progressFile';
import { tempDir } from '../loop/kit';

const base = (): ProgressFile => ({
  goal: 'g',
  log: [],
  features: [
    { id: 'F1', title: 'one', status: 'done', verify: '', notes: '' },
    { id: 'F2', title: 'two', status: 'todo', verify: 'npm test', notes: '' },
    { id: 'F3', title: 'three', status: 'in_progress', verify: '', notes: 'half way' },
  ],
});

function problem(text: string): ProgressError {
  try {
    parseProgress(text, 'kite-progress.json');
  } catch (e) {
    assert.ok(e instanceof ProgressError);
    return e;
  }
  assert.fail('expected a ProgressError');
}

describe('progress file', () => {
  it('current feature: --feature, else first in_progress, else first todo', () => {
    const p = base();
    assert.equal(currentFeature(p).id, 'F3');
    assert.equal(currentFeature(p, 'F1').id, 'F1');
    p.features[2].status = 'done';
    assert.equal(currentFeature(p).id, 'F2');
    p.features[1].status = 'proposed';
    const none = problemOf(() => currentFeature(p));
    assert.equal(none.code, 'no_feature');
    // What each feature is, and how to go on.
    assert.match(none.message, /none is todo or in_progress: F1 done, F2 proposed, F3 done\. Put one back to todo with `kite reset ID` .* add a "todo" feature to kite-progress\.json, or choose one with --feature ID/);
    assert.match(problemOf(() => currentFeature(p, 'F9')).message, /no feature "F9".*F1, F2, F3/);
  });

  it('a bad file is a clear error with the JSON path', () => {
    assert.match(problem('{"goal": "g", "features": [{"id": "F1", "title": "t", "status": "finished"}]}').message, /^kite-progress\.json:1:65: \$\.features\[0\]\.status \(feature F1\): /);
    assert.match(problem('{"features": []}').message, /\$\.goal/);
    // the Features view opens the file there (issue 18 item 10), not at line 1
    assert.deepEqual((problem('{"goal": "g",\n "features": [\n  {"id": "F1", "title": "t", "status": "finished"}]}') as ProgressError).at, { line: 3, column: 40 });
    assert.match(problem('{"goal": "g", "features": [{"id": "F1", "title": "a", "status": "todo"}, {"id": "F1", "title": "b", "status": "todo"}]}').message, /\$\.features\[1\]\.id \(feature F1\): duplicate feature id "F1"/);
    assert.equal(problem('{"goal": ').code, 'invalid_json');
  });

  it('a schema problem names the feature, says "missing" for an absent field and shows a wrong value', () => {
    const m = problem('{"goal": "g", "features": [{"id": "F1", "title": "t", "status": "todoo"}, {"id": "F2", "status": "todo"}]}').message;
    assert.match(m, /\$\.features\[0\]\.status \(feature F1\): expected one of "todo"\|.*, got "todoo"/);
    assert.match(m, /\$\.features\[1\]\.title \(feature F2\): missing \(expected string\)/);
  });

  it('a missing file suggests kite init, or the project folder above when started from a subfolder', () => {
    const root = tempDir();
    const e1 = problemOf(() => loadProgress(join(root, 'kite-progress.json')));
    assert.equal(e1.code, 'not_found');
    assert.match(e1.message, /no progress file \(run `kite init` to create one\)$/);
    writeFileSync(join(root, 'kite-progress.json'), JSON.stringify(base()));
    mkdirSync(join(root, 'src', 'deep'), { recursive: true });
    const e2 = problemOf(() => loadProgress(join(root, 'src', 'deep', 'kite-progress.json')));
    assert.equal(e2.message, `${join(root, 'src', 'deep', 'kite-progress.json')}: no progress file; the project seems to be ${root} (run kite there, or give it as DIR)`);
  });

  it('invalid JSON says where (line:column) and what is wrong, in one line', () => {
    const e = problem('{\n  "goal": "g",\n  "log": [],\n  "features": [ {"id": "F1",, } ]\n}\n');
    assert.equal(e.code, 'invalid_json');
    assert.equal(e.message, "kite-progress.json:4:29: not valid JSON: unexpected ',': property names need double quotes");
    assert.equal(problem('').message, 'kite-progress.json:1:1: not valid JSON: the file is empty');
    assert.match(problem("{'goal': 'g'}").message, /:1:2: not valid JSON: unexpected '''/);
  });

  it('keeps unknown keys, so a rewrite loses nothing', () => {
    const dir = tempDir();
    const path = join(dir, 'kite-progress.json');
    writeFileSync(path, JSON.stringify({ goal: 'g', owner: 'ana', features: [{ id: 'F1', title: 't', status: 'todo', priority: 2 }] }));
    const p = loadProgress(path);
    assert.deepEqual(p.log, []);
    saveProgress(path, p);
    const again = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown> & { features: Record<string, unknown>[] };
    assert.equal(again.owner, 'ana');
    assert.equal(again.features[0].priority, 2);
  });

  it('saves atomically (no temp file left behind) and the result loads again', () => {
    const dir = tempDir();
    const path = join(dir, 'kite-progress.json');
    saveProgress(path, base());
    saveProgress(path, base());
    assert.deepEqual(readdirSync(dir), ['kite-progress.json']);
    assert.deepEqual(loadProgress(path).features.map((f) => f.id), ['F1', 'F2', 'F3']);
    assert.equal(problemOf(() => loadProgress(join(dir, 'nope.json'))).code, 'not_found');
  });

  it('generates unique proposal ids', () => {
    const p = base();
    p.features.push({ id: 'Q1', title: 'q', status: 'proposed' });
    assert.equal(nextFeatureId(p), 'Q2');
  });
});

function problemOf(fn: () => unknown): ProgressError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ProgressError);
    return e;
  }
  assert.fail('expected a ProgressError');
}
