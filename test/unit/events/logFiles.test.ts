// The one answer to "where are this workspace's logs": log_dir from .kite/config.json, used to find
// a run by id, the workspace of a log, and the logs a report reads.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findLogs, resolveRunLog, workspaceLogDir, workspaceOfLog } from '../../../src/harness/events/logFiles';
import { tempDir } from '../loop/kit';

/** A workspace with `log_dir` (none: no config file) and one log named `<id>.jsonl` in its log folder. */
function workspace(logDir: string | null, id = 'r1'): { root: string; dir: string; log: string } {
  const root = tempDir('kite-logfiles-');
  if (logDir !== null) {
    mkdirSync(join(root, '.kite'), { recursive: true });
    writeFileSync(join(root, '.kite', 'config.json'), JSON.stringify({ log_dir: logDir }));
  }
  const dir = join(root, logDir ?? join('.kite', 'runs'));
  mkdirSync(dir, { recursive: true });
  const log = join(dir, `${id}.jsonl`);
  writeFileSync(log, '');
  return { root, dir, log };
}

describe('log files: the configured log folder (log_dir)', () => {
  it('workspaceLogDir is <root>/<log_dir>, .kite/runs by default', () => {
    const custom = workspace('logs/agent');
    assert.equal(workspaceLogDir(custom.root), join(custom.root, 'logs', 'agent'));
    const plain = workspace(null);
    assert.equal(workspaceLogDir(plain.root), join(plain.root, '.kite', 'runs'));
  });

  it('workspaceOfLog finds the workspace whose log folder holds the log, custom or default', () => {
    const custom = workspace('logs/agent');
    assert.equal(workspaceOfLog(custom.log), custom.root);
    const plain = workspace(null);
    assert.equal(workspaceOfLog(plain.log), plain.root);
    // a .jsonl that is not in any workspace's log folder belongs to none
    const stray = join(custom.root, 'logs', 'other.jsonl');
    writeFileSync(stray, '');
    assert.equal(workspaceOfLog(stray), undefined);
  });

  it('resolveRunLog looks a run id up in the log folder and takes a path relative to cwd', () => {
    const w = workspace('logs/agent', '20260301-101500-F1');
    assert.equal(resolveRunLog('20260301-101500-F1', w.root), w.log);
    assert.equal(resolveRunLog('logs/agent/20260301-101500-F1.jsonl', '/elsewhere', w.root), w.log);
  });

  it('findLogs reads a project folder through its log_dir; a plain folder of logs directly', () => {
    const w = workspace('logs/agent');
    writeFileSync(join(w.root, 'not-a-run.jsonl'), ''); // beside the project, not in its log folder
    assert.deepEqual(findLogs([], w.root), [w.log]);
    assert.deepEqual(findLogs([w.dir]), [w.log]);
  });
});
