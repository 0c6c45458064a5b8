import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commitWrite } from '../../../src/harness/tools/preview';
import { readGuarded } from '../../../src/harness/tools/openGuarded';
import { makeWorkspace, type Workspace } from './_workspace';

const leftovers = (dir: string): string[] => fs.readdirSync(dir).filter((n) => n.includes('.kite-') && n.endsWith('.tmp'));

describe('atomic writes and guarded reads', () => {
  let ws: Workspace;
  beforeEach(() => {
    ws = makeWorkspace();
  });
  afterEach(() => ws.cleanup());

  it('a write replaces the file with a new inode: a hard link to an outside file keeps its content; the mode is kept', () => {
    const outside = path.join(ws.outside, 'shared.txt');
    fs.writeFileSync(outside, 'outside\n');
    const inside = path.join(ws.root, 'shared.txt');
    fs.linkSync(outside, inside);
    fs.chmodSync(inside, 0o754);
    const inodeBefore = fs.statSync(inside).ino;
    const out = commitWrite(ws.ctx, 'shared.txt', 'new\n');
    assert.equal(out.is_error, false, out.output);
    assert.equal(fs.readFileSync(outside, 'utf8'), 'outside\n');
    assert.equal(fs.readFileSync(inside, 'utf8'), 'new\n');
    assert.notEqual(fs.statSync(inside).ino, inodeBefore);
    assert.equal(fs.statSync(inside).mode & 0o7777, 0o754);
    assert.equal(fs.statSync(inside).nlink, 1);
    assert.deepEqual(leftovers(ws.root), []);
  });

  it('a failing write is an is_error result and leaves no temp file behind', () => {
    ws.write('file.txt', 'x\n');
    const out = commitWrite(ws.ctx, 'file.txt/inner.txt', 'y\n');
    assert.equal(out.is_error, true);
    assert.match(out.output, /Nothing was written/);
    fs.mkdirSync(path.join(ws.root, 'dir'));
    const dir = commitWrite(ws.ctx, 'dir', 'y\n');
    assert.equal(dir.error_code, 'is_directory');
    assert.deepEqual(leftovers(ws.root), []);
  });

  it('reads refuse FIFOs without opening them, hard-linked files and files swapped for a symlink', () => {
    execFileSync('mkfifo', [path.join(ws.root, 'pipe')]);
    const fifo = readGuarded(path.join(ws.root, 'pipe'), 'pipe', 1024);
    assert.ok(!fifo.ok && fifo.code === 'special_file' && fifo.rule === 'confine:special-file');
    const a = ws.write('a.txt', 'a\n');
    fs.linkSync(a, path.join(ws.root, 'b.txt'));
    const linked = readGuarded(a, 'a.txt', 1024);
    assert.ok(!linked.ok && linked.code === 'hardlink' && linked.rule === 'confine:hardlink');
    fs.symlinkSync(path.join(ws.root, 'pipe'), path.join(ws.root, 'link'));
    const link = readGuarded(path.join(ws.root, 'link'), 'link', 1024);
    assert.ok(!link.ok && link.rule === 'confine:changed-during-access');
    const ok = readGuarded(ws.write('c.txt', 'hello\n'), 'c.txt', 1024);
    assert.ok(ok.ok && ok.buf.toString() === 'hello\n');
  });
});
