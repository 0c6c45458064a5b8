import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { BACKGROUND_NICE, backgroundNice, idleScheduling, ordinaryScheduling } from '../../../src/harness/backgroundPriority';
import { policyOf, statField } from '../../helpers/procStat';

const PROC_STAT = JSON.stringify(join(__dirname, '../../helpers/procStat.ts'));

/** The calling thread's nice value (Linux: /proc/thread-self/stat, field 19). */
const niceHere = (): number => Number(statField('/proc/thread-self/stat', 19));

/** Runs lowerThisThreadsPriority on a worker thread; resolves with what it returned and the worker's nice value after. */
function inWorker(env: NodeJS.ProcessEnv): Promise<{ lowered: boolean; nice: number }> {
  const module = JSON.stringify(join(__dirname, '../../../src/harness/backgroundPriority.ts'));
  const script = `
    require('tsx/cjs');
    const { parentPort } = require('node:worker_threads');
    const lowered = require(${module}).lowerThisThreadsPriority();
    const nice = Number(require(${PROC_STAT}).statField('/proc/thread-self/stat', 19));
    parentPort.postMessage({ lowered, nice });`;
  return new Promise((resolve, reject) => {
    const w = new Worker(script, { eval: true, env });
    w.once('message', resolve);
    w.once('error', reject);
  });
}

describe('background priority (the timeline reader, the stand-alone replay adapter)', () => {
  it('lowers the calling worker thread only: the thread that started it (the host\'s loop) keeps its priority', async () => {
    const before = niceHere();
    const r = await inWorker({ ...process.env, KITE_BACKGROUND_NICE: '' });
    assert.equal(r.lowered, true);
    assert.equal(r.nice, BACKGROUND_NICE);
    assert.equal(niceHere(), before, 'the main thread was not lowered');
  });

  it('KITE_BACKGROUND_NICE=0 keeps the usual priority (for measuring without)', async () => {
    const r = await inWorker({ ...process.env, KITE_BACKGROUND_NICE: '0' });
    assert.equal(r.lowered, false);
    assert.equal(r.nice, niceHere());
  });

  it('reads KITE_BACKGROUND_NICE as 0-19 and falls back to the default for anything else', () => {
    assert.equal(backgroundNice({}), BACKGROUND_NICE);
    assert.equal(backgroundNice({ KITE_BACKGROUND_NICE: '5' }), 5);
    assert.equal(backgroundNice({ KITE_BACKGROUND_NICE: '0' }), 0);
    for (const bad of ['', ' ', '-5', '20', '2.5', 'low']) assert.equal(backgroundNice({ KITE_BACKGROUND_NICE: bad }), BACKGROUND_NICE, bad);
  });

  it('never lowers a scheduling group the process does not lead: started from another session, it does nothing', () => {
    const ours = readFileSync('/proc/self/autogroup', 'utf8');
    const module = JSON.stringify(join(__dirname, '../../../src/harness/backgroundPriority.ts'));
    const r = spawnSync(process.execPath, ['-r', 'tsx/cjs', '-e', `process.stdout.write(String(require(${module}).lowerOwnSchedulingGroup(10)))`], { encoding: 'utf8', env: { ...process.env, KITE_BACKGROUND_NICE: '' } });
    assert.equal(r.stdout, 'false', r.stderr);
    assert.equal(readFileSync('/proc/self/autogroup', 'utf8'), ours, 'the group it shares with its parent keeps its priority');
  });

  it('puts the calling worker thread under SCHED_IDLE and back, the thread that started it staying ordinary; KITE_BACKGROUND_NICE=0 leaves it out', async () => {
    const module = JSON.stringify(join(__dirname, '../../../src/harness/backgroundPriority.ts'));
    const run = (env: NodeJS.ProcessEnv): Promise<{ idle: boolean; policy: number; ordinary: boolean; after: number }> =>
      new Promise((resolve, reject) => {
        const script = `require('tsx/cjs');
          const { parentPort } = require('node:worker_threads');
          const m = require(${module});
          const idle = m.idleScheduling('thread');
          const { policyOf } = require(${PROC_STAT});
          const policy = policyOf('/proc/thread-self/stat');
          const ordinary = m.ordinaryScheduling();
          parentPort.postMessage({ idle, policy, ordinary, after: policyOf('/proc/thread-self/stat') });`;
        const w = new Worker(script, { eval: true, env });
        w.once('message', resolve);
        w.once('error', reject);
      });
    // Idle, then ordinary again (a timeline's reader once its history is read).
    assert.deepEqual(await run({ ...process.env, KITE_BACKGROUND_NICE: '' }), { idle: true, policy: 5, ordinary: true, after: 0 });
    assert.equal(policyOf('/proc/thread-self/stat'), 0, 'the main thread is not touched');
    assert.deepEqual(await run({ ...process.env, KITE_BACKGROUND_NICE: '0' }), { idle: false, policy: 0, ordinary: false, after: 0 });
    assert.equal(idleScheduling('thread', { KITE_BACKGROUND_NICE: '0' }), false);
    assert.equal(ordinaryScheduling({ KITE_BACKGROUND_NICE: '0' }), false);
  });
});
