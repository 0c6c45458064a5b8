#!/usr/bin/env node
// Where the machine's CPUs went while something ran (Linux): CPU time and time spent waiting
// runnable for a CPU, per thread of every process, between `start` and `stop`. Used to find what
// competes with VS Code's extension host for a two-core machine's CPUs during a big load.
//   node scripts/cpu-by-thread.mjs start /tmp/cpu.json     # snapshot
//   ... the work ...
//   node scripts/cpu-by-thread.mjs stop /tmp/cpu.json [N]  # the N (25) threads that used most
//   node scripts/cpu-by-thread.mjs diff /tmp/a.json /tmp/b.json [N]  # between two `start` snapshots
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';

const HZ = 100; // USER_HZ: /proc/*/stat counts clock ticks of 10 ms

function read(path) {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return null; // the task ended meanwhile
  }
}

/** Every thread now: key pid/tid -> its CPU (ms), its run-queue wait (ms) and names. */
function snapshot() {
  const tasks = {};
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    const cmd = (read(`/proc/${pid}/cmdline`) ?? '').split('\0').filter(Boolean);
    const what = describe(cmd);
    let tids = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      const stat = read(`/proc/${pid}/task/${tid}/stat`);
      const sched = read(`/proc/${pid}/task/${tid}/schedstat`);
      if (!stat || !sched) continue;
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const f = stat.slice(close + 2).split(' ');
      const cpuMs = ((Number(f[11]) + Number(f[12])) * 1000) / HZ;
      const waitMs = Number(sched.split(' ')[1]) / 1e6;
      tasks[`${pid}/${tid}`] = { process: what, thread: comm, cpuMs, waitMs };
    }
  }
  return { at: Date.now(), tasks };
}

/** A process by what it is: the script or program it runs, shortened. */
function describe(cmd) {
  if (cmd.length === 0) return '?';
  const base = (s) => s.split('/').pop();
  const type = cmd.find((a) => a.startsWith('--type='));
  if (type) return `${base(cmd[0])} ${type}`;
  const script = cmd.slice(1).find((a) => !a.startsWith('-'));
  return script ? `${base(cmd[0])} ${script.length > 80 ? `…${script.slice(-80)}` : script}` : base(cmd[0]);
}

const [verb, ...args] = process.argv.slice(2);
const load = (file) => JSON.parse(readFileSync(file, 'utf8'));
if (verb === 'start' && args[0]) {
  writeFileSync(args[0], JSON.stringify(snapshot()));
} else if (verb === 'stop' && args[0]) {
  report(load(args[0]), snapshot(), Number(args[1] ?? 25));
} else if (verb === 'diff' && args[1]) {
  // Two snapshots taken by `start` (e.g. every few seconds in a loop, the last before the processes exited).
  report(load(args[0]), load(args[1]), Number(args[2] ?? 25));
} else {
  console.error('usage: cpu-by-thread.mjs start|stop FILE [N] | diff BEFORE AFTER [N]');
  process.exit(2);
}

function report(before, after, top) {
  const seconds = (after.at - before.at) / 1000;
  const rows = Object.entries(after.tasks).map(([k, t]) => {
    const b = before.tasks[k] ?? { cpuMs: 0, waitMs: 0 };
    return { k, ...t, cpuMs: t.cpuMs - b.cpuMs, waitMs: t.waitMs - b.waitMs };
  });
  const byProcess = new Map();
  for (const r of rows) {
    const pid = r.k.split('/')[0];
    const p = byProcess.get(pid) ?? { process: r.process, cpuMs: 0, waitMs: 0 };
    p.cpuMs += r.cpuMs;
    p.waitMs += r.waitMs;
    byProcess.set(pid, p);
  }
  const total = rows.reduce((s, r) => s + r.cpuMs, 0);
  console.log(`${seconds.toFixed(1)} s; CPU used ${(total / 1000).toFixed(1)} s of ${(2 * seconds).toFixed(1)} s on 2 CPUs`);
  console.log('\nprocesses (CPU s, waited for a CPU s):');
  for (const [pid, p] of [...byProcess].sort((a, b) => b[1].cpuMs - a[1].cpuMs).slice(0, 12)) {
    if (p.cpuMs < 100) continue;
    console.log(`  ${(p.cpuMs / 1000).toFixed(1).padStart(6)} ${(p.waitMs / 1000).toFixed(1).padStart(6)}  ${pid} ${p.process}`);
  }
  console.log('\nthreads (CPU s, waited for a CPU s):');
  for (const r of rows.sort((a, b) => b.cpuMs - a.cpuMs).slice(0, top)) {
    if (r.cpuMs < 50) continue;
    console.log(`  ${(r.cpuMs / 1000).toFixed(1).padStart(6)} ${(r.waitMs / 1000).toFixed(1).padStart(6)}  ${r.k} ${r.thread} — ${r.process}`);
  }
}
