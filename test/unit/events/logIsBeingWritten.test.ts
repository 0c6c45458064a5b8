// The timeline's "live" badge comes from whether a Kite holds the log's lock, not from how
// recently the log was written: an interrupted run's log was written lately too (issue 18 item 7).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireLogLock, lockPathOf, logIsBeingWritten } from '../../../src/harness/events/logLock';

describe('is a run log being written (the timeline\'s live badge)', () => {
  let dir = '';
  let log = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kite-live-'));
    log = join(dir, 'run.jsonl');
    writeFileSync(log, '{}\n'); // written just now, as an interrupted run's log is
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a log written a moment ago by a run that is gone (no lock) is not live', () => {
    assert.equal(logIsBeingWritten(log), false);
  });

  it('a log whose writer was killed (its lock names a dead process) is not live', () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid!; // exited: its pid names no live process
    writeFileSync(lockPathOf(log), JSON.stringify({ pid: dead, host: hostname(), started_at: new Date().toISOString() }) + '\n');
    assert.equal(logIsBeingWritten(log), false);
  });

  it('a log a Kite holds the lock of is live, and is not once the lock is released', () => {
    const lock = acquireLogLock(log);
    assert.equal(logIsBeingWritten(log), true);
    lock.release();
    assert.equal(logIsBeingWritten(log), false);
  });
});
