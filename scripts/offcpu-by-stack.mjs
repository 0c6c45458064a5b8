#!/usr/bin/env node
// Where one thread slept off its CPU, by native stack (Linux, perf): every stretch between the
// thread being switched out and switched back in, grouped by the first frames of the stack it went
// to sleep in. Sleeps in epoll_wait (the event loop's idle wait) are left out; a thread switched out
// while runnable (preempted) is summed apart. Finds what the extension host's main thread blocks on
// (the long-task monitor's "asleep" stalls): a mutex a preempted thread holds, a condition variable
// signalled to a thread pool whose threads wait for a CPU. Record, while the load runs:
//   perf record -e sched:sched_switch --call-graph dwarf,16384 -a -o /tmp/sw.data \
//     --filter "prev_pid == TID || next_pid == TID" -- sleep 25
//   perf script -i /tmp/sw.data -F time,event,trace,ip,sym,dso > /tmp/sw.txt
//   node scripts/offcpu-by-stack.mjs /tmp/sw.txt TID [frames=3]
import { readFileSync } from 'node:fs';

const [file, tid, framesArg] = process.argv.slice(2);
if (!file || !tid) {
  console.error('usage: offcpu-by-stack.mjs PERF_SCRIPT_OUTPUT TID [frames]');
  process.exit(2);
}
const frames = Number(framesArg ?? 3);
const SWITCH = /^\s*([\d.]+): sched:sched_switch: .*prev_pid=(\d+) .*prev_state=(\S+) ==> .*next_pid=(\d+)/;

const sleeps = [];
let out = null;
for (const record of readFileSync(file, 'utf8').split('\n\n')) {
  const lines = record.trim().split('\n');
  const m = SWITCH.exec(lines[0] ?? '');
  if (!m) continue;
  const t = Number(m[1]) * 1000;
  if (m[2] === tid) out = { t, state: m[3], stack: lines.slice(1).map((l) => l.trim().replace(/^[0-9a-f]+ /, '')) };
  else if (m[4] === tid && out) {
    sleeps.push({ ms: t - out.t, ...out });
    out = null;
  }
}

const preempted = sleeps.filter((s) => s.state.startsWith('R'));
const blocked = sleeps.filter((s) => !s.state.startsWith('R') && !s.stack.some((l) => l.includes('epoll')));
const where = (s) =>
  s.stack
    .filter((l) => !/kernel\.kallsyms|libc\.so|\(inlined\)/.test(l))
    .slice(0, frames)
    .map((l) => l.replace(/ \(.*\)$/, ''))
    .join(' < ') || '(no user frames)';
const sum = (xs) => xs.reduce((a, s) => a + s.ms, 0);
const max = (xs) => Math.max(0, ...xs.map((s) => s.ms));
console.log(`${sleeps.length} times off the CPU; preempted ${preempted.length} (${sum(preempted).toFixed(0)} ms, longest ${max(preempted).toFixed(1)} ms); asleep outside the loop's wait ${blocked.length} (${sum(blocked).toFixed(0)} ms, longest ${max(blocked).toFixed(1)} ms)`);
const byWhere = new Map();
for (const s of blocked) {
  const k = where(s);
  byWhere.set(k, [...(byWhere.get(k) ?? []), s]);
}
console.log('\nasleep, by where (ms in all, times, longest, over 20 ms):');
for (const [k, xs] of [...byWhere].sort((a, b) => sum(b[1]) - sum(a[1])).slice(0, 15)) {
  console.log(`${sum(xs).toFixed(0).padStart(6)} ${String(xs.length).padStart(6)} ${max(xs).toFixed(1).padStart(6)} ${String(xs.filter((s) => s.ms > 20).length).padStart(4)}  ${k}`);
}
