// Issue 18 item 13: restore the workspace to right after any event of a run — through the real
// `kite restore` (exit codes, the terminal rule) and the restore core on real runs, real git and
// the real log writer (lock, hash chain).
import assert from 'node:assert/strict';
import { linkSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { readLog } from '../../../src/harness/events/reader';
import { EventWriter } from '../../../src/harness/events/writer';
import { acquireLogLock } from '../../../src/harness/events/logLock';
import type { EventOf } from '../../../src/harness/protocol/events';
import { restoreMain } from '../../../src/harness/cli/restoreCommand';
import { planRestoreOfLog } from '../../../src/harness/restore/restorePlan';
import { runChanges } from '../../../src/harness/restore/runChanges';
import { sha256 } from '../../../src/harness/tools/hash';
import { ev } from '../../helpers/events';
import { git, tempDir, tempRepo } from '../../unit/loop/kit';
import { A0, A1, A2, kite, NEW, runThatWrites, text } from './kit';

function capture() {
  const lines: string[] = [];
  const errs: string[] = [];
  return { out: { out: (t: string) => lines.push(t), err: (t: string) => errs.push(t) }, lines, errs };
}

async function lastEvent(log: string) {
  const r = await readLog(log);
  assert.deepEqual(r.problems, [], 'the log reads back without a problem: the hash chain goes on through the restore');
  return r.events.at(-1);
}

describe('kite restore: the workspace as it was right after an event (issue 18 item 13)', function () {
  this.timeout(120_000);

  it('puts every file back to its content at several points; files created later are removed, and come back on a restore to the end', async () => {
    const f = await runThatWrites();
    const [w1, w2, w3] = f.writes;
    let r = kite(['restore', f.log, '--to', String(w1), '--yes'], f.repo);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(text(f.repo, 'src/a.js'), A1, 'after the first write');
    assert.equal(text(f.repo, 'lib/new.js'), null, 'created later: removed');
    // The way back is printed as a command, and it works: both files as the run left them.
    const undo = r.stdout.match(/To undo: kite (restore \S+ --to \d+ --yes) puts these files back as they were before this restore\./);
    assert.ok(undo, r.stdout);
    r = kite(undo[1].split(' '), f.repo);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual([text(f.repo, 'src/a.js'), text(f.repo, 'lib/new.js')], [A2, NEW], 'undone: as the run left them');
    r = kite(['restore', f.log, '--to', String(w1), '--yes'], f.repo);
    assert.equal(r.code, 0, r.stderr);
    r = kite(['restore', f.log, '--to', String(w2), '--yes'], f.repo);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(text(f.repo, 'src/a.js'), A2, 'after the edit (rebuilt by replaying it)');
    assert.match(r.stdout, /1 other file already as then: lib\/new\.js/);
    r = kite(['restore', f.log, '--to', '0', '--yes'], f.repo);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(text(f.repo, 'src/a.js'), A0, 'before the run: from the starting commit');
    assert.equal(git(f.repo, 'status', '--porcelain', '--', 'src', 'lib'), '', 'the tree is the starting commit again');
    r = kite(['restore', f.log, '--to', String(w3), '--yes'], f.repo);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual([text(f.repo, 'src/a.js'), text(f.repo, 'lib/new.js')], [A2, NEW], 'to the last write again');
    r = kite(['restore', f.log, '--to', String(w3), '--yes'], f.repo);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /Nothing to restore/);
  });

  it('appends one restore event with the files and their hashes before and after, and keeps the chain valid', async () => {
    const f = await runThatWrites();
    const before = (await readLog(f.log)).events.length;
    // By run id, as `kite resume` takes it: looked up in the workspace's log folder.
    const r0 = kite(['restore', basename(f.log, '.jsonl'), '--to', String(f.writes[0]), '--yes'], f.repo);
    assert.equal(r0.code, 0, r0.stderr);
    const e = await lastEvent(f.log);
    assert.equal(e?.kind, 'restore');
    const r = e as EventOf<'restore'>;
    assert.equal(r.seq, before, 'seq goes on from the last event');
    assert.equal(r.to_seq, f.writes[0]);
    assert.deepEqual(
      r.files.map((x) => [x.path, x.before, x.after, x.changed_by_person]),
      [
        ['src/a.js', sha256(A2), sha256(A1), false],
        ['lib/new.js', sha256(NEW), null, false],
      ],
    );
    assert.match(kite(['timeline', f.log], f.repo).stdout, /RESTORE 2 file\(s\) put back to after seq \d+/);
  });

  it('a file the person changed since the run is not overwritten on --yes: listed, kept, exit 1; --force-changed overwrites it and says so in the log', async () => {
    const f = await runThatWrites();
    writeFileSync(join(f.repo, 'src/a.js'), 'mine\n');
    let r = kite(['restore', f.log, '--to', String(f.writes[0]), '--yes'], f.repo);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stdout, /restore src\/a\.js .*CHANGED since the run/);
    assert.match(r.stdout, /kept {5}src\/a\.js: changed since the run/);
    assert.match(r.stderr, /--force-changed overwrites the ones you changed/);
    assert.equal(text(f.repo, 'src/a.js'), 'mine\n', 'the person\'s change survives');
    assert.equal(text(f.repo, 'lib/new.js'), null, 'the other file was restored');
    r = kite(['restore', f.log, '--to', String(f.writes[0]), '--yes', '--force-changed'], f.repo);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(text(f.repo, 'src/a.js'), A1);
    const e = (await lastEvent(f.log)) as EventOf<'restore'>;
    assert.deepEqual(e.files, [{ path: 'src/a.js', before: sha256('mine\n'), after: sha256(A1), changed_by_person: true }]);
  });

  it('a file restored earlier is not "changed by the person": the restore is the last known content', async () => {
    const f = await runThatWrites();
    assert.equal(kite(['restore', f.log, '--to', String(f.writes[0]), '--yes'], f.repo).code, 0);
    const plan = await planRestoreOfLog(f.log, f.writes[2]);
    assert.deepEqual(
      plan.changes.map((c) => [c.path, c.action, c.changedByPerson]),
      [
        ['src/a.js', 'write', false],
        ['lib/new.js', 'write', false],
      ],
    );
  });

  it('without a terminal and without --yes: exit 2 naming --yes, nothing changed; bad input says what is wrong', async () => {
    const f = await runThatWrites();
    let r = kite(['restore', f.log, '--to', String(f.writes[0])], f.repo);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /not a terminal.*--yes/);
    assert.equal(text(f.repo, 'src/a.js'), A2, 'nothing changed');
    assert.equal((await readLog(f.log)).events.at(-1)?.kind, 'session_end', 'nothing logged');
    r = kite(['restore', f.log, '--to', '999', '--yes'], f.repo);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /has no event 999 \(its events are 0 to \d+\)/);
    r = kite(['restore', f.log, '--yes'], f.repo);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /needs --to SEQ/);
    r = kite(['restore', f.log, '--to', '-1', '--yes'], f.repo);
    assert.equal(r.code, 2);
    r = kite(['restore', join(f.repo, 'nope.jsonl'), '--to', '1', '--yes'], f.repo);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /nope\.jsonl/);
  });

  it('on a terminal it lists the files and asks; "n" changes nothing; a changed file gets its own question', async () => {
    const f = await runThatWrites();
    writeFileSync(join(f.repo, 'src/a.js'), 'mine\n');
    const asked: string[] = [];
    const c = capture();
    let code = await restoreMain([f.log, '--to', String(f.writes[0])], c.out, { isTty: true, ask: (q) => (asked.push(q), Promise.resolve('n')) });
    assert.equal(code, 1);
    assert.deepEqual(asked, ['Restore 1 file? [y/N] ']);
    assert.ok(c.lines.includes('Nothing restored.'));
    assert.equal(text(f.repo, 'lib/new.js'), NEW);
    const answers = ['y', 'n'];
    asked.length = 0;
    code = await restoreMain([f.log, '--to', String(f.writes[0])], capture().out, { isTty: true, ask: (q) => (asked.push(q), Promise.resolve(answers.shift() ?? '')) });
    assert.equal(code, 1, 'one file kept');
    assert.match(asked[1], /^Also overwrite the 1 file you changed since the run \(src\/a\.js\)\? \[y\/N\] $/);
    assert.equal(text(f.repo, 'src/a.js'), 'mine\n');
    assert.equal(text(f.repo, 'lib/new.js'), null);
  });

  it('Review Changes sees every file the run changed, with its content at the starting commit (null: created by the run)', async () => {
    const f = await runThatWrites();
    let c = await runChanges(f.log);
    assert.equal(c.startCommit, git(f.repo, 'rev-parse', 'HEAD'));
    assert.deepEqual(
      c.files.map((x) => [x.path, x.original, x.exists]),
      [
        ['src/a.js', A0, true],
        ['lib/new.js', null, true],
      ],
    );
    assert.equal(kite(['restore', f.log, '--to', '0', '--yes'], f.repo).code, 0);
    c = await runChanges(f.log);
    assert.deepEqual(c.files, [], 'back at the starting commit: nothing left to review');
  });

  it('refuses while the run still writes its log (the lock), naming the holder', async () => {
    const f = await runThatWrites();
    const lock = acquireLogLock(f.log);
    try {
      const c = capture();
      const code = await restoreMain([f.log, '--to', String(f.writes[0]), '--yes'], c.out);
      assert.equal(code, 2);
      assert.match(c.errs.join('\n'), /being written by another Kite .*waits until the run has ended/);
      assert.equal(text(f.repo, 'src/a.js'), A2);
    } finally {
      lock.release();
    }
  });

  it('refuses a log whose hash chain was broken (an edited line)', async () => {
    const f = await runThatWrites();
    const lines = readFileSync(f.log, 'utf8').split('\n');
    lines[3] = lines[3].replace('"t":', '"t": ');
    writeFileSync(f.log, lines.join('\n'));
    const r = kite(['restore', f.log, '--to', '0', '--yes'], f.repo);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /does not act on a log that was changed/);
    assert.equal(text(f.repo, 'src/a.js'), A2);
  });
});

describe('kite restore: hostile logs never reach outside the workspace (issue 18 item 13)', function () {
  this.timeout(60_000);

  /** A log with a valid chain, written by the real writer, that claims the run created `path`. */
  function hostileLog(repo: string, path: string, id = 'hostile'): string {
    const dir = join(repo, '.kite', 'runs');
    const w = EventWriter.create(dir, id);
    w.append({ ...ev.sessionStart({ root: repo, git_head: git(repo, 'rev-parse', 'HEAD') }), kind: 'session_start' } as never);
    w.append({ kind: 'intent', id: 'x1', name: 'write_file', args: { path, content: 'planted\n' }, effect: 'write', path, pre_hash: null, post_hash: sha256('planted\n') });
    w.append({ kind: 'tool', id: 'x1', name: 'write_file', args: { path, content: 'planted\n' }, ms: 1, is_error: false, output: 'ok', error_code: null, path, post_hash: sha256('planted\n') });
    return w.path;
  }

  it('a log naming ../x: refused and listed, the file outside is neither removed nor rewritten', async () => {
    const repo = tempRepo({ 'a.txt': 'a\n' });
    writeFileSync(join(repo, '..', 'x'), 'outside\n');
    const log = hostileLog(repo, '../x');
    const r = kite(['restore', log, '--to', '0', '--yes'], repo);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /keep {4}\.\.\/x {2}\(.*outside the workspace.*never touches it\)/);
    assert.equal(readFileSync(join(repo, '..', 'x'), 'utf8'), 'outside\n');
    assert.equal((await readLog(log)).events.at(-1)?.kind, 'tool', 'nothing restored, nothing logged');
  });

  it('a log naming a path through a symlink that leads out: refused, the target intact', async () => {
    const repo = tempRepo({ 'a.txt': 'a\n' });
    const outside = tempDir('kite-outside-');
    writeFileSync(join(outside, 'f.txt'), 'outside\n');
    symlinkSync(outside, join(repo, 'link'));
    const log = hostileLog(repo, 'link/f.txt');
    const r = kite(['restore', log, '--to', '0', '--yes'], repo);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /keep {4}link\/f\.txt {2}\(.*symlink that points outside the workspace/);
    assert.equal(readFileSync(join(outside, 'f.txt'), 'utf8'), 'outside\n');
  });

  it("a log naming Kite's own files or .git: refused, they stay as they are", async () => {
    const repo = tempRepo({ 'a.txt': 'a\n', 'kite-progress.json': '{}\n', '.kite/config.json': '{"checks": []}\n' });
    for (const [i, p] of ['kite-progress.json', '.git/config', '.kite/config.json'].entries()) {
      const before = readFileSync(join(repo, p), 'utf8');
      const r = kite(['restore', hostileLog(repo, p, `hostile-${i}`), '--to', '0', '--yes'], repo);
      assert.equal(r.code, 1, `${p}: ${r.stdout}`);
      assert.match(r.stdout, new RegExp(`keep {4}${p.replace(/\./g, '\\.')} `));
      assert.equal(readFileSync(join(repo, p), 'utf8'), before, p);
    }
  });

  it('a hard-linked file is left alone (another link may be outside the workspace)', async () => {
    const repo = tempRepo({ 'a.txt': 'a\n' });
    const outside = tempDir('kite-outside-');
    writeFileSync(join(outside, 'secret.txt'), 'outside\n');
    linkSync(join(outside, 'secret.txt'), join(repo, 'h.txt'));
    const log = hostileLog(repo, 'h.txt');
    const r = kite(['restore', log, '--to', '0', '--yes'], repo);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /keep {4}h\.txt {2}\(.*hard links/);
    assert.equal(readFileSync(join(outside, 'secret.txt'), 'utf8'), 'outside\n');
    assert.equal(text(repo, 'h.txt'), 'outside\n');
  });

  it('a log that names another workspace as its root is refused', async () => {
    const repo = tempRepo({ 'a.txt': 'a\n' });
    const other = tempRepo({ 'victim.txt': 'v\n' });
    const dir = join(repo, '.kite', 'runs');
    const w = EventWriter.create(dir, 'elsewhere');
    w.append({ ...ev.sessionStart({ root: other, git_head: null }), kind: 'session_start' } as never);
    w.append({ kind: 'tool', id: 'x1', name: 'write_file', args: { path: 'victim.txt', content: 'x' }, ms: 1, is_error: false, output: 'ok', error_code: null, path: 'victim.txt', post_hash: sha256('x') });
    const r = kite(['restore', w.path, '--to', '0', '--yes'], repo);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /is not inside the workspace it names/);
    assert.equal(text(other, 'victim.txt'), 'v\n');
  });
});
