#!/usr/bin/env node
// What a process's main thread was blocked on when it slept through its own timers (Linux, run as
// the same user or root). The long-task monitor counts "asleep" stalls — the loop's thread neither
// ran nor waited for a CPU — but cannot see why from inside. This samples the thread from outside
// every ~2 ms (state, kernel wait channel, system call) and, for each stretch of 50 ms or more
// spent sleeping anywhere but the event loop's idle wait (epoll_wait), says where it slept.
//   node scripts/blocked-on.mjs PATTERN [seconds=600] [stacks=0]   # PATTERN: a regex on the command line
// With stacks > 0, the first that many sleeps in a futex that pass 40 ms also get the thread's
// native stack from gdb (it stops the process for a second or two: the run is perturbed).
//   e.g. node scripts/blocked-on.mjs 'type=extensionHost' while a 1M load runs
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

const [pattern, secondsArg, stacksArg] = process.argv.slice(2);
let stacksLeft = Number(stacksArg ?? 0);
const stacks = [];
if (!pattern) {
  console.error('usage: node scripts/blocked-on.mjs PATTERN [seconds]');
  process.exit(2);
}
const until = Date.now() + Number(secondsArg ?? 600) * 1000;
const tick = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms) => Atomics.wait(tick, 0, 0, ms);
const read = (path) => {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return null;
  }
};
/** x86-64 system call numbers seen in a blocked Node thread. */
const SYSCALLS = { 0: 'read', 1: 'write', 7: 'poll', 17: 'pread64', 18: 'pwrite64', 23: 'select', 61: 'wait4', 74: 'fsync', 75: 'fdatasync', 202: 'futex', 232: 'epoll_wait', 281: 'epoll_pwait', 441: 'epoll_pwait2', 257: 'openat', 3: 'close', 262: 'newfstatat', 4: 'stat', 5: 'fstat', 9: 'mmap', 11: 'munmap', 10: 'mprotect', 12: 'brk', 228: 'clock_gettime', 56: 'clone', 435: 'clone3', 59: 'execve' };

function findPid() {
  const re = new RegExp(pattern);
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d) && Number(d) !== process.pid)) {
    if (re.test((read(`/proc/${pid}/cmdline`) ?? '').replaceAll('\0', ' '))) return pid;
  }
  return null;
}

let pid = null;
while (!pid && Date.now() < until) {
  pid = findPid();
  if (!pid) sleep(200);
}
if (!pid) {
  console.error(`no process matches ${pattern}`);
  process.exit(1);
}
console.error(`sampling the main thread of ${pid}`);
const stretches = [];
let current = null;
let samples = 0;
while (Date.now() < until) {
  const stat = read(`/proc/${pid}/stat`);
  if (stat === null) break; // the process ended
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  const now = performance.now();
  samples++;
  let where = null;
  if (state !== 'R') {
    const sys = (read(`/proc/${pid}/syscall`) ?? '').split(' ')[0];
    const name = SYSCALLS[sys] ?? `syscall ${sys}`;
    // The loop idle in its poll is not a stall: only other waits are.
    if (!/epoll/.test(name)) where = `${state} ${name} in ${(read(`/proc/${pid}/wchan`) ?? '?').trim() || '?'}`;
  }
  if (where) {
    current ??= { at: now, end: now, where: new Map() };
    current.end = now;
    current.where.set(where, (current.where.get(where) ?? 0) + 1);
    if (stacksLeft > 0 && !current.stack && /futex/.test(where) && now - current.at >= 40) {
      stacksLeft--;
      current.stack = true;
      try {
        const bt = execFileSync('gdb', ['-p', pid, '-batch', '-ex', 'thread apply 1 bt 30'], { encoding: 'latin1', timeout: 20_000, stdio: ['ignore', 'pipe', 'ignore'] });
        stacks.push(`after ${(now - current.at).toFixed(0)} ms:\n${bt.split('\n').filter((l) => /^#/.test(l)).join('\n')}`);
      } catch (e) {
        stacks.push(`gdb failed: ${e.message}`);
      }
    }
  } else if (current) {
    stretches.push(current);
    current = null;
  }
  sleep(2);
}
if (current) stretches.push(current);
const long = stretches.filter((s) => s.end - s.at >= 50).sort((a, b) => b.end - b.at - (a.end - a.at));
const byWhere = new Map();
for (const s of stretches) for (const [w, n] of s.where) byWhere.set(w, (byWhere.get(w) ?? 0) + n * 2);
console.log(`${samples} samples; ${stretches.length} stretches asleep outside the event loop's wait, ${long.length} of 50 ms or more`);
console.log('time asleep outside the loop wait, by where (ms, approximate):');
for (const [w, ms] of [...byWhere].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${String(ms).padStart(7)}  ${w}`);
console.log('longest stretches:');
for (const s of long.slice(0, 15)) {
  const where = [...s.where].sort((a, b) => b[1] - a[1]).map(([w, n]) => `${w} ×${n}`).join(', ');
  console.log(`  ${(s.end - s.at).toFixed(0).padStart(5)} ms at +${((s.at - stretches[0].at) / 1000).toFixed(1)} s: ${where}`);
}
for (const st of stacks) console.log(`\nstack of a futex sleep ${st}`);
