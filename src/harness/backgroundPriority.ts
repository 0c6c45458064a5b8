// Work a person is not waiting on — a timeline's reader reading a big log's history, the replay
// adapter indexing one — runs at a lower CPU priority than the threads they are waiting on: the
// extension host's event loop and the window (issue 17). On a two-core machine those background
// threads otherwise take the CPU the host's loop needs when it wakes, and the host then waits
// 100–500 ms for one (measured in the 1M-event load test); a lower priority costs them nothing on
// an idle machine. Linux applies a nice value to one thread (setpriority on thread id 0 is the
// calling thread), so a worker can lower itself without touching the thread that started it; on
// other systems the nice value is the whole process's, so this does nothing there: never call it
// on a thread that shares its process with the extension host's loop unless it is a worker.
// Where the kernel groups processes by session (autogroup), nice values only weigh inside a group:
// the adapter, a process of its own, also leads its own session and lowers its group.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/** nice 10 (os.constants.priority.PRIORITY_BELOW_NORMAL): about a tenth of a normal thread's share when both want a CPU. */
export const BACKGROUND_NICE = 10;

/** The nice value for background work: KITE_BACKGROUND_NICE (0-19; 0 keeps the usual priority, for measuring), else BACKGROUND_NICE. */
export function backgroundNice(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.KITE_BACKGROUND_NICE);
  return env.KITE_BACKGROUND_NICE?.trim() && Number.isInteger(n) && n >= 0 && n <= 19 ? n : BACKGROUND_NICE;
}

/** Lowers the calling thread's CPU priority (Linux); false where it did not (other systems, nice 0, a sandbox that forbids it). */
export function lowerThisThreadsPriority(nice = backgroundNice()): boolean {
  if (process.platform !== 'linux' || nice === 0) return false;
  try {
    setPriority(0, nice);
    return true;
  } catch {
    return false; // a lower priority is a courtesy: the work goes on at the usual one
  }
}

/**
 * Lowers the scheduling group of the calling process (Linux autogroup), when the process leads
 * its own session and so has a group of its own (never someone else's). With autogroup on (most
 * desktop distributions, this machine) the CPU is shared between sessions first and nice values
 * only weigh inside one: a background process in the extension host's session spends that
 * session's share, however low its own nice. false where it did not.
 */
export function lowerOwnSchedulingGroup(nice = backgroundNice()): boolean {
  if (process.platform !== 'linux' || nice === 0 || !leadsOwnSession()) return false;
  try {
    writeFileSync('/proc/self/autogroup', String(nice));
    return true;
  } catch {
    return false; // autogroup off or not built in: the thread's nice value still applies
  }
}

function leadsOwnSession(): boolean {
  return Number(ownStatField(6)) === process.pid; // the session id
}

/** Field `n` of /proc/self/stat as man 5 proc numbers them ('' where there is none), counted from
 *  after the command name's last ')' (a name may hold spaces). */
function ownStatField(n: number): string {
  try {
    const stat = readFileSync('/proc/self/stat', 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[n - 3] ?? '';
  } catch {
    return '';
  }
}

/** util-linux's chrt (absolute: no PATH lookup): Node has no call for a scheduling policy. */
export const CHRT = '/usr/bin/chrt';

/**
 * Puts the calling thread, or the whole calling process (every thread, and those they start),
 * under SCHED_IDLE (Linux): it runs on what CPU ordinary threads leave, and one that wakes takes
 * the CPU from it at once. nice 10 and a group of its own still left the extension host's loop
 * waiting 60-150 ms for a CPU behind the reader and the adapter in 7 of 12 1M-event loads; with
 * SCHED_IDLE 2 of 8 (README, Big logs). The adapter's answers were not slower (the transcript
 * served in at most 212-440 ms, 259-516 before).
 * KITE_BACKGROUND_NICE=0 leaves it out too. false where it did not apply.
 */
export function idleScheduling(scope: 'thread' | 'process', env: NodeJS.ProcessEnv = process.env): boolean {
  return backgroundNice(env) !== 0 && setPolicy('--idle', scope);
}

/**
 * Puts the calling thread back under the ordinary policy (SCHED_OTHER, its nice value kept): for a
 * background thread whose work a person now watches — a timeline's reader once the history is
 * read follows a live run's appends, and under SCHED_IDLE a machine kept busy (the agent's own
 * tests, say) would leave those appends almost no CPU. false where it did not apply.
 */
export function ordinaryScheduling(env: NodeJS.ProcessEnv = process.env): boolean {
  return backgroundNice(env) !== 0 && setPolicy('--other', 'thread');
}

function setPolicy(policy: '--idle' | '--other', scope: 'thread' | 'process'): boolean {
  if (process.platform !== 'linux' || !existsSync(CHRT)) return false;
  try {
    const target = scope === 'thread' ? Number(readlinkSync('/proc/thread-self').split('/').pop()) : process.pid;
    const all = scope === 'process' ? ['--all-tasks'] : [];
    return spawnSync(CHRT, [...all, policy, '--pid', '0', String(target)], { stdio: 'ignore', timeout: 5_000 }).status === 0;
  } catch {
    return false;
  }
}

/**
 * The calling process becomes background work as a whole (Linux): its thread's nice value, its
 * own scheduling group when it leads a session, and SCHED_IDLE for every thread. For a process
 * that only ever does background work (the replay adapter on a recorded log); never the host's.
 */
export function backgroundProcess(env: NodeJS.ProcessEnv = process.env): void {
  // Already done (the adapter's launcher does it before the bundle, which asks again at launch):
  // SCHED_IDLE (policy 5, field 41) is the last step, so it says the rest is done too.
  if (Number(ownStatField(41)) === 5) return;
  const nice = backgroundNice(env);
  lowerThisThreadsPriority(nice);
  lowerOwnSchedulingGroup(nice);
  idleScheduling('process', env);
}
