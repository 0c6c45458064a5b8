#!/usr/bin/env node
// How long one thread waited runnable for a CPU, and what ran on every CPU meanwhile (Linux, perf):
// each stretch from the thread's wake-up (or its preemption) to its next time on a CPU, the longest
// first, with the threads that held each CPU in it (time, and their longest single run). It tells a
// CPU given to others in many short runs (the scheduler kept choosing them: group fairness) from one
// thread holding a CPU for long. Record system-wide while the thread waits, e.g. over a 1M load:
//   perf record -a -e sched:sched_switch -e sched:sched_wakeup -o /tmp/sched.data -- sleep 28
//   perf script -i /tmp/sched.data -F comm,tid,cpu,time,event,trace > /tmp/sched.txt
//   node scripts/cpu-waits.mjs /tmp/sched.txt TID [longest=6] [threshold-ms=20]
// (The extension host's main thread: its tid is the process id, `pgrep -f extensionHost`.)
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

const [file, tidArg, topArg, thresholdArg] = process.argv.slice(2);
if (!file || !tidArg) {
  console.error('usage: node scripts/cpu-waits.mjs SCHED.txt TID [longest] [threshold-ms]');
  process.exit(2);
}
const tid = Number(tidArg);
const top = Number(topArg ?? 6);
const threshold = Number(thresholdArg ?? 20) / 1000;

const SWITCH = /\[(\d+)\]\s+([\d.]+):\s+sched:sched_switch: prev_comm=(.*?) prev_pid=(\d+) prev_prio=\d+ prev_state=(\S+) ==> next_comm=(.*?) next_pid=(\d+)/;
const WAKEUP = /\[(\d+)\]\s+([\d.]+):\s+sched:sched_wakeup: comm=.*? pid=(\d+) prio=\d+ target_cpu=(\d+)/;

/** cpu -> [start, end, who][] */
const runs = new Map();
/** cpu -> [start, who] of what runs there now */
const current = new Map();
const waits = [];
let readyAt = null;
let readyCpu = null;

for await (const line of createInterface({ input: createReadStream(file) })) {
  const s = SWITCH.exec(line);
  if (s) {
    const cpu = Number(s[1]);
    const t = Number(s[2]);
    const now = current.get(cpu);
    if (now) (runs.get(cpu) ?? runs.set(cpu, []).get(cpu)).push([now[0], t, now[1]]);
    current.set(cpu, [t, `${s[6]}/${s[7]}`]);
    // Preempted (still runnable): its wait starts now; it ends when it is switched in again.
    if (Number(s[4]) === tid && s[5].startsWith('R')) [readyAt, readyCpu] = [t, cpu];
    if (Number(s[7]) === tid && readyAt !== null) {
      waits.push({ ms: (t - readyAt) * 1000, from: readyAt, to: t, queuedOn: readyCpu, ranOn: cpu });
      readyAt = null;
    }
    continue;
  }
  const w = WAKEUP.exec(line);
  if (w && Number(w[3]) === tid) [readyAt, readyCpu] = [Number(w[2]), Number(w[4])];
}

waits.sort((a, b) => b.ms - a.ms);
const total = waits.reduce((sum, w) => sum + w.ms, 0);
console.log(`thread ${tid}: ${waits.length} waits for a CPU, ${(total / 1000).toFixed(2)} s in all, ${waits.filter((w) => w.ms > threshold * 1000).length} over ${threshold * 1000} ms`);
for (const w of waits.slice(0, top)) {
  console.log(`\n${w.ms.toFixed(1)} ms from ${w.from.toFixed(3)} s (queued on cpu${w.queuedOn}, ran on cpu${w.ranOn})`);
  for (const cpu of [...runs.keys()].sort((a, b) => a - b)) {
    const held = new Map();
    for (const [start, end, who] of runs.get(cpu)) {
      if (end <= w.from || start >= w.to) continue;
      const d = Math.min(end, w.to) - Math.max(start, w.from);
      const e = held.get(who) ?? { ms: 0, longest: 0 };
      e.ms += d * 1000;
      e.longest = Math.max(e.longest, d * 1000);
      held.set(who, e);
    }
    const list = [...held].sort((a, b) => b[1].ms - a[1].ms).slice(0, 5);
    console.log(`  cpu${cpu}: ${list.map(([who, e]) => `${who} ${e.ms.toFixed(1)} ms (longest run ${e.longest.toFixed(1)})`).join(', ')}`);
  }
}
